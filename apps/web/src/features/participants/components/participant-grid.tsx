// biome-ignore-all lint/a11y/useSemanticElements: a virtualised grid — rows are absolutely positioned divs, so ARIA table roles (with aria-rowcount/aria-rowindex) carry the semantics.
// biome-ignore-all lint/a11y/useFocusableInteractive: table rows, headers and cells are not interactive widgets; their buttons and the scroll container are focusable.

import { mdiDeleteOutline, mdiHistory } from '@mdi/js';
import { Box, Checkbox, IconButton, MenuItem, TextField, Tooltip, Typography } from '@mui/material';
import { useVirtualizer } from '@tanstack/react-virtual';
import type {
  ConsoleParticipant,
  ParticipantExportColumn,
  ParticipantPatch,
  ParticipantSort,
} from '@tempora/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { dateTimeFormat } from '../../../lib/intl.ts';

const ROW_HEIGHT = 44;

/** A column of the grid: the field it shows and edits, its width, and how it sorts. */
interface Column {
  field: keyof ConsoleParticipant;
  width: string;
  sort?: ParticipantSort;
  edit?: 'text' | 'gender' | 'status' | 'date' | 'chips';
}

const COLUMNS: Column[] = [
  { field: 'bib', width: '80px', sort: 'bib', edit: 'text' },
  { field: 'lastName', width: 'minmax(130px, 1.2fr)', sort: 'lastName', edit: 'text' },
  { field: 'firstName', width: 'minmax(110px, 1fr)', sort: 'firstName', edit: 'text' },
  { field: 'gender', width: '70px', sort: 'gender', edit: 'gender' },
  { field: 'birthDate', width: '120px', sort: 'birthDate', edit: 'date' },
  { field: 'club', width: 'minmax(120px, 1fr)', sort: 'club', edit: 'text' },
  { field: 'nationality', width: '70px', sort: 'nationality', edit: 'text' },
  // Issue 29: the chips, seen and corrected in place (one or two, space- or comma-separated).
  { field: 'chips', width: '120px', edit: 'chips' },
  { field: 'category', width: '100px', sort: 'category' },
  { field: 'raceId', width: '110px', sort: 'race' },
  { field: 'status', width: '110px', sort: 'status', edit: 'status' },
];
const SELECT_WIDTH = 44;
const MIN_WIDTH = 1270;
/** The grid's columns as the export names them, in the grid's order (the export is the grid as shown). */
export const GRID_EXPORT_COLUMNS: ParticipantExportColumn[] = COLUMNS.map((c) =>
  c.field === 'raceId' ? 'race' : (c.field as ParticipantExportColumn),
);

export interface ParticipantGridProps {
  rows: ConsoleParticipant[];
  total: number;
  raceNames: ReadonlyMap<string, string>;
  sort: ParticipantSort;
  dir: 'asc' | 'desc';
  onSort(sort: ParticipantSort): void;
  /** Called when the list nears its loaded end (the next page). */
  onNeedMore(): void;
  onEdit(id: string, patch: ParticipantPatch): Promise<void>;
  onDelete(row: ConsoleParticipant): void;
  onAudit(row: ConsoleParticipant): void;
  canEdit: boolean;
  /** Rows ticked for a bulk edit (issue 29); without `onSelect`, no selection column. */
  selected?: ReadonlySet<string>;
  onSelect?(ids: readonly string[], on: boolean): void;
}

/**
 * The participants grid: virtualised rows (only the visible ones are in the DOM, so 45,000
 * runners scroll smoothly), sortable headers, and cells edited in place — a click or Enter opens
 * the editor, Enter or leaving the cell saves, Escape cancels.
 */
