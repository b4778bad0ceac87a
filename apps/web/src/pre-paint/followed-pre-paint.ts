import { prePaintRoot, spriteIcon } from './dom.ts';
import { GENERIC_CHROME_CSS } from './generic-chrome.ts';

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
export const FOLLOWED_PRE_PAINT_CSS =
  GENERIC_CHROME_CSS +
  `#pre-paint header>i{display:flex;padding:8px;margin-left:-12px}
#pre-paint header>i svg{width:24px;height:24px;margin:0}
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
