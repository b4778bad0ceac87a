import type { EventDetail } from '@tempora/contracts';
import { DEFAULT_CHROME_CSS, type DefaultChromeStrings, drawDefaultChrome } from './default-chrome.ts';
import { prePaintRoot, spriteIcon } from './dom.ts';

/**
 * The home page's and an event's home page's picture before React (issue 28: Lighthouse LCP —
 * `/` 4.7 s and the event home 3.5 s on a throttled phone, their heading or first paragraph drawn
 * by React only once the whole app had started). The same first screen as the pages
 * (home-page.tsx, event-home-page.tsx): the default layout's chrome, then the heading and what sits
 * under it, from the early answer the boot script asked for (the event) and the locale texts.
 */
export interface ContentPrePaintStrings extends DefaultChromeStrings {
  homeTitle: string;
  homeSubtitle: string;
  homeSearch: string;
  homeSearchHint: string;
  status: Record<string, string>;
}

/** The pages' texts of one language from their locale namespaces (common, content). */
export function contentPrePaintStrings(ns: { common: object; content: object }): ContentPrePaintStrings {
  // (JSON namespaces: the keys below are checked by the tests, which build from the real files.)
  const c = ns.common as { product: string; nav: Record<string, string>; shell: Record<string, string> };
  const t = ns.content as { home: Record<string, string>; status: Record<string, string> };
  return {
    product: c.product,
    home: c.nav.home!,
    signIn: c.shell.signIn!,
    navTracking: c.nav.tracking!,
    navPhotos: c.nav.photos!,
    homeTitle: t.home.title!,
    homeSubtitle: t.home.subtitle!,
    homeSearch: t.home.search!,
    homeSearchHint: t.home.searchHint!,
    status: t.status,
  };
}

/** What the picture is drawn from. */
export interface ContentPrePaintInput {
  /** The event of an event's home page (its early answer); absent on `/`. */
  event?: Pick<EventDetail, 'name' | 'status' | 'startDate' | 'endDate' | 'place' | 'branding'>;
  lng: 'en' | 'fr';
  strings: ContentPrePaintStrings;
  sprite: string;
  logo: string;
  width: number;
  pinned: boolean;
}

/**
 * The pages' rules (MUI theme, PageHeader, home-page.tsx, event-home-page.tsx' Paper), measured on
 * the rendered pages at 390 and 1280 px, under `#pre-paint` only.
 */
export const CONTENT_PRE_PAINT_CSS = `#pre-paint{position:fixed;inset:0;z-index:1400;overflow:hidden;background:#f6f8fa;color:rgba(0,0,0,.87);font:400 16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-font-smoothing:antialiased;pointer-events:none}
#pre-paint *{box-sizing:border-box}
#pre-paint svg{width:20px;height:20px;margin:0 8px 0 -4px;fill:currentColor}
#pre-paint ol{display:flex;flex-wrap:wrap;list-style:none;margin:0;padding:0;font-size:14px;line-height:1.5;color:rgba(0,0,0,.6)}
#pre-paint ol i{font-style:normal;margin:0 8px}
#pre-paint h1{margin:0;font-size:24px;line-height:1.235;font-weight:600}
#pre-paint .pp-head{margin-bottom:16px}
#pre-paint .pp-home{margin:0 0 8px;font-size:26px}
#pre-paint p{margin:0 0 16px}
#pre-paint .pp-search{position:relative;display:flex;align-items:center;max-width:520px;height:40px;margin:0 0 24px;padding:0 14px 0 8px;border:1px solid rgba(0,0,0,.23);border-radius:8px;color:rgba(0,0,0,.6);white-space:nowrap}
#pre-paint .pp-search label{position:absolute;top:-10px;left:9px;padding:0 5px;font-size:12px;line-height:1.5;background:#f6f8fa}
#pre-paint .pp-search svg{margin:0 8px}
#pre-paint .pp-paper{margin-bottom:24px;padding:16px;background:#fff;border:1px solid rgba(0,0,0,.12);border-top:6px solid #39aade;border-radius:8px}
#pre-paint .pp-line{display:flex;flex-wrap:wrap;gap:8px;align-items:center}
#pre-paint .pp-line b{font-weight:500}
#pre-paint .pp-chip{height:24px;padding:0 8px;border-radius:12px;font-size:13px;line-height:24px;white-space:nowrap;background:rgba(0,0,0,.08)}
#pre-paint .pp-live{background:#d32f2f;color:#fff}
#pre-paint .pp-tag{margin:8px 0 0;font-size:20px;line-height:1.6;font-weight:500;color:inherit}
@media (min-width:600px){#pre-paint h1{font-size:32px}#pre-paint .pp-home{font-size:34px}#pre-paint .pp-paper{padding:24px}}`;

/** The dates of an event ("31 May 2026", or a range), as event-card.tsx writes them. */
function eventDates(lng: string, e: Pick<EventDetail, 'startDate' | 'endDate'>): string {
  const format = new Intl.DateTimeFormat(lng.startsWith('fr') ? 'fr-BE' : 'en-GB', {
    dateStyle: 'medium',
    timeZone: 'UTC',
  });
  const day = (iso: string) => format.format(new Date(`${iso}T00:00:00Z`));
  return e.endDate === e.startDate ? day(e.startDate) : `${day(e.startDate)} – ${day(e.endDate)}`;
}

/** Draws the picture of `/` (no event) or of an event's home page. */
export function buildContentPrePaint(doc: Document, input: ContentPrePaintInput): HTMLElement {
  const { lng, strings: s, event } = input;
  const el = (tag: string, parent: Element, text?: string | null, className?: string) => {
    const node = doc.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    parent.append(node);
    return node;
  };
  const root = prePaintRoot(doc, lng);
  el('style', root, CONTENT_PRE_PAINT_CSS + DEFAULT_CHROME_CSS);
  const main = drawDefaultChrome(doc, root, input);
  if (!event) {
    // home-page.tsx: the title, the line under it, the search field.
    el('h1', main, s.homeTitle, 'pp-home');
    el('p', main, s.homeSubtitle);
    const search = el('div', main, null, 'pp-search');
    el('label', search, s.homeSearch);
    search.append(spriteIcon(doc, input.sprite, 'magnify'));
    el('span', search, s.homeSearchHint);
    return root;
  }
  // PageHeader: Home / the event, then its name; the event's Paper: status, dates, place, tagline.
  const head = el('div', main, null, 'pp-head');
  const crumbs = el('ol', head);
  el('li', crumbs, s.home);
  el('i', crumbs, '/');
  el('li', crumbs, event.name);
  el('h1', head, event.name);
  const paper = el('div', main, null, 'pp-paper');
  if (event.branding.color) paper.style.borderTopColor = event.branding.color;
  const line = el('div', paper, null, 'pp-line');
  el(
    'span',
    line,
    s.status[event.status] ?? event.status,
    event.status === 'live' ? 'pp-chip pp-live' : 'pp-chip',
  );
  el('b', line, eventDates(lng, event));
  if (event.place) el('span', line, `· ${event.place}`);
  if (event.branding.tagline) el('p', paper, event.branding.tagline, 'pp-tag');
  return root;
}
