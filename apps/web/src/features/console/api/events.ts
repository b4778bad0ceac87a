import { queryOptions, useQuery } from '@tanstack/react-query';
import type {
  ConsoleContext,
  ConsoleEvent,
  ConsoleEventDetail,
  EventCreate,
  EventUpdate,
} from '@tempora/contracts';
import { apiGet, apiPost, apiRequest } from '../../../lib/api-client.ts';

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

export const deleteLogo = (eventId: string) =>
  apiRequest<ConsoleEventDetail>(base, `console/events/${enc(eventId)}/logo`, { method: 'DELETE' });

export const createContext = (eventId: string, input: { db: string; name: string }) =>
  apiPost<ConsoleContext>(base, `console/events/${enc(eventId)}/contexts`, input);

export const renameContext = (db: string, name: string) =>
  apiRequest<ConsoleContext>(base, `console/contexts/${enc(db)}`, { method: 'PATCH', body: { name } });

export const deleteContext = (db: string) =>
  apiRequest<void>(base, `console/contexts/${enc(db)}`, { method: 'DELETE' });
