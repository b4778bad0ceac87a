import { Alert, Box, Button, Paper, TextField, Typography } from '@mui/material';
import type { BankLine } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { formatMoney } from '../../../lib/money.ts';
import { paymentsApi, useQueue, useStaffMutation } from '../api/payments.ts';

/**
 * The manual matching queue: bank lines the matcher would not decide (no or unknown reference,
 * several orders, under- or over-payment, already paid). Staff give the line to one or several
 * orders (`12=50.00, 13=25.00`) or set it aside with a note; every decision is audited.
 */
export function MatchingQueue({ eventId }: { eventId: string }) {
  const { t } = useTranslation('payments');
  const queue = useQueue(eventId);
  if (!queue.data?.length) return <Typography color="text.secondary">{t('queue.empty')}</Typography>;
  return (
    <>
      {queue.data.map((line) => (
        <QueueLine key={line.id} eventId={eventId} line={line} />
      ))}
    </>
  );
}

function QueueLine({ eventId, line }: { eventId: string; line: BankLine }) {
  const { t, i18n } = useTranslation('payments');
  const [allocation, setAllocation] = useState(
    line.candidates.length === 1 ? `${line.candidates[0]}=${(line.amountCents / 100).toFixed(2)}` : '',
  );
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const match = useStaffMutation(() => {
    const parts = allocation
      .split(/[,;\s]+/)
      .filter(Boolean)
      .map((p) => {
        const [orderId = '', amount = ''] = p.split('=');
        return {
          orderId: orderId.replace(/\D/g, ''),
          amountCents: Math.round(Number(amount.replace(',', '.')) * 100),
        };
      });
    return paymentsApi.match(eventId, line.id, parts, note);
  });
  const ignore = useStaffMutation(() => paymentsApi.ignore(eventId, line.id, note || '—'));
  const run = async (fn: () => Promise<unknown>) => {
    try {
      setError(null);
      await fn();
    } catch (e) {
      setError(
        e instanceof ApiError
          ? `${t(`errors.${e.code}`, { defaultValue: e.code })}: ${e.message}`
          : t('errors.generic'),
      );
    }
  };
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 1.5 }} data-testid={`queue-line-${line.id}`}>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'baseline' }}>
        <Typography sx={{ fontWeight: 600 }}>
          {formatMoney(line.amountCents, line.currency, i18n.language)}
        </Typography>
        <Typography>{line.counterpartyName || '—'}</Typography>
        <Typography color="text.secondary">{line.bookingDate ?? ''}</Typography>
        <Typography color="warning.main">{t(`reasons.${line.reason ?? 'NO_REFERENCE'}`)}</Typography>
      </Box>
      <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
        {line.communication || line.freeText || '—'}{' '}
        {line.counterpartyAccount && `· ${line.counterpartyAccount}`}
      </Typography>
      {line.candidates.length > 0 && (
        <Typography variant="body2">
          {t('queue.candidates', { orders: line.candidates.join(', ') })}
        </Typography>
      )}
      <Box sx={{ display: 'flex', gap: 1, mt: 1, flexWrap: 'wrap' }}>
        <TextField
          size="small"
          label={t('queue.allocation')}
          value={allocation}
          onChange={(e) => setAllocation(e.target.value)}
          placeholder="12=50.00, 13=25.00"
        />
        <TextField
          size="small"
          label={t('queue.note')}
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
        <Button
          variant="contained"
          disabled={!allocation}
          onClick={() => run(() => match.mutateAsync(undefined))}
        >
          {t('queue.match')}
        </Button>
        <Button onClick={() => run(() => ignore.mutateAsync(undefined))}>{t('queue.ignore')}</Button>
      </Box>
      {error && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
    </Paper>
  );
}
