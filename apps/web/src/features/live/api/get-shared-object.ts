import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SharedObject } from '@tempora/contracts';
import { apiGet } from '../../../lib/api-client.ts';
import { useLiveRefetch } from '../api.ts';

/** `GET objects/{token}`: a team or an athlete behind an opaque share token (issue 7). */
export const sharedObjectQuery = (token: string) =>
  queryOptions({
    queryKey: ['object', token] as const,
    queryFn: ({ signal }) =>
      apiGet<SharedObject>('trackingApiUrlBase', `objects/${encodeURIComponent(token)}`, { signal }),
  });

/** A shared object, live on its context's changes once it has named its context. */
export function useSharedObject(token: string) {
  const options = sharedObjectQuery(token);
  const query = useQuery(options);
  const db = query.data ? (query.data.kind === 'team' ? query.data.db : query.data.card.db) : null;
  useLiveRefetch(db, options.queryKey, undefined, 1000);
  return query;
}
