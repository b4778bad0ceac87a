import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EventSummary } from '@tempora/contracts';
import { apiGet } from '../../../lib/api-client.ts';

/** `GET events`: the events to pick from on the tracking search. */
export const trackingEventsQuery = () =>
  queryOptions({
    queryKey: ['events', 'tracking'] as const,
    queryFn: ({ signal }) => apiGet<EventSummary[]>('eventsApiUrlBase', 'events', { signal }),
  });

/** The events to pick from (`enabled`: false once an event is chosen). */
export function useTrackingEvents(enabled = true) {
  return useQuery({ ...trackingEventsQuery(), enabled });
}
