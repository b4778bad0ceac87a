// biome-ignore-all lint/a11y/useSemanticElements: a virtualised grid — rows are absolutely positioned divs, so ARIA table roles (with aria-rowcount/aria-rowindex) carry the semantics.
// biome-ignore-all lint/a11y/useFocusableInteractive: table rows, headers and cells are not interactive widgets; the scroll container is focusable.
import { Box, Typography } from '@mui/material';
import type { elementScroll, observeElementOffset, observeElementRect } from '@tanstack/react-virtual';
import type { ReportTable as Table } from '@tempora/contracts';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentEnvironment } from '../../../lib/api-client.ts';
import { viewportSize } from '../../../lib/viewport.ts';
import { useTableVirtualizer } from '../hooks/use-table-virtualizer.ts';
import { useWidth } from '../hooks/use-width.ts';
import { columnRoles, pageTableWidth, planColumns, reachedTimes } from './column-layout.ts';
import { contentWidths } from './column-widths.ts';
import { alignmentOf } from './report-cell.tsx';
import { ReportRow } from './report-row.tsx';
import { COMPACT_ROW_HEIGHT, ROW_HEIGHT, tableSx, topButtonSx } from './table-styles.ts';

export { ROW_HEIGHT };

/** What the table shows. */
export interface ReportTableProps {
  table: Table;
  /** The rows to show (the table's, or a search's). */
  rows: unknown[][];
  favorites: ReadonlySet<string>;
  onToggleFavorite(key: string, trackingKey?: string): void;
  /** Keys of rows changed by a live patch a moment ago (highlighted). */
  changed?: ReadonlyMap<string, number>;
  /** Height of the scrolling area. */
  height?: string;
  /** Rows the whole table has when `rows` is only its first part (progressive loading). */
  totalRows?: number;
  /**
   * Told the indexes of the first and last rows on screen as it scrolls (issue 28: the page keeps
   * live only the rank windows it shows).
   */
  onVisibleRange?: (start: number, end: number) => void;
  /**
   * A row to bring to the middle of the screen and mark (issue 27: jump to a rank or a bib); a new
   * object each time, so the same row can be asked twice.
   */
  target?: { key: string };
}

/** The table's width on a report page, before the browser has laid it out (see `pageTableWidth`). */
function estimatedWidth(): number {
  let pinned = false;
  try {
    pinned = localStorage.getItem('drawerPinned') === 'true';
  } catch {}
  return pageTableWidth(viewportSize().width, pinned);
}

function blobBase(): string {
  try {
    return currentEnvironment().blobUrlBase;
  } catch {
    return '';
  }
}

/**
 * A report table (spec §3): columns from the definitions, rows as arrays indexed by field.
 * Virtualised (product.md: 26,000 rows keep ≤ 100 in the DOM), sticky header, ARIA table
 * semantics with aria-rowcount/aria-rowindex for the rows not in the DOM. Columns are laid out by
 * priority for the width (issue 19, column-layout.ts): what does not fit opens with the row.
 */
/** A row's height from its resize entry, else (just mounted) the estimate (see `useTableVirtualizer` below). */
function measureRow(
  _element: Element,
  entry: ResizeObserverEntry | undefined,
  instance: { options: { estimateSize: (index: number) => number } },
): number {
  const box = entry?.borderBoxSize?.[0];
  return box ? Math.round(box.blockSize) : instance.options.estimateSize(0);
}

/**
 * The virtualiser's scroll, skipped where the table already is: it scrolls its element to its own
 * offset when it mounts, and `scrollTo` forces the page's layout — inside React's commit, a 200 ms
 * task on a throttled phone (issue 28). Corrections (`adjustments`) and jumps scroll as before.
 */
const scrollUnlessThere: typeof elementScroll = (offset, options, instance) => {
  if (
    !options.adjustments &&
    !options.behavior &&
    offset === (instance as unknown as { getScrollOffset(): number }).getScrollOffset()
  )
    return; // TanStack's own offset (a private method in its types)
  instance.scrollElement?.scrollTo({ top: offset + (options.adjustments ?? 0), behavior: options.behavior });
};

/**
 * The scrolling area's size from its resize entries only: the virtualiser's own reads it at once
 * (`getBoundingClientRect`) when the table mounts, forcing the page's first layout inside React's
 * commit (issue 28). Until the first entry the virtualiser plans with `initialRect` (the estimate).
 */
