import { Alert, Box, Button, Chip, Paper, Typography } from '@mui/material';
import type { OrderDetail } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { formatDateTime, formatMoney } from '../../../lib/money.ts';
import { download, useMyPayments } from '../api/payments.ts';

/** The signed-in user's orders, receipts and refunds. */
export function MyPayments() {
  const { t } = useTranslation('payments');
  const mine = useMyPayments();
  if (mine.isPending) return <PageLoading />;
  if (mine.isError) return <PageError error={mine.error} />;
  return (
    <section aria-labelledby="my-orders">
      <Typography id="my-orders" variant="h6" component="h2" sx={{ fontSize: 18, mb: 1 }}>
        {t('mine.title')}
      </Typography>
      {mine.data.orders.length === 0 && <Alert severity="info">{t('mine.none')}</Alert>}
      {mine.data.orders.map((o) => (
        <OrderRow key={o.id} order={o} />
      ))}
    </section>
  );
}

function OrderRow({ order: o }: { order: OrderDetail }) {
  const { t, i18n } = useTranslation('payments');
  const money = (c: number) => formatMoney(c, o.currency, i18n.language);
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 1.5 }} data-testid={`my-order-${o.id}`}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography sx={{ fontWeight: 600, flexGrow: 1 }}>
          {o.eventName} · {o.organisationName} · #{o.id}
        </Typography>
        <Chip
          size="small"
          color={o.state === 'paid' ? 'success' : o.state === 'awaiting_payment' ? 'warning' : 'default'}
          label={t(`states.${o.state}`)}
        />
      </Box>
      <Typography variant="body2" color="text.secondary">
        {formatDateTime(o.createdAt, i18n.language)} · {t(`providers.${o.provider}`)} ·{' '}
        <span style={{ fontFamily: 'monospace' }}>{o.communication}</span>
      </Typography>
      <Typography>
        {t('mine.amount', { amount: money(o.amountCents), paid: money(o.paidCents) })}
        {o.refundedCents > 0 && ` · ${t('mine.refunded', { amount: money(o.refundedCents) })}`}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 2 }}>
        {o.lines.map((l) => (
          <li key={l.entryId}>
            {l.participant || t('mine.placeholder')} · {l.raceName} · {money(l.amountCents)}
          </li>
        ))}
      </Box>
      {o.refunds.map((r) => (
        <Typography key={r.id} variant="body2">
          {t('mine.refund', { amount: money(r.amountCents), state: t(`refundStates.${r.state}`) })}
        </Typography>
      ))}
      <Box sx={{ display: 'flex', gap: 1, mt: 1, flexWrap: 'wrap' }}>
        <Button
          size="small"
          variant="outlined"
          onClick={() => void download(`payments/orders/${o.id}/receipt.pdf`, `receipt-${o.id}.pdf`)}
        >
          {o.state === 'paid' || o.state === 'refunded' ? t('mine.receipt') : t('mine.proforma')}
        </Button>
        {o.depositId && (
          <Button
            size="small"
            component={RouterLink}
            to={paths.depositView(o.eventId, o.depositId, 'overview')}
          >
            {t('mine.deposit')}
          </Button>
        )}
      </Box>
    </Paper>
  );
}
