import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Contact, ContactInput, ContactMessageInput, ContactSent } from '@tempora/contracts';
import { apiGet, apiPost, apiRequest } from '../../../lib/api-client.ts';

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
  return apiPost<ContactSent>('eventsApiUrlBase', `events/${enc(eventId)}/contact`, message);
}

/** Organiser: create, change, delete a contact of the event. */
export const contactsApi = {
  create: (eventId: string, input: ContactInput) =>
    apiPost<Contact>('eventsApiUrlBase', `events/${enc(eventId)}/contacts`, input),
  update: (eventId: string, contactId: string, input: Partial<ContactInput>) =>
    apiRequest<Contact>('eventsApiUrlBase', `events/${enc(eventId)}/contacts/${enc(contactId)}`, {
      method: 'PATCH',
      body: input,
    }),
  remove: (eventId: string, contactId: string) =>
    apiRequest<void>('eventsApiUrlBase', `events/${enc(eventId)}/contacts/${enc(contactId)}`, {
      method: 'DELETE',
    }),
};
