import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import {
  downloadCalendar,
  downloadCreditNote,
  downloadInvoice,
  downloadReceipt,
  useEntry,
  useEntryQr,
} from '../../../features/entries/api/entries.ts';
import { EntryActions } from '../../../features/entries/components/entry-actions.tsx';
import { EntryCredit } from '../../../features/entries/components/entry-credit.tsx';
import { formatMoney } from '../../../lib/money.ts';

/**
 * `/entries/entry/{code}` (issue 38): one entry — its status, bib once assigned, the entry code as
 * a QR code for pickup (issue 39 scans it), the calendar file, and the self-service actions the
 * organiser's policy allows, each quoted before it is confirmed.
 */
export default function EntryPage() {
  const { t, i18n } = useTranslation('entries');
  const { code = '' } = useParams();
  const entry = useEntry(code);
  const qr = useEntryQr(code);
  if (entry.isPending) return <PageLoading />;
  if (entry.isError) return <PageError error={entry.error} />;
  const e = entry.data;
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto' }}>
      <PageHeader title={`${e.eventName} — ${e.raceName}`} crumbs={[[t('mine.title')], [e.raceName]]} />
      <Paper variant="outlined" sx={{ p: 2, mb: 2, textAlign: 'center' }}>
        <Typography variant="h6">{e.name}</Typography>
        <Typography data-testid="entry-state">{t(`states.${e.state}`)}</Typography>
        <Typography>{e.bib ? t('mine.bib', { bib: e.bib }) : t('mine.noBib')}</Typography>
        {qr.data && (
          <Box
            component="img"
            alt={t('confirmation.code')}
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr.data)}`}
            sx={{ width: 200, height: 200, my: 1 }}
          />
        )}
        <Typography variant="body2" color="text.secondary">
          {t('confirmation.code')}
        </Typography>
        <Typography sx={{ fontFamily: 'monospace', fontSize: 18 }} data-testid="entry-code">
          {e.code}
        </Typography>
        <Typography variant="body2">{formatMoney(e.totalCents, e.currency, i18n.language)}</Typography>
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          sx={{ justifyContent: 'center', flexWrap: 'wrap', mt: 1 }}
        >
          <Button onClick={() => void downloadCalendar(e.code)}>{t('confirmation.calendar')}</Button>
          {e.receipt && e.orderId && (
            <Button onClick={() => void downloadReceipt(e.orderId as string)}>
              {t('confirmation.receipt')}
            </Button>
          )}
          {e.invoice && e.orderId && (
            <Button onClick={() => void downloadInvoice(e.orderId as string)}>
              {t('confirmation.invoice')}
            </Button>
          )}
          {e.orderId &&
            e.creditNotes.map((number) => (
              <Button key={number} onClick={() => void downloadCreditNote(e.orderId as string, number)}>
                {t('confirmation.creditNote', { number })}
              </Button>
            ))}
        </Stack>
      </Paper>
      {e.credit && (
        <Box sx={{ mb: 2 }}>
          <EntryCredit entry={e} />
        </Box>
      )}
      {e.state === 'confirmed' && e.allowed.length === 0 && (
        <Alert severity="info">{t('actions.notAllowed')}</Alert>
      )}
      <EntryActions entry={e} />
    </Box>
  );
}
