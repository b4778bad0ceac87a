import { useQuery } from '@tanstack/react-query';
import type { Verification } from '@tempora/contracts';
import { apiGet } from '../../../lib/api-client.ts';

/** A certificate's verification (404 `CERTIFICATE_INVALID` when the token is not genuine). */
export function useVerification(token: string) {
  return useQuery({
    queryKey: ['verify', token],
    enabled: !!token,
    retry: false,
    queryFn: ({ signal }) =>
      apiGet<Verification>('apiUrlBase', `verify/${encodeURIComponent(token)}`, { signal, anonymous: true }),
  });
}
