import { Alert, Box, Button, MenuItem, Paper, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { type RacedayRace, type Runner, useRacedayMutation } from '../api/raceday.ts';
import { useOfficialConfirm, useRaceName } from './official-hold.tsx';

const STATUSES = ['DNS', 'DNF', 'DSQ', 'registered'] as const;

/** DNS / DNF / DSQ with a reason (or back to racing) for one runner. */
export function StatusForm({
  db,
  races,
  runners,
}: {
  db: string;
  races: RacedayRace[];
  runners: Runner[] | undefined;
}) {
  const { t } = useTranslation('raceday');
  const [bib, setBib] = useState('');
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('DNF');
  const [reason, setReason] = useState('');
  const runner = runners?.find((r) => r.bib === bib.trim());
  const raceId = runner?.raceId ?? races[0]?.id ?? '';
  const save = useRacedayMutation<{ bib: string; status: string; reason: string }>(db, '');
  // Issue 43: an official race's status changes only as a correction the organiser confirms.
  const official = useOfficialConfirm(save.error, useRaceName(races));
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    save.mutate(
      {
        body: official.withCorrection({ bib: bib.trim(), status, reason }, reason),
        path: `/races/${encodeURIComponent(raceId)}/status`,
      },
      {
        onSuccess: () => {
          setBib('');
          setReason('');
        },
      },
    );
  };
  return (
    <Paper variant="outlined" sx={{ p: 2, display: 'grid', gap: 1 }}>
      <Typography component="h2" variant="h6">
        {t('status.title')}
      </Typography>
      <Box
        component="form"
        onSubmit={submit}
        sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'flex-start' }}
      >
        <TextField
          size="small"
          label={t('desk.bib')}
          value={bib}
          onChange={(e) => setBib(e.target.value)}
          sx={{ width: 110 }}
          helperText={
            runner ? `${runner.name} · ${t(`status.${runner.status}`)}` : bib ? t('desk.unknown') : ' '
          }
          error={!!bib && runners !== undefined && !runner}
          slotProps={{ htmlInput: { 'data-testid': 'status-bib' } }}
        />
        <TextField
          select
          size="small"
          label={t('status.status')}
          value={status}
          onChange={(e) => setStatus(e.target.value as typeof status)}
          sx={{ width: 210 }}
        >
          {STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {t(`status.${s}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label={t('correct.reason')}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          required={status !== 'registered'}
          sx={{ flexGrow: 1, minWidth: 160 }}
        />
        <Button type="submit" variant="contained" disabled={!bib.trim() || save.isPending}>
          {t('status.save')}
        </Button>
      </Box>
      {save.isSuccess && (
        <Alert severity="success" role="status">
          {t('status.saved')}
        </Alert>
      )}
      {save.error instanceof ApiError && (
        <Alert severity="error">{official.message ?? save.error.message}</Alert>
      )}
      {official.box}
    </Paper>
  );
}