export function ParticipantGrid(props: ParticipantGridProps) {
  const { rows, total, onNeedMore } = props;
  const { t } = useTranslation('participants');
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => rows[index]?.id ?? index,
    overscan: 8,
    initialRect: { width: 1024, height: 600 },
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (rows.length < total && lastIndex >= rows.length - 40) onNeedMore();
  }, [lastIndex, rows.length, total, onNeedMore]);
  const selecting = !!props.onSelect;
  const template = `${selecting ? `${SELECT_WIDTH}px ` : ''}${COLUMNS.map((c) => c.width).join(' ')} 88px`;
  const grid = { display: 'grid', gridTemplateColumns: template, minWidth: MIN_WIDTH };
  const selected = props.selected ?? new Set<string>();
  const ticked = rows.filter((r) => selected.has(r.id)).length;
  return (
    <Box
      ref={scroller}
      role="table"
      aria-label={t('grid.label')}
      aria-rowcount={total + 1}
      data-testid="participant-grid"
      sx={{
        height: { xs: 'calc(100dvh - 300px)', sm: 'calc(100dvh - 280px)' },
        minHeight: 320,
        overflow: 'auto',
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        bgcolor: 'background.paper',
        '& .pg-cell': {
          px: 1,
          display: 'flex',
          alignItems: 'center',
          overflow: 'hidden',
          whiteSpace: 'nowrap',
          fontSize: 14,
        },
      }}
    >
      <div role="rowgroup">
        <Box
          role="row"
          aria-rowindex={1}
          sx={{ ...grid, position: 'sticky', top: 0, zIndex: 1, bgcolor: 'grey.100', height: ROW_HEIGHT }}
        >
          {selecting && (
            <div role="columnheader" className="pg-cell">
              <Checkbox
                size="small"
                checked={rows.length > 0 && ticked === rows.length}
                indeterminate={ticked > 0 && ticked < rows.length}
                onChange={(e) =>
                  props.onSelect?.(
                    rows.map((r) => r.id),
                    e.target.checked,
                  )
                }
                slotProps={{ input: { 'aria-label': t('bulk.selectAll', { count: rows.length }) } }}
              />
            </div>
          )}
          {COLUMNS.map((c) => (
            <HeaderCell key={c.field} column={c} {...props} />
          ))}
          <div role="columnheader" className="pg-cell">
            <span style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden' }}>
              {t('grid.actions')}
            </span>
          </div>
        </Box>
      </div>
      {rows.length === 0 ? (
        <Typography sx={{ p: 3, color: 'text.secondary' }}>{t('grid.empty')}</Typography>
      ) : (
        <div
          role="rowgroup"
          style={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: MIN_WIDTH }}
        >
          {items.map((item) => {
            const row = rows[item.index]!;
            return (
              <Box
                key={item.key}
                role="row"
                aria-rowindex={item.index + 2}
                data-bib={row.bib ?? ''}
                sx={{
                  ...grid,
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  height: ROW_HEIGHT,
                  borderTop: 1,
                  borderColor: 'divider',
                  bgcolor: item.index % 2 ? 'grey.50' : 'background.paper',
                }}
                style={{ transform: `translateY(${item.start}px)` }}
                aria-selected={selecting ? selected.has(row.id) : undefined}
              >
                {selecting && (
                  <div role="cell" className="pg-cell">
                    <Checkbox
                      size="small"
                      checked={selected.has(row.id)}
                      onChange={(e) => props.onSelect?.([row.id], e.target.checked)}
                      slotProps={{ input: { 'aria-label': t('bulk.select', { name: nameOf(row) }) } }}
                    />
                  </div>
                )}
                {COLUMNS.map((c) => (
                  <EditableCell key={c.field} column={c} row={row} {...props} />
                ))}
                <div role="cell" className="pg-cell">
                  <Tooltip title={t('grid.history')}>
                    <IconButton
                      size="small"
                      aria-label={t('grid.historyOf', { name: nameOf(row) })}
                      onClick={() => props.onAudit(row)}
                    >
                      <MdiIcon path={mdiHistory} fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  {props.canEdit && (
                    <Tooltip title={t('grid.delete')}>
                      <IconButton
                        size="small"
                        aria-label={t('grid.deleteOf', { name: nameOf(row) })}
                        onClick={() => props.onDelete(row)}
                      >
                        <MdiIcon path={mdiDeleteOutline} fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                </div>
              </Box>
            );
          })}
        </div>
      )}
    </Box>
  );
}

const nameOf = (row: ConsoleParticipant) => `${row.firstName} ${row.lastName}`;

function HeaderCell({ column, sort, dir, onSort }: { column: Column } & ParticipantGridProps) {
  const { t } = useTranslation('participants');
  const active = column.sort === sort;
  return (
    <div
      role="columnheader"
      className="pg-cell"
      aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      {column.sort ? (
        <Box
          component="button"
          type="button"
          onClick={() => onSort(column.sort!)}
          title={t(`fields.${column.field}`)}
          sx={{
            all: 'unset',
            cursor: 'pointer',
            fontWeight: 600,
            fontSize: 13,
            '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
          }}
        >
          {t(`fields.${column.field}`)}
          {active ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}
        </Box>
      ) : (
        <strong>{t(`fields.${column.field}`)}</strong>
      )}
    </div>
  );
}

