import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Contact, ContactMessageInput } from '@tempora/contracts';
import { apiGet, apiPost } from '../../../lib/api-client.ts';

const enc = encodeURIComponent;

/** `GET events/{id}/contacts`. */
export const contactsQuery = (eventId: string) =>
  queryOptions({
    queryKey: ['content', 'contacts', eventId] as const,
    queryFn: ({ signal }) =>
      apiGet<Contact[]>('eventsApiUrlBase', `events/${enc(eventId)}/contacts`, { signal }),
  });

export function useContacts(eventId: string) {
  return useQuery(contactsQuery(eventId));
}

/** `POST events/{id}/contact`: the contact form (rate-limited; `website` is the honeypot). */
export function sendContactMessage(eventId: string, message: ContactMessageInput) {
  return apiPost<{ ok: true }>('eventsApiUrlBase', `events/${enc(eventId)}/contact`, message);
}
