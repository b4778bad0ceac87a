import { Box, Button, Checkbox, Typography } from '@mui/material';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ConfirmationRace, DocumentRow, RowField } from '@tempora/contracts';
import { rowFields } from '@tempora/contracts';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { issueText } from './issue-text.ts';

const ROW_HEIGHT = 44;
const WIDTHS: Record<RowField, number> = {
  firstName: 130,
  lastName: 140,
  gender: 70,
  birthDate: 110,
  email: 180,
  race: 120,
  bib: 70,
  nationality: 110,
};
const SELECT_W = 48;
const POS_W = 56;
const CATEGORY_W = 100;
const STATUS_W = 200;
const ACTIONS_W = 170;
const TOTAL =
  SELECT_W + POS_W + rowFields.reduce((s, f) => s + WIDTHS[f], 0) + CATEGORY_W + STATUS_W + ACTIONS_W;

export type RowAction = 'confirm' | 'merge' | 'reject' | 'restore';

interface Props {
  rows: DocumentRow[];
  races: ConfirmationRace[];
  selection: ReadonlySet<string>;
  onSelect: (ids: string[], selected: boolean) => void;
  onEdit: (row: DocumentRow, field: RowField, value: string) => Promise<void>;
  onAction: (row: DocumentRow, action: RowAction) => void;
  busy: boolean;
  /** The race of rows whose cell is empty (shown muted). */
  defaultRaceId: string | null;
}

/**
 * The document's rows as an editable grid (WAI-ARIA grid pattern): every field cell is editable,
 * arrows move between cells, Enter/F2 or typing edits, Enter saves (and moves down), Tab saves
 * (and moves right), Escape cancels. Issues show on their cell (colour, mark and text). Rows are
 * virtualised so a 5,000-row document scrolls smoothly.
 */
