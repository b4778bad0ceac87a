import { Button, Chip, Typography } from '@mui/material';
import type { WebhookDelivery } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/data-table.tsx';
import { formatDateTime } from '../../../lib/money.ts';
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
  const columns: DataTableColumn<WebhookDelivery>[] = [
    {
      key: 'when',
      header: t('webhooks.when'),
      cell: (d) => formatDateTime(d.createdAt, i18n.language),
    },
    { key: 'type', header: t('webhooks.type'), cell: (d) => d.type },
    {
      key: 'state',
      header: t('webhooks.state'),
      cell: (d) => (
        <Chip
          size="small"
          label={t(`webhooks.states.${d.state}`)}
          color={d.state === 'delivered' ? 'success' : d.state === 'failed' ? 'error' : 'default'}
        />
      ),
    },
    { key: 'attempts', header: t('webhooks.attempts'), cell: (d) => d.attempts, align: 'right' },
    {
      key: 'answers',
      header: t('webhooks.answers'),
      cell: (d) => d.log.map((a) => a.status ?? a.error ?? '—').join(', '),
    },
    {
      key: 'replay',
      header: null,
      cell: (d) => (
        <Button size="small" onClick={() => action.mutate({ id: webhookId, deliveryId: d.id })}>
          {t('webhooks.replay')}
        </Button>
      ),
    },
  ];
  return (
    <DataTable label={t('webhooks.log')} columns={columns} rows={deliveries.data} getRowKey={(d) => d.id} />
  );
}
