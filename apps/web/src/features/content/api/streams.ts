import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Stream, StreamInput } from '@tempora/contracts';
import { apiGet, apiPost, apiRequest } from '../../../lib/api-client.ts';

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

const enc = encodeURIComponent;

/** Organiser: create, replace, delete a stream of the event. */
export const streamsApi = {
  create: (eventId: string, input: StreamInput) =>
    apiPost<Stream>('eventsApiUrlBase', `events/${enc(eventId)}/streams`, input),
  update: (eventId: string, streamId: string, input: StreamInput) =>
    apiRequest<Stream>('eventsApiUrlBase', `events/${enc(eventId)}/streams/${enc(streamId)}`, {
      method: 'PUT',
      body: input,
    }),
  remove: (eventId: string, streamId: string) =>
    apiRequest<void>('eventsApiUrlBase', `events/${enc(eventId)}/streams/${enc(streamId)}`, {
      method: 'DELETE',
    }),
};
