import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Paper,
  TextField,
  Typography,
} from '@mui/material';
import type { DepositDetail, DepositEntry, EntryInput } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FileDrop } from '../../../components/file-drop.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime, formatMoney } from '../../../lib/money.ts';
import { depositApi, useDepositMutation, useOffer } from '../api/deposits.ts';
import { EntriesTable } from './entries-table.tsx';
import { EntryDialog } from './entry-form.tsx';
import { ShareCard } from './share-card.tsx';

/**
 * `collect`: the captain shares the link and gathers entries (adds, imports, fills placeholders,
 * submits); a member fills in their own entry. Editing locks at the deadline.
 */
export function CollectView({ deposit }: { deposit: DepositDetail }) {
  const { t, i18n } = useTranslation('deposits');
  const navigate = useNavigate();
  const offer = useOffer(deposit.eventId);
  const races = offer.data?.races ?? [];
  const [editing, setEditing] = useState<DepositEntry | 'new' | 'self' | null>(null);
  const [importing, setImporting] = useState(false);
  const [placeholderRace, setPlaceholderRace] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = deposit.id;
  const leader = deposit.role !== 'member';
  const save = useDepositMutation(id, (input: EntryInput) =>
    editing && typeof editing === 'object'
      ? depositApi.updateEntry(id, editing.id, input)
      : depositApi.addEntry(id, { ...input, self: editing === 'self' }),
  );
  const act = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(
        e instanceof ApiError ? t(`errors.${e.code}`, { defaultValue: e.message }) : t('errors.generic'),
      );
    }
  };
  const addPlaceholder = useDepositMutation(id, (raceId: string) =>
    depositApi.addEntry(id, { raceId, placeholder: true }),
  );
  const remove = useDepositMutation(id, (entryId: string) => depositApi.removeEntry(id, entryId));
  const submit = useDepositMutation(id, () => depositApi.submit(id));
  const decide = useDepositMutation(id, (v: { entryId: string; approve: boolean }) =>
    depositApi.decideSubstitution(id, v.entryId, v.approve),
  );
  const importCsv = useDepositMutation(id, (csv: string) => depositApi.importEntries(id, csv));
  const mine = deposit.entries.find((e) => e.mine && e.state !== 'cancelled');
  const canChangePaid = ['paid', 'confirmed', 'awaiting_payment'].includes(deposit.state);
  return (
    <>
      {deposit.editable ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('collect.deadline', { date: formatDateTime(deposit.deadline ?? '', i18n.language) })}
        </Alert>
      ) : (
        <Alert severity={deposit.state === 'collecting' ? 'warning' : 'info'} sx={{ mb: 2 }}>
          {deposit.state === 'collecting' ? t('collect.locked') : t('collect.submitted')}
        </Alert>
      )}
      {leader && deposit.state === 'collecting' && <ShareCard depositId={id} />}
      {deposit.role === 'member' && !mine && deposit.editable && (
        <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
          <Typography sx={{ mb: 1 }}>{t('collect.memberHelp')}</Typography>
          <Button variant="contained" onClick={() => setEditing('self')}>
            {t('collect.fillMine')}
          </Button>
        </Paper>
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}>
        <Typography variant="h6" component="h2" sx={{ fontSize: 18, flexGrow: 1 }}>
          {t('entries.title')} ({deposit.totals.entries})
        </Typography>
        {leader && deposit.editable && (
          <>
            {deposit.role === 'captain' && !mine && (
              <Button variant="outlined" onClick={() => setEditing('self')}>
                {t('collect.fillMine')}
              </Button>
            )}
            <Button variant="outlined" onClick={() => setEditing('new')}>
              {t('collect.add')}
            </Button>
            <Button variant="outlined" onClick={() => setImporting(true)}>
              {t('collect.import')}
            </Button>
          </>
        )}
      </Box>
      {leader && deposit.editable && (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
          <TextField
            select
            size="small"
            label={t('collect.placeholderRace')}
            value={placeholderRace || races[0]?.id || ''}
            onChange={(e) => setPlaceholderRace(e.target.value)}
            sx={{ minWidth: 200 }}
          >
            {races.map((r) => (
              <MenuItem key={r.id} value={r.id}>
                {r.name} · {formatMoney(r.priceCents, offer.data?.currency ?? 'EUR', i18n.language)}
              </MenuItem>
            ))}
          </TextField>
          <Button
            onClick={() => act(() => addPlaceholder.mutateAsync(placeholderRace || races[0]?.id || ''))}
          >
            {t('collect.addPlaceholder')}
          </Button>
        </Box>
      )}
      {error && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }} onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <EntriesTable
        deposit={deposit}
        onEdit={deposit.editable || canChangePaid ? (e) => setEditing(e) : undefined}
        onRemove={deposit.editable ? (e) => act(() => remove.mutateAsync(e.id)) : undefined}
        onDecide={(e, approve) => act(() => decide.mutateAsync({ entryId: e.id, approve }))}
      />
      {deposit.role === 'captain' && deposit.state === 'collecting' && (
        <Paper
          variant="outlined"
          sx={{ p: 2, mt: 2, display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}
        >
          <Typography sx={{ flexGrow: 1 }}>
            {t('collect.total', {
              count: deposit.totals.entries,
              amount: formatMoney(deposit.totals.amountCents, deposit.currency, i18n.language),
            })}
            {deposit.totals.placeholders > 0 &&
              ` · ${t('collect.placeholders', { count: deposit.totals.placeholders })}`}
          </Typography>
          <Button
            variant="contained"
            disabled={!deposit.editable || submit.isPending || deposit.totals.entries === 0}
            onClick={() =>
              act(async () => {
                await submit.mutateAsync(undefined);
                navigate(paths.depositView(deposit.eventId, id, 'overview'));
              })
            }
          >
            {t('collect.submit')}
          </Button>
        </Paper>
      )}
      <EntryDialog
        key={typeof editing === 'object' && editing ? editing.id : String(editing)}
        open={editing !== null}
        title={
          editing === 'self'
            ? t('collect.fillMine')
            : editing === 'new'
              ? t('collect.add')
              : t('collect.editTitle')
        }
        races={races}
        entry={typeof editing === 'object' ? editing : null}
        onClose={() => setEditing(null)}
        onSave={(input) => save.mutateAsync(input)}
      />
      <ImportDialog
        open={importing}
        onClose={() => setImporting(false)}
        onImport={(csv) => importCsv.mutateAsync(csv)}
      />
    </>
  );
}

