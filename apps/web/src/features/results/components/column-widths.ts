import type { ColumnDef } from '@tempora/contracts';
import { formatDuration, formatGap } from '@tempora/domain';
import { FONT_FAMILY } from '../../../lib/font.ts';
import type { ColumnRole } from './column-layout.ts';

/** Horizontal padding of a cell: 8 px a side (table-styles.ts). */
export const CELL_PADDING = 16;

let measure: ((font: string, text: string) => number) | undefined;

/**
 * Width (px) of a cell's text (14 px, table-styles.ts) measured by a canvas in the page's font as
 * the browser resolves its list — the same fallback in a canvas as in the page (issue 41: Debian's
 * Chromium draws a bold 14 px "19998" in DejaVu Sans 48.7 px wide, more than the rank's 48 px).
 * No layout read (nothing of the page is measured): a render may call it. Digits count as the
 * font's widest, so a value measures as wide as any other of its shape (`tabular-nums` in the
 * page). Without a canvas (jsdom: the tests' setup), 10 px a character.
 */
export function textWidth(text: string, bold: boolean): number {
  if (!measure) {
    const context = document.createElement('canvas').getContext('2d');
    measure = context
      ? (font, t) => {
          context.font = font;
          return context.measureText(t).width;
        }
      : (_, t) => t.length * 10;
  }
  const font = `${bold ? 700 : 400} 14px ${FONT_FAMILY}`;
  return Math.max(...[...'0123456789'].map((d) => measure!(font, text.replace(/\d/g, d))));
}

/**
 * The width (px) the widest value of each rank and time column needs, padding included, by column
 * index (undefined: the layout's default width, which holds five digits of a bib or a rank in
 * regular weight). A rank is never above the table's `total` (rows not loaded yet included); a
 * time column is as wide as the longest duration of any time column in the rows at hand (a gap is
 * never longer than the last time): the first rows already give the widths the whole table will
 * have, and nothing moves when it comes.
 */
export function contentWidths(
  columns: readonly ColumnDef[],
  roles: readonly ColumnRole[],
  rows: readonly unknown[][],
  total: number,
  lng: 'en' | 'fr',
  width: (text: string, bold: boolean) => number = textWidth,
): (number | undefined)[] {
  let most = 0;
  for (const c of columns)
    if (c.Type === 'time') for (const row of rows) most = Math.max(most, Number(row[c.FieldIdx]) || 0);
  // Each text measured once (issue 41: Boston's splits share one, measured again for each column).
  const measured = new Map<string, number>();
  return columns.map((c, i) => {
    const text =
      c.Type === 'time'
        ? c.Settings.Format === 'gap'
          ? formatGap(most, lng, c.Settings.Decimals)
          : formatDuration(most, c.Settings.Decimals)
        : roles[i] === 'rank' || roles[i] === 'overall'
          ? String(total)
          : '';
    const key = c.Bold + text;
    if (text && !measured.has(key)) measured.set(key, width(text, c.Bold));
    return text ? Math.ceil(measured.get(key)! + CELL_PADDING) : undefined;
  });
}
