import { spriteIcon } from './dom.ts';
import type { PrePaintIcon } from './icons.ts';

/** The default layout's texts a pre-paint shows (common namespace). */
export interface DefaultChromeStrings {
  product: string;
  home: string;
  signIn: string;
  navTracking: string;
  navPhotos: string;
}

/** What the default layout's picture needs: the viewport's width and the drawer's pin. */
export interface DefaultChromeInput {
  lng: 'en' | 'fr';
  strings: DefaultChromeStrings;
  /** Address of the icons' sprite (icons.ts). */
  sprite: string;
  /** The brand's logo (the rail's head). */
  logo: string;
  /** Width of the viewport: the rail from 900 px, the menu button below. */
  width: number;
  /** The navigation drawer is pinned open (300 px wide). */
  pinned: boolean;
}

/**
 * The default layout's rules (default-layout.tsx, nav-drawer.tsx, MUI's AppBar and Toolbar),
 * measured on the rendered page; `.pp-dl` is the picture's root with this layout, `.pp-col` the
 * column beside the rail and `.pp-main` the page's content.
 */
export const DEFAULT_CHROME_CSS = `#pre-paint.pp-dl{display:flex}
#pre-paint .pp-rail{width:56px;flex-shrink:0;overflow:hidden;background:#fff;border-right:1px solid rgba(0,0,0,.12)}
#pre-paint .pp-pinned{width:300px}
#pre-paint .pp-logo{display:flex;align-items:center;height:64px;padding:0 12px;border-bottom:1px solid rgba(0,0,0,.12)}
#pre-paint .pp-logo img{width:32px;height:32px}
#pre-paint .pp-nav{padding:8px 0}
#pre-paint .pp-nav div{display:flex;align-items:center;height:48px;padding:0 16px;white-space:nowrap}
#pre-paint .pp-nav svg{width:24px;height:24px;margin:0 16px 0 0;flex-shrink:0;color:rgba(0,0,0,.54)}
#pre-paint .pp-col{flex-grow:1;min-width:0;display:flex;flex-direction:column}
#pre-paint .pp-dbar{display:flex;align-items:center;gap:8px;min-height:56px;padding:0 16px;background:#39aade;color:#0a1f2b;box-shadow:0 2px 1px -1px rgba(0,0,0,.2),0 1px 1px 0 rgba(0,0,0,.14),0 1px 3px 0 rgba(0,0,0,.12);position:relative;z-index:1}
@media (orientation:landscape){#pre-paint .pp-dbar{min-height:48px}}
@media (min-width:600px){#pre-paint .pp-dbar{min-height:64px;padding:0 24px}}
#pre-paint .pp-menu{display:inline-flex;padding:8px;margin-left:-12px}
#pre-paint .pp-menu svg{width:24px;height:24px;margin:0}
#pre-paint .pp-title{flex-grow:1;font-size:20px;line-height:32px;font-weight:700}
#pre-paint .pp-btn{display:inline-flex;align-items:center;padding:6px 8px;font-size:14px;line-height:24.5px;font-weight:600;white-space:nowrap}
#pre-paint .pp-main{flex-grow:1;padding:12px;min-width:0}
@media (min-width:600px){#pre-paint .pp-main{padding:24px}}`;

/**
 * The default layout's chrome as a pre-paint draws it (issue 27: an event's tracking card had no
 * picture, LCP 3.8 s): on wide screens the navigation rail (signed out: the pre-paint is not for
 * a user), the bar — menu button below 900 px, the product's name, language, sign in — and the
 * element the page's content goes in (returned). `root` becomes the layout's flex row.
 */
export function drawDefaultChrome(doc: Document, root: HTMLElement, input: DefaultChromeInput): HTMLElement {
  const { strings: s, width } = input;
  const el = (tag: string, className?: string, text?: string) => {
    const node = doc.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const icon = (name: PrePaintIcon) => spriteIcon(doc, input.sprite, name);
  root.classList.add('pp-dl');
  if (width >= 900) {
    const rail = el('div', input.pinned ? 'pp-rail pp-pinned' : 'pp-rail');
    const logo = el('div', 'pp-logo');
    const img = el('img') as HTMLImageElement;
    img.src = input.logo;
    img.alt = '';
    logo.append(img);
    const nav = el('div', 'pp-nav');
    const entries: [PrePaintIcon, string][] = [
      ['home', s.home],
      ['magnify', s.navTracking],
      ['photos', s.navPhotos],
      ['login', s.signIn],
    ];
    for (const [name, label] of entries) {
      const item = el('div');
      item.append(icon(name));
      if (input.pinned) item.append(label);
      nav.append(item);
    }
    rail.append(logo, nav);
    root.append(rail);
  }
  const col = el('div', 'pp-col');
  root.append(col);
  const bar = el('div', 'pp-dbar');
  if (width < 900) {
    const menu = el('span', 'pp-menu');
    menu.append(icon('menu'));
    bar.append(menu);
  }
  bar.append(el('span', 'pp-title', s.product));
  const language = el('span', 'pp-btn');
  language.append(icon('translate'), input.lng.toUpperCase());
  const signIn = el('span', 'pp-btn');
  signIn.append(icon('account'), s.signIn);
  bar.append(language, signIn);
  const main = el('div', 'pp-main');
  col.append(bar, main);
  return main;
}
