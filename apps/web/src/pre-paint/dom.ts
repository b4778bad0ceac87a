import type { PrePaintIcon } from './icons.ts';

/**
 * The pre-paints' root (issue 19): `#pre-paint`, which the app removes once its page is on screen
 * (lib/pre-paint.ts). A picture of the page, not a second one: hidden from screen readers and
 * inert, in the page's language.
 */
export function prePaintRoot(doc: Document, lng: 'en' | 'fr'): HTMLDivElement {
  const root = doc.createElement('div');
  root.id = 'pre-paint';
  root.setAttribute('aria-hidden', 'true');
  root.setAttribute('inert', '');
  root.setAttribute('lang', lng);
  return root;
}

/** An icon of the pre-paints' sprite (icons.ts), by name. */
export function spriteIcon(doc: Document, sprite: string, name: PrePaintIcon): SVGSVGElement {
  const svg = doc.createElementNS('http://www.w3.org/2000/svg', 'svg');
  const use = doc.createElementNS('http://www.w3.org/2000/svg', 'use');
  use.setAttribute('href', `${sprite}#${name}`);
  svg.append(use);
  return svg;
}
