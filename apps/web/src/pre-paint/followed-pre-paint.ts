import { prePaintRoot, spriteIcon } from './dom.ts';

/**
 * `/genericTracking`'s picture before React (issue 28: Lighthouse LCP 3.5 s — the page drew its
 * first words only once the app had started and its chunk had come): the blank layout's top bar
 * (top-bar.tsx, with its menu button), the page's breadcrumbs and title, and — when this device
 * follows nobody — the message saying how to follow someone (generic-tracking-page.tsx). Its
 * athletes' cards or the event list under it are React's to draw. No call is needed: the texts
 * are the script's own.
 */
export interface FollowedPrePaintStrings {
  product: string;
  home: string;
  title: string;
  none: string;
}

/** The page's texts of one language from their locale namespaces (common, live). */
export function followedPrePaintStrings(ns: { common: object; live: object }): FollowedPrePaintStrings {
  // (JSON namespaces: the keys below are checked by the tests, which build from the real files.)
  const c = ns.common as { product: string; nav: Record<string, string> };
  const l = ns.live as { follow: Record<string, string> };
  return { product: c.product, home: c.nav.home!, title: l.follow.title!, none: l.follow.none! };
}

/** What the picture is drawn from. */
export interface FollowedPrePaintInput {
  lng: 'en' | 'fr';
  strings: FollowedPrePaintStrings;
  sprite: string;
  logo: string;
  /** This device follows someone: their cards come under the title, not the message. */
  following: boolean;
}

/**
 * The page's rules (MUI theme: dense AppBar, IconButton at the edge, PageHeader, standard info
 * Alert; the page's Box: padding 12 px, 24 from 600 px, 1200 px wide at most), measured on the
 * rendered page at 390 and 1280 px, under `#pre-paint` only.
 */
export const FOLLOWED_PRE_PAINT_CSS = `#pre-paint{position:fixed;inset:0;z-index:1400;overflow:hidden;background:#f6f8fa;color:rgba(0,0,0,.87);font:400 16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-font-smoothing:antialiased;pointer-events:none}
#pre-paint *{box-sizing:border-box}
#pre-paint header{display:flex;align-items:center;gap:8px;min-height:48px;padding:0 16px;background:#39aade;color:#0a1f2b}
#pre-paint header>i{display:flex;padding:8px;margin-left:-12px}
#pre-paint header>i svg{width:24px;height:24px;margin:0}
#pre-paint header>span{flex-grow:1;display:flex;align-items:center;gap:8px;font-weight:700}
#pre-paint header img{width:24px;height:24px;background:#fff;border-radius:50%}
#pre-paint header b{display:flex;align-items:center;justify-content:center;min-width:64px;padding:6px 8px;font-size:14px;line-height:24.5px;font-weight:600}
#pre-paint svg{width:20px;height:20px;margin:0 8px 0 -4px;fill:currentColor}
#pre-paint main{display:block;padding:12px;max-width:1200px;margin:0 auto}
#pre-paint ol{display:flex;list-style:none;margin:0;padding:0;font-size:14px;line-height:21px;color:rgba(0,0,0,.6)}
#pre-paint ol i{font-style:normal;margin:0 8px}
#pre-paint h1{margin:0 0 16px;font-size:24px;line-height:1.235;font-weight:600}
#pre-paint p{display:flex;margin:0 0 16px;padding:6px 16px;border-radius:8px;background:#e5f6fd;color:#014361;font-size:14px;line-height:1.43}
#pre-paint p svg{flex-shrink:0;width:22px;height:22px;margin:7px 12px 7px 0;color:#0288d1}
#pre-paint p span{padding:8px 0}
@media (min-width:600px){#pre-paint header{padding:0 24px}#pre-paint main{padding:24px}#pre-paint h1{font-size:32px}}`;

/** Draws the picture of `/genericTracking`. */
export function buildFollowedPrePaint(doc: Document, input: FollowedPrePaintInput): HTMLElement {
  const { lng, strings: s } = input;
  const el = (tag: string, parent: Element, text?: string | null) => {
    const node = doc.createElement(tag);
    if (text != null) node.textContent = text;
    parent.append(node);
    return node;
  };
  const icon = (name: 'menu' | 'translate' | 'info') => spriteIcon(doc, input.sprite, name);
  const root = prePaintRoot(doc, lng);
  el('style', root, FOLLOWED_PRE_PAINT_CSS);
  // top-bar.tsx: the menu button, logo and name, the language button.
  const bar = el('header', root);
  el('i', bar).append(icon('menu'));
  const brand = el('span', bar);
  (el('img', brand) as HTMLImageElement).src = input.logo;
  brand.append(s.product);
  el('b', bar).append(icon('translate'), lng.toUpperCase());
  const main = el('main', root);
  // PageHeader: Home / title, then the title.
  const crumbs = el('ol', main);
  el('li', crumbs, s.home);
  el('i', crumbs, '/');
  el('li', crumbs, s.title);
  el('h1', main, s.title);
  if (!input.following) {
    const alert = el('p', main);
    alert.append(icon('info'));
    el('span', alert, s.none);
  }
  return root;
}
