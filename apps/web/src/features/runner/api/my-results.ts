import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MyResults } from '@tempora/contracts';
import { apiGet, apiRequest, apiUrl } from '../../../lib/api-client.ts';

const enc = encodeURIComponent;
/** The query key of my results (the runner's space, issue 40). */
export const myResultsKey = ['runner', 'results'] as const;

/** My results across events and organisations, with my privacy choices. */
export function myResultsQuery() {
  return {
    queryKey: myResultsKey,
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      apiGet<MyResults>('apiUrlBase', 'me/results', { signal }),
  };
}

export function useMyResults() {
  return useQuery(myResultsQuery());
}

/** Hides or shows my name on one result ("Hidden runner" in every public view). */
export function useSetResultPrivacy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ participantId, hidden }: { participantId: string; hidden: boolean }) =>
      apiRequest<void>('apiUrlBase', `me/results/${enc(participantId)}/privacy`, {
        method: 'PUT',
        body: { hidden },
      }),
    onSettled: () => client.invalidateQueries({ queryKey: myResultsKey }),
  });
}

/** Hides or shows my name on every result of mine, and on those linked later. */
export function useSetHideAll() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (hideAll: boolean) =>
      apiRequest<void>('apiUrlBase', 'me/privacy', { method: 'PUT', body: { hideAll } }),
    onSettled: () => client.invalidateQueries({ queryKey: myResultsKey }),
  });
}

/** Turns my public runner page on or off; answers its short link's slug (null when off). */
export function useSetPublicPage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) =>
      apiRequest<{ publicSlug: string | null }>('apiUrlBase', 'me/public-page', {
        method: 'PUT',
        body: { enabled },
      }),
    onSettled: () => client.invalidateQueries({ queryKey: myResultsKey }),
  });
}

/** A result's certificate (PDF), by its tracking key, in `lng`. */
export function certificateLink(trackingKey: string, lng: 'en' | 'fr'): string {
  return apiUrl('apiUrlBase', `certificates/${enc(trackingKey)}?lng=${lng}`);
}
