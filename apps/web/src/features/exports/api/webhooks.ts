import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Webhook,
  WebhookCreate,
  WebhookCreated,
  WebhookDelivery,
  WebhookQueued,
} from '@tempora/contracts';
import { apiGet, apiPost, apiRequest } from '../../../lib/api-client.ts';

const enc = encodeURIComponent;
const listKey = (eventId: string) => ['webhooks', eventId];

export function useWebhooks(eventId: string) {
  return useQuery({
    queryKey: listKey(eventId),
    enabled: !!eventId,
    queryFn: ({ signal }) => apiGet<Webhook[]>('apiUrlBase', `webhooks/events/${enc(eventId)}`, { signal }),
  });
}

export function useCreateWebhook(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: WebhookCreate) =>
      apiPost<WebhookCreated>('apiUrlBase', `webhooks/events/${enc(eventId)}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: listKey(eventId) }),
  });
}

export function useUpdateWebhook(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...patch }: { id: string; active?: boolean }) =>
      apiRequest<Webhook>('apiUrlBase', `webhooks/${enc(id)}`, { method: 'PATCH', body: patch }),
    onSuccess: () => client.invalidateQueries({ queryKey: listKey(eventId) }),
  });
}

export function useDeleteWebhook(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>('apiUrlBase', `webhooks/${enc(id)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: listKey(eventId) }),
  });
}

/** The delivery log of a webhook, refreshed every 5 s while shown. */
export function useDeliveries(id: string | null) {
  return useQuery({
    queryKey: ['webhooks', 'deliveries', id],
    enabled: !!id,
    refetchInterval: 5_000,
    queryFn: ({ signal }) =>
      apiGet<WebhookDelivery[]>('apiUrlBase', `webhooks/${enc(id!)}/deliveries?limit=50`, { signal }),
  });
}

export function useWebhookAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, deliveryId }: { id: string; deliveryId?: number }) =>
      apiPost<WebhookQueued>(
        'apiUrlBase',
        deliveryId ? `webhooks/${enc(id)}/deliveries/${deliveryId}/replay` : `webhooks/${enc(id)}/test`,
      ),
    onSuccess: (_r, { id }) =>
      setTimeout(() => void client.invalidateQueries({ queryKey: ['webhooks', 'deliveries', id] }), 1_500),
  });
}
