import { brandingFor, type UiVariant } from '../lib/branding-variants.ts';

/**
 * The pre-paints in another look than the default (spec §9 `ui`; issue 28: `?ui=cr` pages had no
 * picture): their style sheets are written in the default look's colours — the brand colour, the
 * text on it, its darker tone for text on white, the progress track (MUI's `lighten(primary,
 * 0.62)`) — which are swapped for the look's, and the product's name for its own.
 */
export function applyLook(root: HTMLElement, ui: UiVariant): void {
  if (ui === 'acn') return;
  const from = brandingFor('acn');
  const to = brandingFor(ui);
  const swaps: [string, string][] = [
    [from.primary, to.primary],
    ['#0a1f2b', textOn(to.primary)],
    [from.primaryText, to.primaryText],
    ['#b3def2', lighten(to.primary, 0.62)],
  ];
  for (const style of root.querySelectorAll('style'))
    style.textContent = swaps.reduce((css, [a, b]) => css.split(a).join(b), style.textContent ?? '');
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode())
    if (node.nodeValue === from.productName) node.nodeValue = to.productName;
}

const channels = (hex: string) => [1, 3, 5].map((k) => Number.parseInt(hex.slice(k, k + 2), 16));

/** MUI's `lighten`: each channel moved `amount` of the way to white. */
export function lighten(hex: string, amount: number): string {
  return `#${channels(hex)
    .map((c) =>
      Math.round(c + (255 - c) * amount)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** The theme's text on the brand colour (lib/theme.ts `textOn`, without MUI): white from 4.5:1. */
export function textOn(hex: string): string {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (luminance + 0.05) >= 4.5 ? '#fff' : '#0a1f2b';
}
