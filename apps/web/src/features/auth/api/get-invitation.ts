import { useQuery } from '@tanstack/react-query';
import type { InvitationPreview } from '@tempora/contracts';
import { apiGet } from '../../../lib/api-client.ts';

/**
 * An invitation as its link shows it to anyone holding it (the token is the secret the invitee
 * received), signed in or not: the organisation, the role, the invited address (issue 43).
 */
export function useInvitationPreview(token: string | null) {
  return useQuery({
    queryKey: ['auth', 'invitation', token] as const,
    enabled: !!token,
    retry: false,
    queryFn: ({ signal }) =>
      apiGet<InvitationPreview>('apiUrlBase', `console/invitations/${encodeURIComponent(token ?? '')}`, {
        signal,
        anonymous: true,
      }),
  });
}
