import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrganiserClaim } from '@tempora/contracts';
import { apiGet, apiRequest } from '../../../lib/api-client.ts';

const enc = encodeURIComponent;
const key = (eventId: string) => ['runner', 'organiser-claims', eventId];

/** Claims on entries without an e-mail, waiting for the organiser (issue 40). */
export function useOrganiserClaims(eventId: string) {
  return useQuery({
    queryKey: key(eventId),
    enabled: !!eventId,
    queryFn: ({ signal }) =>
      apiGet<OrganiserClaim[]>('apiUrlBase', `console/events/${enc(eventId)}/claims`, { signal }),
  });
}

export function useDecideClaim(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ claimId, approve }: { claimId: string; approve: boolean }) =>
      apiRequest<void>('apiUrlBase', `console/events/${enc(eventId)}/claims/${enc(claimId)}/decision`, {
        method: 'POST',
        body: { approve },
      }),
    onSettled: () => client.invalidateQueries({ queryKey: key(eventId) }),
  });
}
