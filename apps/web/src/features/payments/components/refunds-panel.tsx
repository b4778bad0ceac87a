import { Alert, Box, Button, MenuItem, Paper, TextField, Typography } from '@mui/material';
import type { RefundInput } from '@tempora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { download, paymentsApi, useSettingsRaces, useStaffMutation } from '../api/payments.ts';

/** Refunds: full, partial or by the event's policy; orders by number, or every paid order of a race. */
export function RefundsPanel({ eventId }: { eventId: string }) {
  const { t } = useTranslation('payments');
  const races = useSettingsRaces(eventId).data ?? [];
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const refund = useStaffMutation((input: RefundInput) => paymentsApi.refund(eventId, input));
  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const v = (k: string) => String(form.get(k) ?? '').trim();
    const orderIds = v('orders')
      .split(/[,;\s]+/)
      .filter(Boolean);
    const input: RefundInput = {
      kind: v('kind') as RefundInput['kind'],
      method: v('method') as 'bank' | 'provider',
      reason: v('reason'),
      ...(orderIds.length ? { orderIds } : { raceId: v('race') }),
      ...(v('kind') === 'partial'
        ? { amountCents: Math.round(Number(v('amount').replace(',', '.')) * 100) }
        : {}),
    };
    try {
      const created = (await refund.mutateAsync(input)) as unknown[];
      setStatus({ ok: true, text: t('refunds.done', { count: created.length }) });
    } catch (e) {
      setStatus({
        ok: false,
        text:
          e instanceof ApiError
            ? `${t(`errors.${e.code}`, { defaultValue: e.code })}: ${e.message}`
            : t('errors.generic'),
      });
    }
  };
  return (
    <Paper
      component="form"
      variant="outlined"
      onSubmit={handleSubmit}
      sx={{ p: 2, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}
    >
      <Typography sx={{ gridColumn: { sm: 'span 2' } }}>{t('refunds.help')}</Typography>
      <TextField name="orders" label={t('refunds.orders')} placeholder="12, 13" />
      <TextField select name="race" label={t('refunds.race')} defaultValue="">
        <MenuItem value="">—</MenuItem>
        {races.map((r) => (
          <MenuItem key={r.id} value={r.id}>
            {r.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField select name="kind" label={t('refunds.kind')} defaultValue="policy">
        {(['full', 'partial', 'policy'] as const).map((k) => (
          <MenuItem key={k} value={k}>
            {t(`refunds.kinds.${k}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField name="amount" label={t('refunds.amount')} placeholder="12.50" />
      <TextField select name="method" label={t('refunds.method')} defaultValue="bank">
        <MenuItem value="bank">{t('refunds.methods.bank')}</MenuItem>
        <MenuItem value="provider">{t('refunds.methods.provider')}</MenuItem>
      </TextField>
      <TextField name="reason" label={t('refunds.reason')} />
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', gridColumn: { sm: 'span 2' } }}>
        <Button type="submit" variant="contained">
          {t('refunds.submit')}
        </Button>
        <Button
          variant="outlined"
          onClick={() =>
            void download(
              `payments/staff/events/${encodeURIComponent(eventId)}/refunds.csv`,
              `refunds-${eventId}.csv`,
            )
          }
        >
          {t('refunds.export')}
        </Button>
      </Box>
      {status && (
        <Alert severity={status.ok ? 'success' : 'error'} sx={{ gridColumn: { sm: 'span 2' } }}>
          {status.text}
        </Alert>
      )}
    </Paper>
  );
}