const observeRect: typeof observeElementRect = (instance, cb) => {
  const element = instance.scrollElement;
  if (!element) return;
  if (typeof ResizeObserver === 'undefined') return void cb(element.getBoundingClientRect()); // jsdom
  const observer = new ResizeObserver(([entry]) => {
    const box = entry?.borderBoxSize?.[0];
    const rect = box ? { width: box.inlineSize, height: box.blockSize } : element.getBoundingClientRect();
    cb({ width: Math.round(rect.width), height: Math.round(rect.height) });
  });
  observer.observe(element, { box: 'border-box' });
  return () => observer.disconnect();
};

/** After the last scroll event, the scroll has ended (the virtualiser's own delay). */
const SCROLL_END_MS = 150;

/**
 * The scroll offset from scroll events, 0 when the table mounts (a table just made is at its top)
 * without reading `scrollTop`, which forces the page's layout in React's commit as the
 * virtualiser's own observer does (issue 28). The scroll ends after a quiet moment, as the
 * virtualiser's fallback where `scrollend` is not supported (Safari).
 */
const observeOffset: typeof observeElementOffset = (instance, cb) => {
  const element = instance.scrollElement;
  if (!element) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onScroll = () => {
    const offset = element.scrollTop;
    cb(offset, true);
    clearTimeout(timer);
    timer = setTimeout(() => cb(element.scrollTop, false), SCROLL_END_MS);
  };
  cb(0, false);
  element.addEventListener('scroll', onScroll, { passive: true });
  return () => {
    clearTimeout(timer);
    element.removeEventListener('scroll', onScroll);
  };
};

/**
 * Memoised: its page re-renders for what does not change the table (the links' module coming, a
 * query's state), and a table render is every visible row's (issue 28).
 */
