import { useQuery } from '@tanstack/react-query';
import type { PublicRunner } from '@tempora/contracts';
import { apiGet } from '../../../lib/api-client.ts';

/** A runner's public page (opt-in), by its short link's slug. */
export function usePublicRunner(slug: string) {
  return useQuery({
    queryKey: ['runner', 'public', slug],
    enabled: !!slug,
    queryFn: ({ signal }) =>
      apiGet<PublicRunner>('apiUrlBase', `runners/${encodeURIComponent(slug)}`, { signal, anonymous: true }),
  });
}