function display(
  row: ConsoleParticipant,
  field: keyof ConsoleParticipant,
  raceNames: ReadonlyMap<string, string>,
  lng: string,
) {
  if (field === 'raceId') return raceNames.get(row.raceId) ?? row.raceId;
  if (field === 'chips') return row.chips.join(' ');
  // A birth date as the reader writes dates (issue 29: ISO in the French grid): 02/03/1985, the
  // year in full (the export writes the same).
  if (field === 'birthDate' && row.birthDate)
    return dateTimeFormat(lng, {
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(`${row.birthDate}T00:00:00Z`));
  const value = row[field];
  return value === null || value === undefined ? '' : String(value);
}

function EditableCell({
  column,
  row,
  raceNames,
  onEdit,
  canEdit,
}: { column: Column; row: ConsoleParticipant } & ParticipantGridProps) {
  const { t, i18n } = useTranslation('participants');
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const raw = display(row, column.field, raceNames, i18n.language);
  // A status reads in words, in the cell and in its hover title alike (never the code).
  const text = column.field === 'status' ? t(`status.${row.status}`) : raw;
  if (!column.edit || !canEdit) {
    return (
      <div role="cell" className="pg-cell" title={text}>
        {text}
      </div>
    );
  }
  const save = async () => {
    const next = value.trim();
    const before =
      column.field === 'birthDate' ? (row.birthDate ?? '') : column.field === 'status' ? row.status : raw;
    if (next === before) {
      setEditing(false);
      return;
    }
    const patch: Record<string, unknown> = {
      [column.field]:
        column.edit === 'chips'
          ? next.split(/[\s,;]+/).filter(Boolean)
          : next === '' && ['bib', 'birthDate'].includes(column.field)
            ? null
            : column.field === 'nationality'
              ? next.toUpperCase()
              : next,
    };
    try {
      await onEdit(row.id, patch as ParticipantPatch);
      setError(null);
      setEditing(false);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const label = t('grid.editField', { field: t(`fields.${column.field}`), name: nameOf(row) });
  if (editing) {
    const common = {
      size: 'small' as const,
      autoFocus: true,
      value,
      error: !!error,
      onChange: (e: { target: { value: string } }) => setValue(e.target.value),
      onBlur: () => void save(),
      onKeyDown: (e: React.KeyboardEvent) => {
        if (e.key === 'Enter') void save();
        if (e.key === 'Escape') {
          setEditing(false);
          setError(null);
        }
      },
      slotProps: { htmlInput: { 'aria-label': label, title: error ?? undefined } },
      sx: { '& .MuiInputBase-input': { py: 0.5, fontSize: 14 } },
      fullWidth: true,
    };
    return (
      <div role="cell" className="pg-cell">
        {column.edit === 'gender' || column.edit === 'status' ? (
          <TextField select {...common}>
            {(column.edit === 'gender' ? ['M', 'F', 'X'] : ['registered', 'DNS', 'DNF', 'DSQ']).map((v) => (
              <MenuItem key={v} value={v}>
                {column.edit === 'status' ? t(`status.${v}`) : t(`gender.${v}`)}
              </MenuItem>
            ))}
          </TextField>
        ) : (
          <TextField {...common} type={column.edit === 'date' ? 'date' : 'text'} />
        )}
      </div>
    );
  }
  return (
    <div role="cell" className="pg-cell">
      <Box
        component="button"
        type="button"
        aria-label={`${label}: ${text || t('grid.none')}`}
        // Issue 29: a column cut at 1280 px shows its full text on hover.
        title={text || undefined}
        onClick={() => {
          setValue(
            column.field === 'raceId'
              ? row.raceId
              : column.edit === 'chips'
                ? text
                : ((row[column.field] as string | null) ?? ''),
          );
          setEditing(true);
        }}
        sx={{
          all: 'unset',
          width: '100%',
          minHeight: 28,
          display: 'flex',
          alignItems: 'center',
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          cursor: 'text',
          borderRadius: 0.5,
          '&:hover': { bgcolor: 'action.hover' },
          '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
        }}
      >
        {text}
      </Box>
    </div>
  );
}
