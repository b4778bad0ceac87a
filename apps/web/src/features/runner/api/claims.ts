import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ClaimCreated, ClaimSuggestion } from '@tempora/contracts';
import { apiGet, apiRequest } from '../../../lib/api-client.ts';
import { myResultsKey } from './my-results.ts';

const enc = encodeURIComponent;
export const suggestionsKey = ['runner', 'claims', 'suggestions'] as const;

/** Results that may be mine (same name and birth year, no account yet). */
export function useClaimSuggestions() {
  return useQuery({
    queryKey: suggestionsKey,
    queryFn: ({ signal }) => apiGet<ClaimSuggestion[]>('apiUrlBase', 'me/claims/suggestions', { signal }),
  });
}

/** Opens a claim: a code to the entry's e-mail, or a request to the organiser. */
export function useOpenClaim() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (participantId: string) =>
      apiRequest<ClaimCreated>('apiUrlBase', 'me/claims', { method: 'POST', body: { participantId } }),
    onSettled: () => client.invalidateQueries({ queryKey: suggestionsKey }),
  });
}

/** Proves a claim by the code mailed: the result becomes mine. */
export function useConfirmClaim() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ claimId, code }: { claimId: string; code: string }) =>
      apiRequest<void>('apiUrlBase', `me/claims/${enc(claimId)}/confirm`, { method: 'POST', body: { code } }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: suggestionsKey });
      void client.invalidateQueries({ queryKey: myResultsKey });
    },
  });
}
