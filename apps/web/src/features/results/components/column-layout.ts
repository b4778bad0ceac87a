import type { ColumnDef } from '@tempora/contracts';

/** Fixed widths (px) of narrow cell types; other columns share the rest. */
const FIXED: Partial<Record<ColumnDef['Type'], number>> = {
  favorite: 40,
  flag: 52,
  time: 80,
  spacer: 12,
  image: 48,
};

/** Width of a column: fixed px, or a flexible `minmax` with its minimum. */
export function columnWidth(column: ColumnDef): { px: number; flex: boolean } {
  const fixed = FIXED[column.Type];
  if (fixed !== undefined) return { px: fixed * column.Colspan, flex: false };
  if (column.UrlColumnIdx >= 0) return { px: 170 * column.Colspan, flex: true };
  if (column.Alignment === 'Right' || column.Alignment === 'Center')
    return { px: 72 * column.Colspan, flex: false };
  return { px: 104 * column.Colspan, flex: true };
}

/**
 * The grid of a report: one template for the header and every virtual row (so columns line up),
 * its minimum width (horizontal scroll on phones), and the sticky left offsets of the first
 * columns, up to and including the first link column (the athlete's name), when they are few.
 */
export function columnLayout(columns: readonly ColumnDef[]) {
  const widths = columns.map(columnWidth);
  const template = widths
    .map((w, i) => {
      const span = columns[i]!.Colspan;
      const px = w.px / span;
      return span > 1
        ? `repeat(${span}, ${w.flex ? `minmax(${px}px, 1fr)` : `${px}px`})`
        : w.flex
          ? `minmax(${px}px, ${columns[i]!.UrlColumnIdx >= 0 ? 2 : 1}fr)`
          : `${px}px`;
    })
    .join(' ');
  const minWidth = widths.reduce((sum, w) => sum + w.px, 0);
  const linkAt = columns.findIndex((c) => c.UrlColumnIdx >= 0 && c.Type !== 'favorite');
  const stickyCount = linkAt >= 0 && linkAt < 4 ? linkAt + 1 : 0;
  const sticky: (number | undefined)[] = [];
  let left = 0;
  widths.forEach((w, i) => {
    sticky.push(i < stickyCount ? left : undefined);
    left += w.px;
  });
  return { template, minWidth, sticky, lastSticky: stickyCount - 1 };
}

/** The sticky classes of a column's cells (empty when it scrolls). */
export function stickyClass(left: number | undefined, last: boolean): string {
  return left === undefined ? '' : last ? ' rt-sticky rt-sticky-last' : ' rt-sticky';
}
