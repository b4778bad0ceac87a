import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Stream } from '@tempora/contracts';
import { apiGet } from '../../../lib/api-client.ts';

/** `GET events/{id}/streams`: the streams, the current one flagged. Refreshed every minute. */
export const streamsQuery = (eventId: string) =>
  queryOptions({
    queryKey: ['content', 'streams', eventId] as const,
    queryFn: ({ signal }) =>
      apiGet<Stream[]>('eventsApiUrlBase', `events/${encodeURIComponent(eventId)}/streams`, { signal }),
    refetchInterval: 60_000,
  });

export function useStreams(eventId: string) {
  return useQuery(streamsQuery(eventId));
}
