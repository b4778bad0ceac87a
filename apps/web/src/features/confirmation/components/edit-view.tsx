import { Alert, Button, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import type { BulkAction, DocumentDetail, DocumentRow, RowField } from '@tempora/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { confirmationApi, useConfirmationEvents, useRefreshDocument, useRows } from '../api/documents.ts';
import { type RowAction, RowsGrid } from './rows-grid.tsx';

const FILTERS = ['all', 'errors', 'warnings', 'pending', 'confirmed', 'rejected'] as const;
type Filter = (typeof FILTERS)[number];

function keep(row: DocumentRow, filter: Filter): boolean {
  const error = row.issues.some((i) => i.severity === 'error');
  if (filter === 'errors') return row.decision === 'pending' && error;
  if (filter === 'warnings') return row.decision === 'pending' && !error && row.issues.length > 0;
  if (filter === 'all') return true;
  return row.decision === filter;
}

/** `document/{id}/edit`: the grid, its filters, bulk actions on the selection, undo and confirmation. */
export function EditView({ document: d }: { document: DocumentDetail }) {
  const { t } = useTranslation('confirmation');
  const rows = useRows(d.id);
  const events = useConfirmationEvents();
  const refresh = useRefreshDocument(d.id);
  const races = events.data?.find((e) => e.id === d.eventId)?.races ?? [];
  const [filter, setFilter] = useState<Filter>('all');
  const [selection, setSelection] = useState<Set<string>>(new Set());
  const [race, setRace] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const shown = useMemo(() => (rows.data ?? []).filter((r) => keep(r, filter)), [rows.data, filter]);
  const editable = ['validated', 'partlyConfirmed', 'confirmed', 'mapped'].includes(d.status);

  async function run(fn: () => Promise<DocumentRow[] | undefined>, done?: string) {
    setBusy(true);
    setMessage(null);
    try {
      refresh(await fn());
      if (done) setMessage({ ok: true, text: done });
    } catch (err) {
      setMessage({ ok: false, text: t('errors.generic', { message: (err as Error).message }) });
    } finally {
      setBusy(false);
    }
  }

  const bulk = (action: BulkAction) =>
    run(() => confirmationApi.bulk(d.id, action)).then(() => setSelection(new Set()));

  const handleEdit = (row: DocumentRow, field: RowField, value: string) =>
    run(() => confirmationApi.edit(d.id, { edits: [{ rowId: row.id, field, value }] }), t('grid.saved'));

  function handleAction(row: DocumentRow, action: RowAction) {
    if (action === 'merge') void run(() => confirmationApi.merge(d.id, row.id));
    else if (action === 'reject')
      void run(() => confirmationApi.bulk(d.id, { action: 'reject', rowIds: [row.id] }));
    else if (action === 'restore')
      void run(() => confirmationApi.bulk(d.id, { action: 'restore', rowIds: [row.id] }));
    else
      void run(async () => {
        const result = await confirmationApi.confirm(d.id, [row.id]);
        setMessage({ ok: true, text: t('grid.confirmedCount', { count: result.confirmed }) });
        return undefined;
      });
  }

  function handleSelect(ids: string[], selected: boolean) {
    setSelection((s) => {
      const next = new Set(s);
      for (const id of ids) {
        if (selected) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  }

  if (rows.isPending) return <PageLoading />;
  if (rows.isError) return <PageError error={rows.error} />;
  const ids = [...selection];
  return (
    <Stack spacing={1.5}>
      <Paper variant="outlined" sx={{ p: 1.5 }}>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
          <TextField
            select
            size="small"
            label={t('grid.filter')}
            value={filter}
            onChange={(e) => setFilter(e.target.value as Filter)}
            sx={{ minWidth: 150 }}
          >
            {FILTERS.map((f) => (
              <MenuItem key={f} value={f}>
                {t(`grid.filters.${f}`)}
              </MenuItem>
            ))}
          </TextField>
          <Typography aria-live="polite" sx={{ minWidth: 100 }}>
            {t('grid.selected', { count: selection.size })}
          </Typography>
          <TextField
            select
            size="small"
            label={t('grid.setRace')}
            value={race}
            onChange={(e) => setRace(e.target.value)}
            sx={{ minWidth: 180 }}
          >
            {races.map((r) => (
              <MenuItem key={r.id} value={r.id}>
                {r.name}
              </MenuItem>
            ))}
          </TextField>
          <Button
            size="small"
            variant="outlined"
            disabled={busy || !editable || !race || !selection.size}
            onClick={() => bulk({ action: 'setRace', rowIds: ids, raceId: race })}
          >
            {t('grid.setRace')}
          </Button>
          <Button
            color="error"
            variant="outlined"
            disabled={busy || !editable || !selection.size}
            onClick={() => bulk({ action: 'reject', rowIds: ids })}
          >
            {t('grid.rejectSelected')}
          </Button>
          <Button
            size="small"
            variant="outlined"
            disabled={busy || !editable || !selection.size}
            onClick={() => bulk({ action: 'restore', rowIds: ids })}
          >
            {t('grid.restoreSelected')}
          </Button>
          <Button
            size="small"
            disabled={busy || !d.canUndo}
            onClick={() => run(() => confirmationApi.undo(d.id))}
          >
            {t('grid.undo')}
          </Button>
          <Button
            size="small"
            variant="contained"
            color="success"
            disabled={busy || d.counts.clean === 0 || !['validated', 'partlyConfirmed'].includes(d.status)}
            onClick={() =>
              run(async () => {
                const result = await confirmationApi.confirm(d.id);
                setMessage({ ok: true, text: t('grid.confirmedCount', { count: result.confirmed }) });
                return undefined;
              })
            }
          >
            {t('grid.confirmClean', { count: d.counts.clean })}
          </Button>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} id="grid-keyboard-help">
          {t('grid.keyboard')}
        </Typography>
      </Paper>
      <div role="status" aria-live="polite">
        {message && <Alert severity={message.ok ? 'success' : 'error'}>{message.text}</Alert>}
      </div>
      <RowsGrid
        rows={shown}
        races={races}
        selection={selection}
        onSelect={handleSelect}
        onEdit={handleEdit}
        onAction={handleAction}
        busy={busy}
        defaultRaceId={d.defaultRaceId}
      />
    </Stack>
  );
}
