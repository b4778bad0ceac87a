import { Box, Button, Paper, Stack, Switch, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import {
  useDeleteWebhook,
  useUpdateWebhook,
  useWebhookAction,
  useWebhooks,
} from '../../../features/exports/api/webhooks.ts';
import { WebhookDeliveries } from '../../../features/exports/components/webhook-deliveries.tsx';
import { WebhookForm } from '../../../features/exports/components/webhook-form.tsx';

/** `/console/events/{eventId}/webhooks`: webhook endpoints, their deliveries, test and replay. */
export default function WebhooksPage() {
  const { eventId = '' } = useParams();
  const { t } = useTranslation('exports');
  const hooks = useWebhooks(eventId);
  const update = useUpdateWebhook(eventId);
  const remove = useDeleteWebhook(eventId);
  const action = useWebhookAction();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <Typography variant="h5" component="h2" sx={{ mb: 2 }}>
        {t('webhooks.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('webhooks.help')}
      </Typography>
      <WebhookForm eventId={eventId} />
      {hooks.isPending && <PageLoading />}
      {hooks.isError && <PageError error={hooks.error} />}
      <Stack spacing={2}>
        {hooks.data?.map((hook) => (
          <Paper key={hook.id} variant="outlined" sx={{ p: 2 }}>
            <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <Box sx={{ flex: '1 1 280px', minWidth: 0 }}>
                <Typography sx={{ wordBreak: 'break-all', fontWeight: 600 }}>{hook.url}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {hook.types.map((type) => t(`webhooks.typeNames.${type}`)).join(' · ')}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {t('webhooks.counts', hook.counts)}
                </Typography>
              </Box>
              <Switch
                checked={hook.active}
                onChange={(e) => update.mutate({ id: hook.id, active: e.target.checked })}
                slotProps={{ input: { 'aria-label': t('webhooks.active') } }}
              />
              <Button size="small" onClick={() => action.mutate({ id: hook.id })}>
                {t('webhooks.test')}
              </Button>
              <Button size="small" onClick={() => setOpen(open === hook.id ? null : hook.id)}>
                {open === hook.id ? t('webhooks.hideLog') : t('webhooks.showLog')}
              </Button>
              <Button size="small" color="error" onClick={() => remove.mutate(hook.id)}>
                {t('webhooks.delete')}
              </Button>
            </Stack>
            {open === hook.id && (
              <Box sx={{ mt: 1, overflowX: 'auto' }}>
                <WebhookDeliveries webhookId={hook.id} />
              </Box>
            )}
          </Paper>
        ))}
      </Stack>
    </>
  );
}
