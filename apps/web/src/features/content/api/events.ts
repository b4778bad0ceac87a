import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EventDetail, EventPatch, EventSummary } from '@tempora/contracts';
import { apiGet, apiRequest } from '../../../lib/api-client.ts';

const enc = encodeURIComponent;

/** `GET events?q=`: the events matching a search (name, place, ISO date). */
export const eventsQuery = (q: string) =>
  queryOptions({
    queryKey: ['content', 'events', q] as const,
    queryFn: ({ signal }) =>
      apiGet<EventSummary[]>('eventsApiUrlBase', `events${q ? `?q=${enc(q)}` : ''}`, { signal }),
    placeholderData: (previous) => previous,
  });

/** `GET events/{id}`: one event with its contexts and races. */
export const eventQuery = (eventId: string) =>
  queryOptions({
    queryKey: ['content', 'event', eventId] as const,
    queryFn: ({ signal }) => apiGet<EventDetail>('eventsApiUrlBase', `events/${enc(eventId)}`, { signal }),
  });

/** The event of a page. */
export function useEvent(eventId: string) {
  return useQuery(eventQuery(eventId));
}

/** `PATCH events/{id}` (organiser). */
export function patchEvent(eventId: string, patch: EventPatch) {
  return apiRequest<EventDetail>('eventsApiUrlBase', `events/${enc(eventId)}`, {
    method: 'PATCH',
    body: patch,
  });
}
