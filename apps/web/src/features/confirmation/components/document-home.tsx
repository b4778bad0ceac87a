import { Alert, Box, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import type { DocumentDetail } from '@tempora/contracts';
import { formatDay } from '@tempora/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { AuditList } from '../../../components/audit-list.tsx';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { paths } from '../../../config/paths.ts';
import { downloadFile } from '../../../lib/download.ts';
import { confirmationApi, useDocumentOrder, useRefreshDocument } from '../api/documents.ts';
import { formatFees } from './status-chip.tsx';

/** `document/{id}/home`: the document's summary, its next step, rejection and closing, and its history. */
export function DocumentHome({ document: d }: { document: DocumentDetail }) {
  const { t, i18n } = useTranslation('confirmation');
  const refresh = useRefreshDocument(d.id);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const run = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
      refresh();
    } catch (err) {
      setError(t('errors.generic', { message: (err as Error).message }));
    }
  };
  const billed = d.status === 'confirmed' || d.status === 'closed';
  const order = useDocumentOrder(d.id, billed).data;
  const c = d.counts;
  const figures: [string, string | number][] = [
    [t('counts.rows'), c.rows],
    [t('counts.confirmed'), c.confirmed],
    [t('counts.toFix'), c.toFix],
    [t('counts.toReview'), c.toReview],
    [t('counts.clean'), c.clean],
    [t('counts.rejected'), c.rejected],
    [t('counts.fees'), formatFees(d.feesCents, i18n.language)],
  ];
  const canReject =
    ['uploaded', 'mapped', 'validated', 'partlyConfirmed'].includes(d.status) && c.confirmed === 0;
  const next =
    d.version === 0 || d.status === 'uploaded'
      ? (['goImport', 'import'] as const)
      : c.pending > 0
        ? (['goEdit', 'edit'] as const)
        : (['goReport', 'report'] as const);
  return (
    <Stack spacing={2}>
      {error && <Alert severity="error">{error}</Alert>}
      {d.rejectReason && d.status === 'rejected' && (
        <Alert severity="warning">{t('document.rejectedBecause', { reason: d.rejectReason })}</Alert>
      )}
      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
        <Box
          component="dl"
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
            columnGap: 2,
            rowGap: 0.5,
            m: 0,
          }}
        >
          <Typography component="dt" color="text.secondary">
            {t('document.sender')}
          </Typography>
          <Typography component="dd" sx={{ m: 0 }}>
            {d.senderName} · {t(`senderKind.${d.senderKind}`)}
          </Typography>
          <Typography component="dt" color="text.secondary">
            {t('document.contact')}
          </Typography>
          <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {d.contactName} {d.contactEmail}
          </Typography>
          <Typography component="dt" color="text.secondary">
            {t('document.version', { version: d.version })}
          </Typography>
          <Typography component="dd" sx={{ m: 0 }}>
            {t('document.received', { date: formatDay(d.receivedOn, i18n.language) })}
          </Typography>
        </Box>
        <Box
          component="dl"
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(7, 1fr)' },
            gap: 1,
            mt: 2,
            mb: 0,
          }}
        >
          {figures.map(([label, value]) => (
            <Box key={label} sx={{ p: 1, bgcolor: 'action.hover', borderRadius: 1 }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {label}
              </Typography>
              <Typography component="dd" sx={{ m: 0, fontSize: 22, fontWeight: 600 }}>
                {value}
              </Typography>
            </Box>
          ))}
        </Box>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mt: 2 }}>
          <Button variant="contained" component={RouterLink} to={paths.confirmationDocument(d.id, next[1])}>
            {t(`document.${next[0]}`)}
          </Button>
          {c.clean > 0 && ['validated', 'partlyConfirmed'].includes(d.status) && (
            <Button
              variant="outlined"
              color="success"
              onClick={() => run(() => confirmationApi.confirm(d.id))}
            >
              {t('document.confirmClean', { count: c.clean })}
            </Button>
          )}
          {d.status === 'confirmed' && (
            <Button variant="outlined" onClick={() => run(() => confirmationApi.close(d.id))}>
              {t('document.close')}
            </Button>
          )}
          {canReject && (
            <Button variant="outlined" color="error" onClick={() => setRejecting(true)}>
              {t('document.reject')}
            </Button>
          )}
        </Stack>
      </Paper>
      {order && (
        <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }} data-testid="document-order">
          <Typography component="h2" variant="h6">
            {t('document.order')}
          </Typography>
          <Typography>
            {t('document.orderLine', {
              id: order.orderId,
              invoice: order.invoiceNumber,
              amount: formatFees(order.amountCents, i18n.language),
            })}{' '}
            — {t(`document.orderState.${order.state}`)}
          </Typography>
          {order.state === 'awaiting_payment' && (
            <Typography color="text.secondary">
              {t('document.orderCommunication', { communication: order.communication })}
            </Typography>
          )}
          <Button
            variant="outlined"
            sx={{ mt: 1 }}
            onClick={() =>
              run(() =>
                downloadFile('apiUrlBase', `payments/orders/${order.orderId}/invoice.pdf`, {
                  fileName: `invoice-${order.invoiceNumber}.pdf`,
                }),
              )
            }
          >
            {t('document.invoice')}
          </Button>
        </Paper>
      )}
      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
        <Typography component="h2" variant="h6">
          {t('document.history')}
        </Typography>
        <AuditList
          label={t('document.history')}
          empty={t('document.noHistory')}
          items={d.history.map((h) => ({
            id: h.id,
            at: h.at,
            actor: h.actorEmail || t('document.system'),
            action: t(`actions.${h.action}`, { ...h.detail, defaultValue: h.action }),
          }))}
        />
      </Paper>
      <FormDialog
        open={rejecting}
        title={t('document.reject')}
        onClose={() => setRejecting(false)}
        onSubmit={() =>
          run(async () => {
            await confirmationApi.reject(d.id, reason.trim());
            setRejecting(false);
          })
        }
        submitDisabled={!reason.trim()}
        submitLabel={t('document.rejectConfirm')}
        submitColor="error"
        cancelLabel={t('create.cancel')}
      >
        <TextField
          autoFocus
          required
          multiline
          minRows={3}
          fullWidth
          label={t('document.rejectReason')}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </FormDialog>
    </Stack>
  );
}
