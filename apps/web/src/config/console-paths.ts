const enc = encodeURIComponent;

/**
 * Typed paths of the organiser console (`/console/…`, issue 14). Other organiser features add
 * their pages under an event (`/console/events/{eventId}/…`) and a line to
 * `features/console/event-nav.ts`.
 */
export const consolePaths = {
  home: () => '/console',
  organisation: (orgId: string) => `/console/organisations/${enc(orgId)}`,
  invitation: (token: string) => `/console/invitations/${enc(token)}`,
  event: (eventId: string) => `/console/events/${enc(eventId)}`,
  eventRaces: (eventId: string) => `/console/events/${enc(eventId)}/races`,
  race: (eventId: string, raceId: string) => `/console/events/${enc(eventId)}/races/${enc(raceId)}`,
  raceReports: (eventId: string, raceId: string) =>
    `/console/events/${enc(eventId)}/races/${enc(raceId)}/reports`,
  /** Built by the participants branch (issue 14 part B). */
  participants: (eventId: string) => `/console/events/${enc(eventId)}/participants`,
  /** Results out (issue 16). */
  exports: (eventId: string) => `/console/events/${enc(eventId)}/exports`,
  certificate: (eventId: string) => `/console/events/${enc(eventId)}/certificate`,
  webhooks: (eventId: string) => `/console/events/${enc(eventId)}/webhooks`,
  /** Online entries (issue 38): the list and the registration settings. */
  entries: (eventId: string) => `/console/events/${enc(eventId)}/entries`,
  /** The pickup dashboard (issue 39). */
  pickup: (eventId: string) => `/console/events/${enc(eventId)}/pickup`,
  /** Runners' claims on entries without an e-mail (issue 40). */
  claims: (eventId: string) => `/console/events/${enc(eventId)}/claims`,
  /** How long the event keeps personal data, and what was removed (issue 40). */
  privacy: (eventId: string) => `/console/events/${enc(eventId)}/privacy`,
  /** Race day (issue 15): `devices`, `desk`, `start`, `audit`. */
  raceday: (eventId: string, tab?: string) =>
    `/console/events/${enc(eventId)}/raceday${tab ? `/${enc(tab)}` : ''}`,
} as const;
