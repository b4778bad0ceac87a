import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ErasurePreview, ErasureResult, EventRetention } from '@tempora/contracts';
import { apiGet, apiRequest } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/download.ts';

const enc = encodeURIComponent;

/** "Download my data" (issue 40, GDPR article 15): JSON, or the readable PDF in `lng`. */
export function downloadMyData(kind: 'json' | 'pdf', lng: 'en' | 'fr'): Promise<void> {
  return kind === 'json'
    ? downloadFile('apiUrlBase', 'me/data', { fallback: 'tempora-my-data.json' })
    : downloadFile('apiUrlBase', `me/data.pdf?lng=${lng}`, { fallback: 'tempora-my-data.pdf' });
}

/** What "Delete my account" will do, read when the confirm step opens. */
export function useErasurePreview(enabled: boolean) {
  return useQuery({
    queryKey: ['runner', 'erasure'],
    enabled,
    staleTime: 0,
    gcTime: 0,
    queryFn: ({ signal }) => apiGet<ErasurePreview>('apiUrlBase', 'me/erasure', { signal }),
  });
}

/** Deletes my account (the e-mail typed again); the caller signs out afterwards. */
export function useEraseAccount() {
  return useMutation({
    mutationFn: (confirmEmail: string) =>
      apiRequest<ErasureResult>('apiUrlBase', 'me/erasure', { method: 'POST', body: { confirmEmail } }),
  });
}

const retentionKey = (eventId: string) => ['runner', 'retention', eventId];

/** An event's retention of personal data and its log (console). */
export function useEventRetention(eventId: string) {
  return useQuery({
    queryKey: retentionKey(eventId),
    enabled: !!eventId,
    queryFn: ({ signal }) =>
      apiGet<EventRetention>('apiUrlBase', `console/events/${enc(eventId)}/retention`, { signal }),
  });
}

export function useSetEventRetention(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (retentionDays: number | null) =>
      apiRequest<EventRetention>('apiUrlBase', `console/events/${enc(eventId)}/retention`, {
        method: 'PUT',
        body: { retentionDays },
      }),
    onSuccess: (data) => client.setQueryData(retentionKey(eventId), data),
  });
}