export const ReportTable = memo(function ReportTable({
  table,
  rows,
  favorites,
  onToggleFavorite,
  changed,
  height = 'calc(100dvh - 220px)',
  totalRows,
  onVisibleRange,
  target,
}: ReportTableProps) {
  const { t, i18n } = useTranslation('results');
  const lng = i18n.language === 'en' ? 'en' : 'fr';
  const scroller = useRef<HTMLDivElement>(null);
  const width = useWidth(scroller, estimatedWidth);
  // The time columns the leading runners have reached (rows come furthest first): the layout shows
  // the latest of them (issue 27). A string, so the layout is only redone when it changes.
  const reachedKey = reachedTimes(table.columns, rows);
  // Columns as wide as their widest value in the page's font (issue 41), as a string: the layout
  // (and every row) is redone only when a width changes, not at each live patch.
  const widthsKey = useMemo(
    () =>
      JSON.stringify(contentWidths(table.columns, columnRoles(table.columns), table.rows, table.total, lng)),
    [table.columns, table.rows, table.total, lng],
  );
  const plan = useMemo(
    () =>
      planColumns(table.columns, width, new Set(reachedKey.split(',').map(Number)), JSON.parse(widthsKey)),
    [table.columns, width, reachedKey, widthsKey],
  );
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const rowHeight = plan.compact ? COMPACT_ROW_HEIGHT : ROW_HEIGHT;
  // Stable while the rows are: the virtualiser measures every row again (26,000 on Boston, tens of
  // ms) whenever the key function changes, so a new one at each render cost that on every render.
  const keyField = table.keyField;
  const getItemKey = useCallback(
    (index: number) => String(rows[index]?.[keyField] ?? index),
    [rows, keyField],
  );
  const estimateSize = useCallback(() => rowHeight, [rowHeight]);
  const virtualizer = useTableVirtualizer<HTMLDivElement, Element>({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize,
    getItemKey,
    overscan: 6,
    initialRect: { width, height: viewportSize().height },
    // A row's size from its ResizeObserver entry, after the browser's own layout; a row just
    // mounted takes the row height until then: reading it at mount (`offsetHeight`, the default)
    // forced the whole page's first layout inside React's commit — a 300 ms task on a throttled
    // phone (issue 28, Lighthouse TBT). Rows of another height (two lines on a phone, details
    // open) move once their entry comes, before the pre-paint goes.
    measureElement: measureRow,
    scrollToFn: scrollUnlessThere,
    observeElementRect: observeRect,
    observeElementOffset: observeOffset,
  });
  const visibleStart = virtualizer.range?.startIndex ?? 0;
  const visibleEnd = virtualizer.range?.endIndex ?? 0;
  useEffect(() => onVisibleRange?.(visibleStart, visibleEnd), [visibleStart, visibleEnd, onVisibleRange]);
  const targetKey = target?.key ?? '';
  const targetIndex = useMemo(
    () => (targetKey ? rows.findIndex((row) => String(row[keyField]) === targetKey) : -1),
    [rows, keyField, targetKey],
  );
  // Once per jump (a live patch moving the row later does not scroll the table again).
  const scrolledFor = useRef<object | null>(null);
  useEffect(() => {
    if (!target || targetIndex < 0 || scrolledFor.current === target) return;
    scrolledFor.current = target;
    virtualizer.scrollToIndex(targetIndex, { align: 'center' });
    // On a phone the table's middle may be below the screen: the page scrolls to the row too,
    // once the virtualiser has drawn it.
    const timer = setTimeout(
      () => scroller.current?.querySelector('[data-target]')?.scrollIntoView?.({ block: 'nearest' }),
      150,
    );
    return () => clearTimeout(timer);
  }, [target, targetIndex, virtualizer]);
  const handleTop = useCallback(() => {
    virtualizer.scrollToIndex(0, { align: 'start' });
    // The keyboard goes on from the table's top (its scroll container is focusable).
    scroller.current?.focus({ preventScroll: true });
  }, [virtualizer]);
  const flagBase = blobBase();
  // One translation lookup for every star (a hook per cell would cost a subscription each).
  const starLabel = useCallback(
    (key: string, pressed: boolean) => ({
      label: t('star', { key }),
      title: pressed ? t('unstar', { key }) : t('star', { key }),
    }),
    [t],
  );
  const toggle = useCallback((key: string) => {
    setExpanded((previous) => {
      const next = new Set(previous);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  }, []);
  const colCount = plan.visible.length + (plan.hidden.length ? 1 : 0);
  const grid = { gridTemplateColumns: plan.template };
  return (
    <Box sx={topButtonSx}>
      <Box
        ref={scroller}
        role="table"
        aria-label={table.title[lng]}
        aria-rowcount={(totalRows ?? rows.length) + 1}
        aria-colcount={colCount}
        tabIndex={0}
        data-testid="report-table"
        data-compact={plan.compact || undefined}
        sx={tableSx}
        style={{ height }}
      >
        <div role="rowgroup" className="rt-headgroup">
          <div role="row" aria-rowindex={1} className="rt-head" style={grid}>
            {plan.visible.map((i) => {
              const column = table.columns[i]!;
              return (
                <div
                  key={`${column.FieldIdx}:${column.Type}:${column.Title.en}`}
                  role="columnheader"
                  title={column.Title[lng]}
                  className="rt-th"
                  data-type={column.Type}
                  style={{ textAlign: alignmentOf(column) }}
                >
                  {column.Type === 'favorite' || column.Type === 'spacer' ? (
                    <span className="rt-hidden">{column.Title[lng]}</span>
                  ) : (
                    column.Title[lng]
                  )}
                </div>
              );
            })}
            {plan.hidden.length > 0 && (
              <div role="columnheader" className="rt-th">
                <span className="rt-hidden">{t('details')}</span>
              </div>
            )}
          </div>
        </div>
        {rows.length === 0 ? (
          <Typography sx={{ p: 3, color: 'text.secondary' }}>{t('empty')}</Typography>
        ) : (
          <div role="rowgroup" className="rt-body" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[item.index]!;
              const key = String(row[table.keyField]);
              return (
                <ReportRow
                  key={item.key}
                  measure={virtualizer.measureElement}
                  index={item.index}
                  start={item.start}
                  row={row}
                  rowKey={key}
                  table={table}
                  plan={plan}
                  lng={lng}
                  grid={grid}
                  favorite={favorites.has(key)}
                  onToggleFavorite={onToggleFavorite}
                  flash={changed?.has(key) ?? false}
                  target={key === targetKey}
                  open={expanded.has(key)}
                  onToggleOpen={toggle}
                  flagBase={flagBase}
                  starLabel={starLabel}
                />
              );
            })}
          </div>
        )}
      </Box>
      {visibleStart > 2 && (
        <button type="button" className="rt-top" onClick={handleTop}>
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
            <path d="M7.4 15.4 12 10.8l4.6 4.6L18 14l-6-6-6 6z" fill="currentColor" />
          </svg>
          {t('backToTop')}
        </button>
      )}
    </Box>
  );
});