function ImportDialog({
  open,
  onClose,
  onImport,
}: {
  open: boolean;
  onClose: () => void;
  onImport: (csv: string) => Promise<unknown>;
}) {
  const { t } = useTranslation('deposits');
  const [csv, setCsv] = useState('');
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    try {
      setError(null);
      await onImport(csv);
      setCsv('');
      onClose();
    } catch (e) {
      if (e instanceof ApiError) {
        const rows = Object.entries(e.fieldErrors).map(([f, m]) => `${f}: ${m.join(', ')}`);
        setError([t(`errors.${e.code}`, { defaultValue: e.message }), ...rows].join('\n'));
      } else setError(t('errors.generic'));
    }
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>{t('collect.import')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('collect.importHelp')}
        </Typography>
        <TextField
          multiline
          minRows={6}
          fullWidth
          label="CSV"
          value={csv}
          onChange={(e) => setCsv(e.target.value)}
          placeholder={'firstName;lastName;gender;birthDate;email;race'}
        />
        <FileDrop
          label={t('collect.chooseFile')}
          accept=".csv,text/csv"
          buttonProps={{ variant: 'text' }}
          sx={{ mt: 1 }}
          onFile={async (file) => setCsv(await file.text())}
        />
        {error && (
          <Alert severity="error" role="alert" sx={{ mt: 1, whiteSpace: 'pre-line' }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('actions.cancel')}</Button>
        <Button variant="contained" onClick={run} disabled={!csv.trim()}>
          {t('collect.importButton')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
