import { queryOptions, useQuery } from '@tanstack/react-query';
import type {
  ConsoleContext,
  ConsoleEvent,
  ConsoleEventDetail,
  EventCreate,
  EventUpdate,
} from '@tempora/contracts';
import { apiDownload, apiGet, apiPost, apiRequest } from '../../../lib/api-client.ts';

const enc = encodeURIComponent;
const base = 'apiUrlBase' as const;

/** `GET console/organisations/{id}/events`. */
export const orgEventsQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['console', 'organisation', orgId, 'events'] as const,
    queryFn: ({ signal }) =>
      apiGet<ConsoleEvent[]>(base, `console/organisations/${enc(orgId)}/events`, { signal }),
  });
export const useOrgEvents = (orgId: string) => useQuery(orgEventsQuery(orgId));

/** `GET console/events/{id}`: the event with its organisation, contexts and races. */
export const consoleEventQuery = (eventId: string) =>
  queryOptions({
    queryKey: ['console', 'event', eventId] as const,
    queryFn: ({ signal }) => apiGet<ConsoleEventDetail>(base, `console/events/${enc(eventId)}`, { signal }),
  });
export const useConsoleEvent = (eventId: string) => useQuery(consoleEventQuery(eventId));

export const createEvent = (orgId: string, input: EventCreate) =>
  apiPost<ConsoleEventDetail>(base, `console/organisations/${enc(orgId)}/events`, input);

export const updateEvent = (eventId: string, patch: EventUpdate) =>
  apiRequest<ConsoleEventDetail>(base, `console/events/${enc(eventId)}`, { method: 'PATCH', body: patch });

export const deleteEvent = (eventId: string) =>
  apiRequest<void>(base, `console/events/${enc(eventId)}`, { method: 'DELETE' });

/** `PUT console/events/{id}/logo` with the image file as the body. */
export const uploadLogo = (eventId: string, file: File) =>
  apiRequest<ConsoleEventDetail>(base, `console/events/${enc(eventId)}/logo`, {
    method: 'PUT',
    body: file,
    headers: { 'content-type': file.type || 'application/octet-stream' },
  });

/**
 * The event's logo as an object URL, fetched with the bearer header: a draft event's logo is its
 * members' only, so a plain `<img src>` (no credentials) gets 404 until the event is published
 * (issue 29). Keyed by the versioned `logoUrl` (`/api/events/{id}/logo?v=…`, outside the
 * `console` keys the editor invalidates after a save): a new upload is a new query.
 */
export function useEventLogo(eventId: string, logoUrl: string | null) {
  return useQuery({
    queryKey: ['event-logo', eventId, logoUrl] as const,
    enabled: !!logoUrl,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => {
      const version = new URL(logoUrl!, 'http://x').searchParams.get('v') ?? '';
      const { blob } = await apiDownload(base, `events/${enc(eventId)}/logo?v=${enc(version)}`);
      return URL.createObjectURL(blob);
    },
  });
}

export const deleteLogo = (eventId: string) =>
  apiRequest<ConsoleEventDetail>(base, `console/events/${enc(eventId)}/logo`, { method: 'DELETE' });

export const createContext = (eventId: string, input: { db: string; name: string }) =>
  apiPost<ConsoleContext>(base, `console/events/${enc(eventId)}/contexts`, input);

export const renameContext = (db: string, name: string) =>
  apiRequest<ConsoleContext>(base, `console/contexts/${enc(db)}`, { method: 'PATCH', body: { name } });

export const deleteContext = (db: string) =>
  apiRequest<void>(base, `console/contexts/${enc(db)}`, { method: 'DELETE' });
