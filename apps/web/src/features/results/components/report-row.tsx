// biome-ignore-all lint/a11y/useSemanticElements: rows of a virtualised ARIA table (see report-table.tsx).
// biome-ignore-all lint/a11y/useFocusableInteractive: rows and cells are not widgets; the row's details button is.
import { mdiChevronDown } from '@mdi/js';
import type { ReportTable as Table } from '@tempora/contracts';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { beneathText, type ColumnPlan } from './column-layout.ts';
import { CellContent, ReportCell } from './report-cell.tsx';

/** What one row needs. */
export interface ReportRowProps {
  measure(element: Element | null): void;
  index: number;
  start: number;
  row: unknown[];
  rowKey: string;
  table: Table;
  plan: ColumnPlan;
  lng: 'en' | 'fr';
  grid: { gridTemplateColumns: string };
  favorite: boolean;
  onToggleFavorite(key: string, trackingKey?: string): void;
  flash: boolean;
  /** The row a jump brought to the screen (issue 27): marked until the next jump. */
  target?: boolean;
  open: boolean;
  onToggleOpen(key: string): void;
  flagBase: string;
  starLabel(key: string, pressed: boolean): { label: string; title: string };
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/**
 * One row of a report table: the columns of the plan; on phones the bib and category small
 * beneath the name; a tap on the row (or its details button) opens the columns that do not fit.
 */
export const ReportRow = memo(function ReportRow(props: ReportRowProps) {
  const { t } = useTranslation('results');
  const { table, plan, row, rowKey, lng, open } = props;
  const cellProps = {
    row,
    keyField: table.keyField,
    favorite: props.favorite,
    onToggleFavorite: props.onToggleFavorite,
    flagBase: props.flagBase,
    starLabel: props.starLabel,
    lng,
  };
  const beneath = beneathText(plan, table.columns, row, lng);
  const nameAt = plan.roles.indexOf('name');
  const name = nameAt >= 0 ? text(row[table.columns[nameAt]!.FieldIdx]) : rowKey;
  const detailsId = `rt-details-${table.report}-${rowKey}`;
  const expandable = plan.hidden.length > 0;
  const handleClick = (event: React.MouseEvent) => {
    if (!expandable || (event.target as Element).closest('a, button')) return;
    props.onToggleOpen(rowKey);
  };
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the tap anywhere on a row is a shortcut for its details button, which has the keyboard.
    <div
      ref={props.measure}
      data-index={props.index}
      role="row"
      aria-rowindex={props.index + 2}
      data-key={rowKey}
      data-changed={props.flash || undefined}
      data-target={props.target || undefined}
      aria-current={props.target || undefined}
      className={props.index % 2 ? 'rt-row rt-odd' : 'rt-row'}
      style={{ ...props.grid, transform: `translateY(${props.start}px)` }}
      onClick={handleClick}
    >
      {plan.visible.map((i) => {
        const column = table.columns[i]!;
        return (
          <ReportCell
            key={`${column.FieldIdx}:${column.Type}:${column.Title.en}`}
            column={column}
            {...cellProps}
            short={plan.roles[i] === 'rank'}
            beneath={
              plan.roles[i] === 'name' && beneath ? <span className="rt-beneath">{beneath}</span> : undefined
            }
          />
        );
      })}
      {expandable && (
        <div role="cell" className="rt-cell rt-toggle">
          <button
            type="button"
            className="rt-more"
            aria-expanded={open}
            aria-controls={open ? detailsId : undefined}
            aria-label={t('detailsOf', { name })}
            onClick={() => props.onToggleOpen(rowKey)}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path d={mdiChevronDown} />
            </svg>
          </button>
        </div>
      )}
      {open && expandable && (
        <div role="cell" id={detailsId} className="rt-details">
          <dl>
            {plan.hidden.map((i) => {
              const column = table.columns[i]!;
              return (
                <div key={`${column.FieldIdx}:${column.Type}:${column.Title.en}`}>
                  <dt>{column.Title[lng]}</dt>
                  <dd>
                    <CellContent column={column} {...cellProps} />
                  </dd>
                </div>
              );
            })}
          </dl>
        </div>
      )}
    </div>
  );
});