export function RowsGrid({ rows, races, selection, onSelect, onEdit, onAction, busy, defaultRaceId }: Props) {
  const { t } = useTranslation('confirmation');
  const scroller = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState({ row: 0, col: 0 });
  const [editing, setEditingState] = useState<{ value: string } | null>(null);
  // The editor's value outside React's render cycle: Enter and the blur that follows commit once.
  const editingRef = useRef<{ value: string } | null>(null);
  const setEditing = (value: { value: string } | null) => {
    editingRef.current = value;
    setEditingState(value);
  };
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const raceName = (id: string | undefined) => races.find((r) => r.id === id)?.name ?? id ?? '';

  useEffect(() => {
    if (editing) return;
    const cell = scroller.current?.querySelector<HTMLElement>(`[data-cell="${active.row}-${active.col}"]`);
    if (cell && scroller.current?.contains(document.activeElement)) cell.focus({ preventScroll: false });
  }, [active, editing]);

  const move = (dRow: number, dCol: number) => {
    setActive((a) => {
      const row = Math.max(0, Math.min(rows.length - 1, a.row + dRow));
      const col = Math.max(0, Math.min(rowFields.length - 1, a.col + dCol));
      virtual.scrollToIndex(row);
      return { row, col };
    });
  };

  async function commit(dRow: number, dCol: number) {
    const row = rows[active.row];
    const field = rowFields[active.col]!;
    if (!editingRef.current) return;
    const value = editingRef.current.value;
    setEditing(null);
    if (row && value !== (row.fields[field] ?? '')) await onEdit(row, field, value);
    move(dRow, dCol);
  }

  function handleKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const row = rows[active.row];
    if (editing) {
      if (e.key === 'Enter') {
        e.preventDefault();
        void commit(1, 0);
      } else if (e.key === 'Tab') {
        e.preventDefault();
        void commit(0, e.shiftKey ? -1 : 1);
      } else if (e.key === 'Escape') {
        e.preventDefault();
        setEditing(null);
      }
      return;
    }
    const keys: Record<string, [number, number]> = {
      ArrowDown: [1, 0],
      ArrowUp: [-1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
      PageDown: [10, 0],
      PageUp: [-10, 0],
    };
    const step = keys[e.key];
    if (step) {
      e.preventDefault();
      move(step[0], step[1]);
    } else if ((e.key === 'Enter' || e.key === 'F2') && row && row.decision !== 'confirmed') {
      e.preventDefault();
      setEditing({ value: row.fields[rowFields[active.col]!] ?? '' });
    } else if (e.key === ' ' && row && (e.target as HTMLElement).dataset.cell) {
      e.preventDefault();
      onSelect([row.id], !selection.has(row.id));
    } else if (
      e.key.length === 1 &&
      !e.ctrlKey &&
      !e.metaKey &&
      !e.altKey &&
      row &&
      row.decision !== 'confirmed'
    ) {
      e.preventDefault();
      setEditing({ value: e.key });
    }
  }

  const allSelected = rows.length > 0 && rows.every((r) => selection.has(r.id));
  const header = (label: string, width: number) => (
    <Box role="columnheader" key={label} sx={{ width, flex: 'none', px: 1, fontWeight: 600, fontSize: 14 }}>
      {label}
    </Box>
  );

  return (
    <Box
      ref={scroller}
      role="grid"
      aria-label={t('grid.label')}
      aria-rowcount={rows.length + 1}
      aria-colcount={rowFields.length + 5}
      aria-busy={busy}
      onKeyDown={handleKeyDown}
      sx={{
        height: { xs: '65vh', md: '70vh' },
        overflow: 'auto',
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        position: 'relative',
      }}
    >
      <Box
        role="row"
        aria-rowindex={1}
        sx={{
          display: 'flex',
          alignItems: 'center',
          width: TOTAL,
          position: 'sticky',
          top: 0,
          zIndex: 2,
          bgcolor: 'background.paper',
          borderBottom: 2,
          borderColor: 'divider',
          height: ROW_HEIGHT,
        }}
      >
        <Box role="columnheader" sx={{ width: SELECT_W, flex: 'none' }}>
          <Checkbox
            size="small"
            checked={allSelected}
            indeterminate={!allSelected && rows.some((r) => selection.has(r.id))}
            onChange={(e) =>
              onSelect(
                rows.map((r) => r.id),
                e.target.checked,
              )
            }
            slotProps={{ input: { 'aria-label': t('grid.selectAll') } }}
          />
        </Box>
        {header('#', POS_W)}
        {header(t('grid.decision'), STATUS_W)}
        {header(t('grid.actions'), ACTIONS_W)}
        {rowFields.map((f) => header(t(`fields.${f}`), WIDTHS[f]))}
        {header(t('grid.category'), CATEGORY_W)}
      </Box>
      {rows.length === 0 && <Typography sx={{ p: 2 }}>{t('grid.empty')}</Typography>}
      <Box sx={{ height: virtual.getTotalSize(), width: TOTAL, position: 'relative' }}>
        {virtual.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          // The status column names every issue (row-level first), so a phone shows the problem
          // without scrolling to its cell.
          const rowIssues = [...row.issues].sort(
            (a, b) => Number(b.field === 'row') - Number(a.field === 'row'),
          );
          const summary = rowIssues
            .map((i) =>
              i.field === 'row' ? issueText(t, i, row) : `${t(`fields.${i.field}`)}: ${issueText(t, i, row)}`,
            )
            .join('; ');
          const hasError = row.issues.some((i) => i.severity === 'error');
          return (
            <Box
              role="row"
              key={row.id}
              aria-rowindex={item.index + 2}
              aria-selected={selection.has(row.id)}
              data-position={row.position}
              sx={{
                display: 'flex',
                alignItems: 'center',
                position: 'absolute',
                top: 0,
                left: 0,
                width: TOTAL,
                height: ROW_HEIGHT,
                transform: `translateY(${item.start}px)`,
                borderBottom: 1,
                borderColor: 'divider',
                bgcolor:
                  row.decision === 'rejected'
                    ? 'action.disabledBackground'
                    : row.decision === 'confirmed'
                      ? 'rgba(46,125,50,0.06)'
                      : undefined,
                color: row.decision === 'rejected' ? 'text.secondary' : undefined,
              }}
            >
              <Box role="gridcell" sx={{ width: SELECT_W, flex: 'none' }}>
                <Checkbox
                  size="small"
                  checked={selection.has(row.id)}
                  onChange={(e) => onSelect([row.id], e.target.checked)}
                  slotProps={{ input: { 'aria-label': t('grid.select', { position: row.position }) } }}
                />
              </Box>
              <Box role="rowheader" sx={{ width: POS_W, flex: 'none', px: 1, color: 'text.secondary' }}>
                {row.position}
              </Box>
              <Box
                role="gridcell"
                sx={{
                  width: STATUS_W,
                  flex: 'none',
                  px: 1,
                  fontSize: 13,
                  lineHeight: 1.2,
                  overflow: 'hidden',
                }}
              >
                <Box
                  component="span"
                  sx={{
                    fontWeight: 600,
                    color: hasError && row.decision === 'pending' ? 'error.main' : undefined,
                  }}
                >
                  {t(`grid.decisions.${row.decision}`)}
                  {row.participant ? ` · ${t('grid.bib', { bib: row.participant.bib })}` : ''}
                </Box>
                {(rowIssues.length > 0 || row.reason) && (
                  <Box
                    sx={{
                      color: rowIssues.some((i) => i.severity === 'error') ? 'error.main' : 'text.secondary',
                      whiteSpace: 'nowrap',
                      overflow: 'hidden',
                      textOverflow: 'ellipsis',
                    }}
                  >
                    {summary || row.reason}
                  </Box>
                )}
              </Box>
              <Box
                role="gridcell"
                sx={{ width: ACTIONS_W, flex: 'none', px: 0.5, display: 'flex', gap: 0.5 }}
              >
                {row.decision === 'pending' && !hasError && row.issues.length > 0 && (
                  <Button size="small" disabled={busy} onClick={() => onAction(row, 'confirm')}>
                    {t('grid.confirmRow')}
                  </Button>
                )}
                {row.decision === 'pending' && row.duplicateOf && (
                  <Button size="small" disabled={busy} onClick={() => onAction(row, 'merge')}>
                    {t('grid.merge')}
                  </Button>
                )}
                {row.decision === 'pending' && (
                  <Button size="small" color="error" disabled={busy} onClick={() => onAction(row, 'reject')}>
                    {t('grid.reject')}
                  </Button>
                )}
                {row.decision === 'rejected' && (
                  <Button size="small" disabled={busy} onClick={() => onAction(row, 'restore')}>
                    {t('grid.restore')}
                  </Button>
                )}
              </Box>
              {rowFields.map((field, col) => {
                const issues = row.issues.filter((i) => i.field === field);
                const isActive = active.row === item.index && active.col === col;
                const value = field === 'race' ? raceName(row.fields.race) : (row.fields[field] ?? '');
                // What applies when the cell is empty: the default race, the bib given on confirmation.
                const implied =
                  field === 'race' && !value
                    ? raceName(row.participant?.raceId ?? defaultRaceId ?? undefined)
                    : field === 'bib' && !value
                      ? (row.participant?.bib ?? '')
                      : '';
                const message = issues.map((i) => issueText(t, i, row)).join('; ');
                const error = issues.some((i) => i.severity === 'error');
                return (
                  <Box
                    role="gridcell"
                    key={field}
                    data-cell={`${item.index}-${col}`}
                    data-field={field}
                    tabIndex={isActive && !editing ? 0 : -1}
                    aria-invalid={error || undefined}
                    aria-readonly={row.decision === 'confirmed' || undefined}
                    title={message || undefined}
                    onClick={() => setActive({ row: item.index, col })}
                    onDoubleClick={() =>
                      row.decision !== 'confirmed' && setEditing({ value: row.fields[field] ?? '' })
                    }
                    sx={{
                      width: WIDTHS[field],
                      flex: 'none',
                      height: '100%',
                      px: 1,
                      display: 'flex',
                      alignItems: 'center',
                      overflow: 'hidden',
                      whiteSpace: 'nowrap',
                      textOverflow: 'ellipsis',
                      fontSize: 14,
                      borderLeft: issues.length ? 3 : 0,
                      borderColor: error ? 'error.main' : 'warning.main',
                      bgcolor: error
                        ? 'rgba(211,47,47,0.08)'
                        : issues.length
                          ? 'rgba(237,108,2,0.08)'
                          : undefined,
                      outline: isActive ? '2px solid' : 'none',
                      outlineColor: 'primary.main',
                      outlineOffset: -2,
                    }}
                  >
                    {isActive && editing ? (
                      field === 'race' ? (
                        <select
                          ref={focusOnMount}
                          aria-label={t('grid.editCell', {
                            field: t(`fields.${field}`),
                            position: row.position,
                          })}
                          value={editing.value}
                          onChange={(e) => setEditing({ value: e.target.value })}
                          onBlur={() => void commit(0, 0)}
                          style={{ width: '100%', font: 'inherit' }}
                        >
                          <option value="">—</option>
                          {races.map((r) => (
                            <option key={r.id} value={r.id}>
                              {r.name}
                            </option>
                          ))}
                        </select>
                      ) : (
                        <input
                          ref={focusOnMount}
                          aria-label={t('grid.editCell', {
                            field: t(`fields.${field}`),
                            position: row.position,
                          })}
                          value={editing.value}
                          onChange={(e) => setEditing({ value: e.target.value })}
                          onBlur={() => void commit(0, 0)}
                          style={{ width: '100%', font: 'inherit', padding: '4px', boxSizing: 'border-box' }}
                        />
                      )
                    ) : (
                      <>
                        {issues.length > 0 && (
                          <Box
                            component="span"
                            aria-hidden
                            sx={{ color: error ? 'error.main' : 'warning.dark', fontWeight: 700, mr: 0.5 }}
                          >
                            !
                          </Box>
                        )}
                        <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                          {value ||
                            (issues.length ? (
                              <em>{message}</em>
                            ) : (
                              <Box component="span" sx={{ color: 'text.secondary' }}>
                                {implied}
                              </Box>
                            ))}
                        </Box>
                        {message && value && (
                          <Box component="span" sx={visuallyHidden}>
                            {message}
                          </Box>
                        )}
                      </>
                    )}
                  </Box>
                );
              })}
              <Box role="gridcell" sx={{ width: CATEGORY_W, flex: 'none', px: 1, fontSize: 14 }}>
                {row.category ?? ''}
              </Box>
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}

/** Focuses a cell editor when it appears (instead of `autoFocus`, which the linter forbids). */
function focusOnMount(el: HTMLElement | null) {
  el?.focus();
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
