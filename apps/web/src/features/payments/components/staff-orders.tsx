import {
  Box,
  Button,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../lib/money.ts';
import { download, useStaffOrders } from '../api/payments.ts';

/** All orders of an event, and the accountant's CSV / XLSX export. */
export function StaffOrders({ eventId }: { eventId: string }) {
  const { t, i18n } = useTranslation('payments');
  const orders = useStaffOrders(eventId);
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
        <TableContainer>
          <Table size="small" aria-label={t('staff.tabs.orders')}>
            <TableHead>
              <TableRow>
                <TableCell>#</TableCell>
                <TableCell>{t('staff.team')}</TableCell>
                <TableCell>{t('staff.payer')}</TableCell>
                <TableCell>{t('staff.communication')}</TableCell>
                <TableCell>{t('staff.state')}</TableCell>
                <TableCell align="right">{t('staff.amount')}</TableCell>
                <TableCell align="right">{t('staff.paid')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {orders.data.map((o) => (
                <TableRow key={o.id} data-testid={`staff-order-${o.id}`}>
                  <TableCell>{o.id}</TableCell>
                  <TableCell>{o.organisationName}</TableCell>
                  <TableCell>{o.payerName}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
                    {o.communication}
                  </TableCell>
                  <TableCell>{t(`states.${o.state}`)}</TableCell>
                  <TableCell align="right">{formatMoney(o.amountCents, o.currency, i18n.language)}</TableCell>
                  <TableCell align="right">{formatMoney(o.paidCents, o.currency, i18n.language)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : (
        <Typography color="text.secondary">{t('staff.noOrders')}</Typography>
      )}
    </>
  );
}
