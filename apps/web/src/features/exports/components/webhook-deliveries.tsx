import { Button, Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useDeliveries, useWebhookAction } from '../api/webhooks.ts';

/** A webhook's delivery log: type, state, attempts and answer codes; replay any of them. */
export function WebhookDeliveries({ webhookId }: { webhookId: string }) {
  const { t, i18n } = useTranslation('exports');
  const deliveries = useDeliveries(webhookId);
  const action = useWebhookAction();
  if (!deliveries.data) return null;
  if (!deliveries.data.length)
    return (
      <Typography variant="body2" color="text.secondary" sx={{ p: 1 }}>
        {t('webhooks.noDeliveries')}
      </Typography>
    );
  return (
    <Table size="small" aria-label={t('webhooks.log')}>
      <TableHead>
        <TableRow>
          <TableCell>{t('webhooks.when')}</TableCell>
          <TableCell>{t('webhooks.type')}</TableCell>
          <TableCell>{t('webhooks.state')}</TableCell>
          <TableCell align="right">{t('webhooks.attempts')}</TableCell>
          <TableCell>{t('webhooks.answers')}</TableCell>
          <TableCell />
        </TableRow>
      </TableHead>
      <TableBody>
        {deliveries.data.map((d) => (
          <TableRow key={d.id}>
            <TableCell>{new Date(d.createdAt).toLocaleString(i18n.language)}</TableCell>
            <TableCell>{d.type}</TableCell>
            <TableCell>
              <Chip
                size="small"
                label={t(`webhooks.states.${d.state}`)}
                color={d.state === 'delivered' ? 'success' : d.state === 'failed' ? 'error' : 'default'}
              />
            </TableCell>
            <TableCell align="right">{d.attempts}</TableCell>
            <TableCell>{d.log.map((a) => a.status ?? a.error ?? '—').join(', ')}</TableCell>
            <TableCell>
              <Button size="small" onClick={() => action.mutate({ id: webhookId, deliveryId: d.id })}>
                {t('webhooks.replay')}
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
