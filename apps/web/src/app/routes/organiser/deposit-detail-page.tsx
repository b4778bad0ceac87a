import { Box, Button, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { useDeposit } from '../../../features/deposits/api/deposits.ts';
import { openReceipt } from '../../../features/deposits/api/orders.ts';
import { DepositTabs } from '../../../features/deposits/components/deposit-tabs.tsx';
import { EntriesTable } from '../../../features/deposits/components/entries-table.tsx';
import { OrderCard } from '../../../features/deposits/components/order-card.tsx';
import { StateChip } from '../../../features/deposits/components/state-chip.tsx';
import { formatDateTime } from '../../../lib/money.ts';

/**
 * `/deposit/{event}/{id}d`: the read-only detail of deposit `{id}` and its receipts (spec §2's
 * "variant whose id is followed by the letter d"). React Router cannot mix a parameter and a
 * literal in one segment, so the route is `:id` and this page branches on the trailing `d`;
 * without it, the deposit's overview is the natural destination.
 */
export default function DepositDetailPage() {
  const { id = '' } = useParams();
  if (!id.endsWith('d') || id.length < 2) return <Navigate to="overview" relative="path" replace />;
  return <DepositDetail id={id.slice(0, -1)} />;
}

function DepositDetail({ id }: { id: string }) {
  const { t, i18n } = useTranslation('deposits');
  const { event = '' } = useParams();
  const deposit = useDeposit(id);
  if (deposit.isPending) return <PageLoading />;
  if (deposit.isError) return <PageError error={deposit.error} />;
  const d = deposit.data;
  const rows: [string, string][] = [
    [t('detail.team'), d.organisationName],
    [t('create.vat'), d.vat ?? '—'],
    [t('create.type'), t(`create.types.${d.type}`)],
    [t('create.payer'), t(`create.payers.${d.payerMode}`)],
    [t('detail.captain'), d.captainName],
    [t('create.minTeamSize'), String(d.minTeamSize)],
    [t('detail.created'), formatDateTime(d.createdAt, i18n.language)],
    [t('detail.submitted'), d.submittedAt ? formatDateTime(d.submittedAt, i18n.language) : '—'],
  ];
  return (
    <>
      <DepositTabs eventId={event} id={id} current="detail" />
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 1 }}>
          <Typography variant="h6" component="h2" sx={{ fontSize: 18 }}>
            {t('detail.title', { id })}
          </Typography>
          <StateChip kind="deposit" state={d.state} />
        </Box>
        <Box
          component="dl"
          sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}
        >
          {rows.map(([k, v]) => (
            <Box key={k} sx={{ display: 'contents' }}>
              <Typography component="dt" color="text.secondary">
                {k}
              </Typography>
              <Typography component="dd" sx={{ m: 0 }}>
                {v}
              </Typography>
            </Box>
          ))}
        </Box>
      </Paper>
      {d.orders
        .filter((o) => d.role !== 'member' || o.mine)
        .map((o) => (
          <OrderCard
            key={o.id}
            order={o}
            iban={d.iban}
            beneficiary={d.beneficiary}
            onReceipt={() => void openReceipt(o.id)}
          />
        ))}
      <EntriesTable deposit={d} />
      <Button sx={{ mt: 2 }} variant="outlined" onClick={() => window.print()}>
        {t('detail.print')}
      </Button>
    </>
  );
}
