import { Alert, Button, CircularProgress, Paper, Typography } from '@mui/material';
import type { DepositDetail } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { formatMoney } from '../../../lib/money.ts';
import { openReceipt } from '../api/orders.ts';

/**
 * `paymentok`: where the payer lands after paying. Coming back proves nothing (issue 18): each
 * order shows "pending" until the bank match or the provider's webhook confirmed it; the page
 * polls the deposit meanwhile (the route passes `poll`).
 */
export function PaymentOkView({ deposit }: { deposit: DepositDetail }) {
  const { t, i18n } = useTranslation('deposits');
  const orders = deposit.orders.filter(
    (o) => (deposit.role === 'member' ? o.mine : true) && o.state !== 'cancelled',
  );
  if (!orders.length) return <Alert severity="info">{t('paymentok.none')}</Alert>;
  return (
    <>
      {orders.map((o) => (
        <Paper key={o.id} variant="outlined" sx={{ p: 2, mb: 2 }} data-testid={`paymentok-${o.id}`}>
          <Typography variant="h6" component="h2" sx={{ fontSize: 18, mb: 1 }}>
            {t('order.title', { id: o.id, payer: o.payerName })} ·{' '}
            {formatMoney(o.amountCents, o.currency, i18n.language)}
          </Typography>
          {o.state === 'paid' ? (
            <Alert severity="success" role="status">
              {t('paymentok.confirmed')}
            </Alert>
          ) : o.state === 'awaiting_payment' ? (
            <Alert severity="warning" role="status" icon={<CircularProgress size={18} aria-hidden />}>
              {t('paymentok.pending', { communication: o.structured })}
            </Alert>
          ) : (
            <Alert severity="error">{t(`states.order.${o.state}`)}</Alert>
          )}
          {o.state === 'paid' && (
            <Button sx={{ mt: 1 }} size="small" variant="outlined" onClick={() => void openReceipt(o.id)}>
              {t('order.receipt')}
            </Button>
          )}
        </Paper>
      ))}
      <Button component={RouterLink} to={paths.payments()}>
        {t('paymentok.allPayments')}
      </Button>
    </>
  );
}
