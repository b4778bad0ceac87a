// biome-ignore-all lint/a11y/useSemanticElements: a virtualised grid — rows are absolutely positioned divs, so ARIA table roles (with aria-rowcount/aria-rowindex) carry the semantics.
// biome-ignore-all lint/a11y/useFocusableInteractive: table rows, headers and cells are not interactive widgets; the scroll container is focusable.
import { Box, Typography } from '@mui/material';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ReportTable as Table } from '@tempora/contracts';
import { useCallback, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { currentEnvironment } from '../../../lib/api-client.ts';
import { columnLayout, stickyClass } from './column-layout.ts';
import { alignmentOf, ReportCell } from './report-cell.tsx';
import { ROW_HEIGHT, tableSx } from './table-styles.ts';

export { ROW_HEIGHT };

/** What the table shows. */
export interface ReportTableProps {
  table: Table;
  /** The rows to show (the table's, or a search's). */
  rows: unknown[][];
  favorites: ReadonlySet<string>;
  onToggleFavorite(key: string): void;
  /** Keys of rows changed by a live patch a moment ago (highlighted). */
  changed?: ReadonlyMap<string, number>;
  /** Height of the scrolling area. */
  height?: string;
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
 * Virtualised (product.md: 26,000 rows keep ≤ 100 in the DOM), sticky header and first columns,
 * ARIA table semantics with aria-rowcount/aria-rowindex for the rows not in the DOM.
 */
export function ReportTable({
  table,
  rows,
  favorites,
  onToggleFavorite,
  changed,
  height = 'calc(100dvh - 220px)',
}: ReportTableProps) {
  const { t, i18n } = useTranslation('results');
  const lng = i18n.language === 'en' ? 'en' : 'fr';
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => String(rows[index]?.[table.keyField] ?? index),
    overscan: 6,
    initialRect: { width: 1024, height: 800 },
  });
  const { template, minWidth, sticky, lastSticky } = useMemo(
    () => columnLayout(table.columns),
    [table.columns],
  );
  const flagBase = blobBase();
  // One translation lookup for every star (a hook per cell would cost a subscription each).
  const starLabel = useCallback(
    (key: string, pressed: boolean) => ({
      label: t('star', { key }),
      title: pressed ? t('unstar', { key }) : t('star', { key }),
    }),
    [t],
  );
  const colCount = table.columns.reduce((n, c) => n + c.Colspan, 0);
  const grid = { gridTemplateColumns: template, minWidth };
  return (
    <Box
      ref={scroller}
      role="table"
      aria-label={table.title[lng]}
      aria-rowcount={rows.length + 1}
      aria-colcount={colCount}
      tabIndex={0}
      data-testid="report-table"
      sx={tableSx}
      style={{ height }}
    >
      <div role="rowgroup">
        <div role="row" aria-rowindex={1} className="rt-head" style={grid}>
          {table.columns.map((column, i) => (
            <div
              key={`${column.FieldIdx}:${column.Type}:${column.Title.en}`}
              role="columnheader"
              aria-colspan={column.Colspan > 1 ? column.Colspan : undefined}
              title={column.Title[lng]}
              className={`rt-th${stickyClass(sticky[i], i === lastSticky)}`}
              data-type={column.Type}
              style={{
                gridColumn: column.Colspan > 1 ? `span ${column.Colspan}` : undefined,
                textAlign: alignmentOf(column),
                left: sticky[i],
              }}
            >
              {column.Type === 'favorite' || column.Type === 'spacer' ? (
                <span className="rt-hidden">{column.Title[lng]}</span>
              ) : (
                column.Title[lng]
              )}
            </div>
          ))}
        </div>
      </div>
      {rows.length === 0 ? (
        <Typography sx={{ p: 3, color: 'text.secondary' }}>{t('empty')}</Typography>
      ) : (
        <div role="rowgroup" className="rt-body" style={{ height: virtualizer.getTotalSize(), minWidth }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            const key = String(row[table.keyField]);
            const flash = changed?.has(key) ?? false;
            return (
              <div
                key={item.key}
                role="row"
                aria-rowindex={item.index + 2}
                data-key={key}
                data-changed={flash || undefined}
                className={item.index % 2 ? 'rt-row rt-odd' : 'rt-row'}
                style={{ ...grid, transform: `translateY(${item.start}px)` }}
              >
                {table.columns.map((column, i) => (
                  <ReportCell
                    key={`${column.FieldIdx}:${column.Type}:${column.Title.en}`}
                    column={column}
                    row={row}
                    keyField={table.keyField}
                    favorite={favorites.has(key)}
                    onToggleFavorite={onToggleFavorite}
                    flagBase={flagBase}
                    stickyLeft={sticky[i]}
                    stickyLast={i === lastSticky}
                    starLabel={starLabel}
                  />
                ))}
              </div>
            );
          })}
        </div>
      )}
    </Box>
  );
}
