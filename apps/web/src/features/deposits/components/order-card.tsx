import { Box, Button, Paper, Typography } from '@mui/material';
import type { DepositOrderSummary } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney } from '../../../lib/money.ts';
import { StateChip } from './state-chip.tsx';

/**
 * One order of the deposit with what to pay and how: the amount, the structured communication to
 * type in the banking app, the organiser's account; "pending" until the bank match or the
 * provider's webhook confirms it.
 */
export function OrderCard({
  order,
  iban,
  beneficiary,
  onReceipt,
  children,
}: {
  order: DepositOrderSummary;
  iban?: string;
  beneficiary?: string;
  onReceipt?: () => void;
  children?: React.ReactNode;
}) {
  const { t, i18n } = useTranslation('deposits');
  const due = order.amountCents - order.paidCents;
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }} data-testid={`order-${order.id}`}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
        <Typography variant="h6" component="h3" sx={{ fontSize: 17, flexGrow: 1 }}>
          {t('order.title', { id: order.id, payer: order.payerName })}
        </Typography>
        <StateChip kind="order" state={order.state} />
      </Box>
      <Typography>
        {t('order.amount')} <strong>{formatMoney(order.amountCents, order.currency, i18n.language)}</strong>
        {order.paidCents > 0 &&
          ` · ${t('common:labelled', { label: t('order.paid'), value: formatMoney(order.paidCents, order.currency, i18n.language) })}`}
      </Typography>
      {order.state === 'awaiting_payment' && (
        <Box sx={{ mt: 1, p: 1.5, bgcolor: 'action.hover', borderRadius: 1 }}>
          <Typography variant="body2">
            {t('order.transfer', { amount: formatMoney(due, order.currency, i18n.language) })}
          </Typography>
          <Typography
            sx={{ fontFamily: 'monospace', fontSize: 20, fontWeight: 700, my: 0.5 }}
            data-testid="structured-communication"
          >
            {order.structured}
          </Typography>
          {iban && (
            <Typography variant="body2">
              {t('order.to')} {beneficiary} · <span style={{ fontFamily: 'monospace' }}>{iban}</span>
            </Typography>
          )}
          <Typography variant="body2" color="text.secondary">
            {t('order.expires', { date: formatDateTime(order.expiresAt, i18n.language) })}
          </Typography>
        </Box>
      )}
      <Box sx={{ display: 'flex', gap: 1, mt: 1, flexWrap: 'wrap' }}>
        {children}
        {onReceipt && (
          <Button size="small" variant="outlined" onClick={onReceipt}>
            {order.state === 'paid' ? t('order.receipt') : t('order.proforma')}
          </Button>
        )}
      </Box>
    </Paper>
  );
}
