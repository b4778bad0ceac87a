const enc = encodeURIComponent;

/**
 * The entries' pages under an event's entry page (issue 38), outside `config/paths.ts` so that the
 * spectator pages' first JavaScript does not carry them: one route, `/entries/{event}/{view}/…`.
 */
export const entriesPaths = {
  /** A team's page and link: the event's entries with the team (members join there). */
  team: (eventId: string, token: string) => `/entries/${enc(eventId)}/team/${enc(token)}`,
  /** The entries' start list. */
  startList: (eventId: string) => `/entries/${enc(eventId)}/start-list`,
};
