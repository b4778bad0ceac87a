import { Box, Button, Typography } from '@mui/material';
import type { OrderDetail } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/data-table.tsx';
import { formatMoney } from '../../../lib/money.ts';
import { download, useStaffOrders } from '../api/payments.ts';
import { OrderDocuments } from './order-documents.tsx';

/** All orders of an event, and the accountant's CSV / XLSX export. */
export function StaffOrders({ eventId }: { eventId: string }) {
  const { t, i18n } = useTranslation('payments');
  const orders = useStaffOrders(eventId);
  const money = (cents: number, o: OrderDetail) => formatMoney(cents, o.currency, i18n.language);
  const columns: DataTableColumn<OrderDetail>[] = [
    { key: 'id', header: '#', cell: (o) => o.id },
    { key: 'team', header: t('staff.team'), cell: (o) => o.organisationName },
    { key: 'payer', header: t('staff.payer'), cell: (o) => o.payerName },
    // Before the long columns: on a phone the invoice and credit notes show without scrolling.
    { key: 'documents', header: t('staff.documents'), cell: (o) => <OrderDocuments order={o} /> },
    {
      key: 'communication',
      header: t('staff.communication'),
      cellSx: () => ({ fontFamily: 'monospace', whiteSpace: 'nowrap' }),
      cell: (o) => o.communication,
    },
    { key: 'state', header: t('staff.state'), cell: (o) => t(`states.${o.state}`) },
    { key: 'amount', header: t('staff.amount'), align: 'right', cell: (o) => money(o.amountCents, o) },
    { key: 'paid', header: t('staff.paid'), align: 'right', cell: (o) => money(o.paidCents, o) },
  ];
  return (
    <>
      <Box sx={{ display: 'flex', gap: 1, mb: 1, flexWrap: 'wrap' }}>
        <Button
          variant="outlined"
          onClick={() =>
            void download(
              `payments/staff/events/${encodeURIComponent(eventId)}/export.csv?lng=${i18n.language === 'fr' ? 'fr' : 'en'}`,
              `payments-${eventId}.csv`,
            )
          }
        >
          {t('staff.exportCsv')}
        </Button>
        <Button
          variant="outlined"
          onClick={() =>
            void download(
              `payments/staff/events/${encodeURIComponent(eventId)}/export.xlsx`,
              `payments-${eventId}.xlsx`,
            )
          }
        >
          {t('staff.exportXlsx')}
        </Button>
      </Box>
      {orders.data?.length ? (
        <DataTable
          label={t('staff.tabs.orders')}
          columns={columns}
          rows={orders.data}
          getRowKey={(o) => o.id}
          getRowProps={(o) => ({ 'data-testid': `staff-order-${o.id}` })}
        />
      ) : (
        <Typography color="text.secondary">{t('staff.noOrders')}</Typography>
      )}
    </>
  );
}
