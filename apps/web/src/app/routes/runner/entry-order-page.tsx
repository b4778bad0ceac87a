import { Alert, Box, Button, Divider, Paper, Stack, Typography } from '@mui/material';
import type { EntryOrder } from '@tempora/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import {
  downloadInvoice,
  downloadReceipt,
  useEntryOrder,
  usePay,
  usePayOnSite,
  useProviders,
  useRegistrationPage,
} from '../../../features/entries/api/entries.ts';
import { problemText } from '../../../features/entries/components/errors.ts';
import { formatDateTime, formatMoney } from '../../../lib/money.ts';

const PROVIDER_NAMES: Record<string, string> = { mollie: 'Mollie', stripe: 'Stripe' };

/** Whether an order has its numbered invoice: paid (whatever came after), not refunded for want of a place. */
const invoiceReady = (o: EntryOrder) =>
  (o.state === 'paid' || o.state === 'refunded') && o.amountCents > 0 && o.notice !== 'LATE_REFUNDED';

/**
 * `/entries/orders/{id}` (issue 38): the summary with the total and the hold's end, then payment
 * (Mollie or Stripe, or on site when the organiser allows it); coming back from the provider the
 * page waits for the webhook (the return alone proves nothing), then shows the confirmation.
 */
export default function EntryOrderPage() {
  const { t, i18n } = useTranslation('entries');
  const { id = '' } = useParams();
  const order = useEntryOrder(id);
  const providers = useProviders();
  const pay = usePay(id);
  const onSite = usePayOnSite(id);
  const page = useRegistrationPage(order.data?.eventId ?? '');
  // The confirmation e-mail's invoice link (`?invoice=1`): the invoice is downloaded once here,
  // signed in (the PDF is the payer's alone), and stays a button below.
  const [params] = useSearchParams();
  const asked = useRef(false);
  const invoiced = order.data && invoiceReady(order.data);
  useEffect(() => {
    if (params.get('invoice') === '1' && invoiced && !asked.current) {
      asked.current = true;
      void downloadInvoice(id);
    }
  }, [params, invoiced, id]);
  if (order.isPending) return <PageLoading />;
  if (order.isError) return <PageError error={order.error} />;
  const o = order.data;
  const money = (c: number) => formatMoney(c, o.currency, i18n.language);
  const confirmed = o.entries.some((e) => e.state === 'confirmed');
  const held = o.entries.some((e) => e.state === 'held');
  // A change's order (a move's difference, a transfer's fee) has no entries of its own.
  const change = o.entries.length === 0;
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto' }}>
      <PageHeader title={confirmed ? t('confirmation.title') : t('summary.title')} crumbs={[[t('title')]]} />
      {o.notice === 'LATE_REFUNDED' && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="late-refunded">
          {t('confirmation.refunded')}
        </Alert>
      )}
      {confirmed && (
        <Alert severity="success" sx={{ mb: 2 }}>
          {t('confirmation.lead')}
        </Alert>
      )}
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Stack spacing={1} divider={<Divider flexItem />}>
          {o.entries.map((e) => (
            <Box key={e.code} data-testid="order-line">
              <Typography variant="subtitle1">
                {e.name} — {e.raceName}
              </Typography>
              <Typography variant="body2">
                {/* "Inscription : 25,00 €" — French puts a space before the colon (summary.item). */}
                {t('summary.item', { label: t('summary.entry'), amount: money(e.entryCents) })}
                {e.discountCents > 0 &&
                  ` · ${t('summary.item', { label: t('summary.discount'), amount: `−${money(e.discountCents)}` })}`}
                {e.addOns.length > 0 &&
                  ` · ${t('summary.item', {
                    label: t('summary.addOns'),
                    amount: `${e.addOns.map((a) => a.name).join(', ')} ${money(e.addOnsCents)}`,
                  })}`}
              </Typography>
              {e.creditRefundCents ? (
                <Typography variant="body2" data-testid="credit-refund">
                  {t('summary.item', {
                    label: t('summary.creditRefund'),
                    amount: money(e.creditRefundCents),
                  })}
                </Typography>
              ) : null}
              <Typography variant="body2" color="text.secondary">
                {t(`states.${e.state}`)}
              </Typography>
              {e.state === 'confirmed' && (
                <Button component={RouterLink} to={paths.entry(e.code)} size="small">
                  {t('confirmation.open')}
                </Button>
              )}
            </Box>
          ))}
          <Typography variant="h6" data-testid="order-total">
            {t('summary.item', { label: t('summary.total'), amount: money(o.amountCents) })}
          </Typography>
        </Stack>
      </Paper>
      {o.paidCents > 0 && (
        <Stack direction="row" spacing={1} useFlexGap sx={{ mb: 2, flexWrap: 'wrap' }}>
          <Button variant="outlined" onClick={() => void downloadReceipt(o.orderId)}>
            {t('confirmation.receipt')}
          </Button>
          {/* Numbered when it was paid (its invoice, in the runner's language), whatever came after. */}
          {invoiceReady(o) && (
            <Button variant="outlined" onClick={() => void downloadInvoice(o.orderId)} data-testid="invoice">
              {t('confirmation.invoice')}
            </Button>
          )}
        </Stack>
      )}
      {change && o.state === 'paid' && (
        <Alert severity="success" sx={{ mb: 2 }}>
          {t('actions.done')}
        </Alert>
      )}
      {(held || change) && o.state === 'awaiting_payment' && (
        <>
          {o.holdExpiresAt && (
            <Alert severity="info" sx={{ mb: 2 }}>
              {t('summary.heldUntil', { time: formatDateTime(o.holdExpiresAt, i18n.language) })}
            </Alert>
          )}
          <Stack spacing={1}>
            {(providers.data?.providers ?? [])
              .filter((p) => p !== 'bank')
              .map((p) => (
                <Button
                  key={p}
                  variant="contained"
                  size="large"
                  disabled={pay.isPending}
                  onClick={() =>
                    pay.mutate(p as 'mollie' | 'stripe', {
                      onSuccess: (started) => {
                        if (started.checkoutUrl) window.location.assign(started.checkoutUrl);
                      },
                    })
                  }
                >
                  {t('summary.pay', { provider: PROVIDER_NAMES[p] ?? p })}
                </Button>
              ))}
            {page.data?.payOnSite && (
              <Button
                variant="outlined"
                size="large"
                disabled={onSite.isPending}
                onClick={() => onSite.mutate()}
              >
                {t('summary.payOnSite')}
              </Button>
            )}
          </Stack>
          {(pay.error || onSite.error) && (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {problemText(t, pay.error ?? onSite.error)}
            </Alert>
          )}
        </>
      )}
      {/* Expired only when a place was let go unpaid (not an entry deferred or cancelled since). */}
      {!held &&
        !confirmed &&
        o.state !== 'refunded' &&
        (o.entries.some((e) => e.state === 'expired') || (change && o.state === 'expired')) && (
          <Alert severity="warning">{t('summary.expired')}</Alert>
        )}
    </Box>
  );
}
