import {
  Alert,
  Box,
  Button,
  FormControl,
  FormControlLabel,
  FormLabel,
  Paper,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { EventRetention, PrivacyLogEntry } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table.tsx';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { useEventRetention, useSetEventRetention } from '../../../features/runner/api/my-data.ts';
import { formatDateTime, formatMoney } from '../../../lib/money.ts';

/** The setting's form: kept until deleted, or a number of days after the event. */
function RetentionForm({ eventId, data }: { eventId: string; data: EventRetention }) {
  const { t } = useTranslation('privacy');
  const save = useSetEventRetention(eventId);
  const [mode, setMode] = useState<'forever' | 'days'>(data.retentionDays === null ? 'forever' : 'days');
  const [days, setDays] = useState(String(data.retentionDays ?? 365));
  const valid = mode === 'forever' || (/^\d{1,4}$/.test(days.trim()) && Number(days) <= 3650);
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
      <Box
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) save.mutate(mode === 'forever' ? null : Number(days));
        }}
      >
        <FormControl>
          <FormLabel id="retention-mode">{t('console.keep')}</FormLabel>
          <RadioGroup
            aria-labelledby="retention-mode"
            value={mode}
            onChange={(_e, value) => setMode(value as 'forever' | 'days')}
          >
            <FormControlLabel value="forever" control={<Radio />} label={t('console.forever')} />
            <FormControlLabel value="days" control={<Radio />} label={t('console.days')} />
          </RadioGroup>
        </FormControl>
        {mode === 'days' && (
          <TextField
            label={t('console.days')}
            value={days}
            onChange={(e) => setDays(e.target.value)}
            error={!valid}
            slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'retention-days' } }}
            sx={{ display: 'block', mt: 1, maxWidth: 320 }}
            fullWidth
          />
        )}
        <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: 'center' }}>
          <Button type="submit" variant="contained" disabled={!valid || save.isPending}>
            {t('console.save')}
          </Button>
          {save.isSuccess && <Typography role="status">{t('console.saved')}</Typography>}
        </Stack>
        {save.isError && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {t('console.failed')}
          </Alert>
        )}
      </Box>
    </Paper>
  );
}

/**
 * `/console/events/{eventId}/privacy` (issue 40): how long the event keeps its runners' personal
 * data (then anonymised by the scheduled job), and what was removed and when — erased accounts
 * and the anonymisation — as counts, never names.
 */
export default function RetentionPage() {
  const { eventId = '' } = useParams();
  const { t, i18n } = useTranslation('privacy');
  const retention = useEventRetention(eventId);
  if (retention.isPending) return <PageLoading />;
  if (retention.isError) return <PageError error={retention.error} />;
  const data = retention.data;
  const detail = (entry: PrivacyLogEntry) =>
    Object.entries(entry.detail)
      .map(([key, n]) =>
        t(`console.detail.${key}`, {
          n: key === 'refundedCents' ? formatMoney(n, 'EUR', i18n.language) : n,
          defaultValue: `${key}: ${n}`,
        }),
      )
      .join(' · ');
  const columns: DataTableColumn<PrivacyLogEntry>[] = [
    { key: 'at', header: t('console.at'), cell: (e) => formatDateTime(e.at, i18n.language) },
    {
      key: 'what',
      header: t('console.what'),
      cell: (e) => (
        <>
          <Typography variant="body2">{t(`console.action.${e.action}`)}</Typography>
          <Typography variant="body2" color="text.secondary">
            {detail(e)}
          </Typography>
        </>
      ),
    },
  ];
  return (
    <>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('console.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('console.help')}
      </Typography>
      {data.anonymisedAt ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('console.done', { date: formatDateTime(data.anonymisedAt, i18n.language) })}
        </Alert>
      ) : (
        <RetentionForm key={String(data.retentionDays)} eventId={eventId} data={data} />
      )}
      {!data.anonymisedAt && data.anonymiseOn && (
        <Typography sx={{ mb: 2 }} data-testid="retention-on">
          {data.anonymiseOn <= new Date().toISOString().slice(0, 10)
            ? t('console.soon')
            : t('console.on', { date: data.anonymiseOn })}
        </Typography>
      )}
      <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
        {t('console.log')}
      </Typography>
      <DataTable
        columns={columns}
        rows={data.log}
        getRowKey={(e) => `${e.at}-${e.action}-${JSON.stringify(e.detail)}`}
        label={t('console.log')}
        empty={t('console.logEmpty')}
        getRowProps={() => ({ 'data-testid': 'privacy-log-entry' })}
      />
    </>
  );
}
