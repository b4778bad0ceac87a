import {
  Alert,
  Box,
  Button,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { DepositDetail } from '@tempora/contracts';
import { formatDuration } from '@tempora/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { formatMoney } from '../../../lib/money.ts';
import { useRanking } from '../api/deposits.ts';
import { openReceipt, startPayment, useProviders } from '../api/orders.ts';
import { EntriesTable } from './entries-table.tsx';
import { OrderCard } from './order-card.tsx';
import { StateChip } from './state-chip.tsx';

/** `overview`: state, entries, fees, missing data, orders and payment, the team's ranking. */
export function OverviewView({ deposit }: { deposit: DepositDetail }) {
  const { t, i18n } = useTranslation('deposits');
  const providers = useProviders().data?.providers ?? ['bank'];
  const ranking = useRanking(deposit.id, ['paid', 'confirmed', 'closed'].includes(deposit.state));
  const [error, setError] = useState<string | null>(null);
  const money = (c: number) => formatMoney(c, deposit.currency, i18n.language);
  const pay = async (orderId: string, provider: 'mollie' | 'stripe') => {
    try {
      const back = `${location.origin}${location.pathname}#${paths.depositView(deposit.eventId, deposit.id, 'paymentok')}`;
      const started = await startPayment(orderId, provider, back);
      if (started.checkoutUrl) location.assign(started.checkoutUrl);
    } catch (e) {
      setError(
        e instanceof ApiError ? t(`errors.${e.code}`, { defaultValue: e.message }) : t('errors.generic'),
      );
    }
  };
  const stats: [string, string][] = [
    [t('overview.entries'), String(deposit.totals.entries)],
    [t('overview.placeholders'), String(deposit.totals.placeholders)],
    [t('overview.missing'), String(deposit.totals.missing)],
    [t('overview.amount'), money(deposit.totals.amountCents)],
    [t('overview.paid'), money(deposit.totals.paidCents)],
  ];
  const visibleOrders = deposit.orders.filter((o) => deposit.role !== 'member' || o.mine);
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2" sx={{ fontSize: 18 }}>
          {deposit.organisationName}
        </Typography>
        <StateChip kind="deposit" state={deposit.state} />
        <Typography color="text.secondary" sx={{ width: { xs: '100%', sm: 'auto' } }}>
          {t(`create.types.${deposit.type}`)} · {t(`create.payers.${deposit.payerMode}`)}
        </Typography>
      </Box>
      <Box
        sx={{
          display: 'grid',
          gap: 1.5,
          gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(5, 1fr)' },
          mb: 3,
        }}
      >
        {stats.map(([label, value]) => (
          <Paper key={label} variant="outlined" sx={{ p: 1.5 }}>
            <Typography variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Typography sx={{ fontSize: 20, fontWeight: 600 }}>{value}</Typography>
          </Paper>
        ))}
      </Box>
      {visibleOrders.length > 0 && (
        <>
          <Typography variant="h6" component="h2" sx={{ fontSize: 18, mb: 1 }}>
            {t('overview.orders')}
          </Typography>
          {error && (
            <Alert severity="error" role="alert" sx={{ mb: 2 }}>
              {error}
            </Alert>
          )}
          {visibleOrders.map((o) => (
            <OrderCard
              key={o.id}
              order={o}
              iban={deposit.iban}
              beneficiary={deposit.beneficiary}
              onReceipt={() => void openReceipt(o.id)}
            >
              {o.state === 'awaiting_payment' &&
                o.mine &&
                providers
                  .filter((p): p is 'mollie' | 'stripe' => p !== 'bank')
                  .map((p) => (
                    <Button key={p} size="small" variant="contained" onClick={() => pay(o.id, p)}>
                      {t('order.payWith', { provider: p === 'mollie' ? 'Mollie (Bancontact)' : 'Stripe' })}
                    </Button>
                  ))}
            </OrderCard>
          ))}
        </>
      )}
      <Typography variant="h6" component="h2" sx={{ fontSize: 18, mt: 2, mb: 1 }}>
        {t('entries.title')}
      </Typography>
      <EntriesTable deposit={deposit} />
      {ranking.data?.started && (
        <>
          <Typography variant="h6" component="h2" sx={{ fontSize: 18, mt: 3, mb: 1 }}>
            {t('ranking.title')}
          </Typography>
          <Typography sx={{ mb: 1 }}>
            {ranking.data.teamTimeMs === null
              ? t('ranking.incomplete', { count: ranking.data.minTeamSize })
              : t('ranking.team', {
                  count: ranking.data.minTeamSize,
                  time: formatDuration(ranking.data.teamTimeMs),
                })}
          </Typography>
          <Table size="small" aria-label={t('ranking.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('entries.bib')}</TableCell>
                <TableCell>{t('entries.name')}</TableCell>
                <TableCell>{t('entries.race')}</TableCell>
                <TableCell align="right">{t('ranking.time')}</TableCell>
                <TableCell align="right">{t('ranking.rank')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {ranking.data.members.map((m) => (
                <TableRow key={m.bib}>
                  <TableCell>{m.bib}</TableCell>
                  <TableCell>{m.name}</TableCell>
                  <TableCell>{m.raceName}</TableCell>
                  <TableCell align="right">{m.timeMs === null ? '—' : formatDuration(m.timeMs)}</TableCell>
                  <TableCell align="right">{m.rank ?? '—'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
    </>
  );
}
