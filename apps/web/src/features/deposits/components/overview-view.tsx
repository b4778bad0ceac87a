import { Alert, Box, Button, Paper, Typography } from '@mui/material';
import type { DepositDetail, TeamRanking } from '@tempora/contracts';
import { formatDuration } from '@tempora/domain';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/data-table.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { formatMoney } from '../../../lib/money.ts';
import { useRanking } from '../api/deposits.ts';
import { openReceipt, startPayment, useProviders } from '../api/orders.ts';
import { EntriesTable } from './entries-table.tsx';
import { OrderCard } from './order-card.tsx';
import { StateChip } from './state-chip.tsx';

/** The team ranking's columns: bib, name, race, time and rank. */
const rankingColumns = (t: TFunction<'deposits'>): DataTableColumn<TeamRanking['members'][number]>[] => [
  { key: 'bib', header: t('entries.bib'), cell: (m) => m.bib },
  { key: 'name', header: t('entries.name'), cell: (m) => m.name },
  { key: 'race', header: t('entries.race'), cell: (m) => m.raceName },
  {
    key: 'time',
    header: t('ranking.time'),
    align: 'right',
    cell: (m) => (m.timeMs === null ? '—' : formatDuration(m.timeMs)),
  },
  { key: 'rank', header: t('ranking.rank'), align: 'right', cell: (m) => m.rank ?? '—' },
];

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
          <DataTable
            label={t('ranking.title')}
            columns={rankingColumns(t)}
            rows={ranking.data.members}
            getRowKey={(m) => m.bib}
          />
        </>
      )}
    </>
  );
}
