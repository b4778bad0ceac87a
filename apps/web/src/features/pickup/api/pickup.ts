import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  PickupConflict,
  PickupDashboard,
  PickupList,
  PickupOp,
  PickupOpAnswer,
  PickupRunner,
} from '@tempora/contracts';
import { apiGet, apiPost } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/download.ts';

export type { PickupConflict, PickupDashboard, PickupList, PickupOp, PickupOpAnswer, PickupRunner };

const enc = encodeURIComponent;
const base = (eventId: string) => `pickup/events/${enc(eventId)}`;

export const pickupKeys = {
  conflicts: (eventId: string) => ['pickup', eventId, 'conflicts'] as const,
  dashboard: (eventId: string) => ['pickup', eventId, 'dashboard'] as const,
};

/** The event's pickup list (kept on the phone by `usePickup`). */
export const getPickupList = (eventId: string) => apiGet<PickupList>('apiUrlBase', `${base(eventId)}/list`);

/** The runner of a scanned entry code. */
export const getPickupCard = (eventId: string, code: string) =>
  apiGet<PickupRunner>('apiUrlBase', `${base(eventId)}/entries/${enc(code)}`);

/** Sends operations (each once by its id); their answers in order. */
export const postPickupOps = (eventId: string, ops: PickupOp[]) =>
  apiPost<{ answers: PickupOpAnswer[] }>('apiUrlBase', `${base(eventId)}/ops`, { ops });

export function useConflicts(eventId: string, online: boolean) {
  return useQuery({
    queryKey: pickupKeys.conflicts(eventId),
    queryFn: () => apiGet<PickupConflict[]>('apiUrlBase', `${base(eventId)}/conflicts`),
    enabled: online,
    refetchInterval: online ? 10_000 : false,
  });
}

/** Resolves a conflict: keeps the first or the second handout (the other undone). */
export function useResolveConflict(eventId: string, onResolved?: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, keep }: { id: string; keep: 'first' | 'second' }) =>
      apiPost<PickupConflict>('apiUrlBase', `${base(eventId)}/conflicts/${enc(id)}/resolve`, { keep }),
    onSuccess: () => {
      onResolved?.();
      void client.invalidateQueries({ queryKey: pickupKeys.conflicts(eventId) });
      void client.invalidateQueries({ queryKey: pickupKeys.dashboard(eventId) });
    },
  });
}

export function usePickupDashboard(eventId: string) {
  return useQuery({
    queryKey: pickupKeys.dashboard(eventId),
    queryFn: () => apiGet<PickupDashboard>('apiUrlBase', `${base(eventId)}/dashboard`),
    refetchInterval: 15_000,
  });
}

export function useMarkDns(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (raceId: string) =>
      apiPost<{ marked: number }>('apiUrlBase', `${base(eventId)}/dns`, { raceId }),
    onSuccess: () => client.invalidateQueries({ queryKey: pickupKeys.dashboard(eventId) }),
  });
}

/** The paper list (the one download helper), in the event's language. */
export function downloadPickupPdf(eventId: string, q: { order: 'bib' | 'name'; from?: string; to?: string }) {
  const params = new URLSearchParams({ order: q.order });
  if (q.from) params.set(q.order === 'bib' ? 'from' : 'fromName', q.from);
  if (q.to) params.set(q.order === 'bib' ? 'to' : 'toName', q.to);
  return downloadFile('apiUrlBase', `${base(eventId)}/list.pdf?${params}`, {
    fallback: `pickup-${eventId}.pdf`,
  });
}
