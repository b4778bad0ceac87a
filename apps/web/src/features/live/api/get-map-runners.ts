import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import type { AthleteCard, ParticipantHit } from '@tempora/contracts';
import { apiGet } from '../../../lib/api-client.ts';
import { useLiveRefetch } from '../api.ts';
import { getLeaders } from './get-leaders.ts';

const enc = encodeURIComponent;

/** Leaders drawn on the map (issue 27: the top 3 only hid the race behind them). */
const MAP_LEADERS = 10;
/** The map's runners move between reads (estimated positions): polled besides the live refetch. */
const POLL_MS = 15_000;
/** The map's live refetch: at most one every 5 s per kind of query. */
const LIVE_MS = 5000;

/** The map's leaders of a race (the first ten at every point); nothing until the race is known. */
export const mapLeadersQuery = (db: string | undefined, raceId: string | undefined) =>
  queryOptions({
    queryKey: ['map-leaders', db, raceId] as const,
    enabled: raceId !== undefined,
    queryFn: ({ signal }) => getLeaders(db!, raceId!, MAP_LEADERS, signal),
  });

/** The map's leaders, live. */
export function useMapLeaders(db: string | undefined, raceId: string | undefined) {
  const options = mapLeadersQuery(db, raceId);
  const query = useQuery(options);
  useLiveRefetch(db, options.queryKey, undefined, LIVE_MS);
  return query;
}

/**
 * A followed runner's card. The runner may be in another race of the event (another context): found
 * by the tracking key the card gave, else by a search in this race's context, which answers an
 * empty list rather than a 404 (issue 27: two 404s in the console); null when not found.
 */
export const followedCardQuery = (db: string | undefined, bib: string, trackingKey: string | undefined) =>
  queryOptions({
    queryKey: ['map-followed', db, bib, trackingKey ?? null] as const,
    enabled: !!db,
    queryFn: async ({ signal }) => {
      let key = trackingKey;
      if (!key) {
        const hits = await apiGet<ParticipantHit[]>(
          'resultsApiUrlBase',
          `results/contexts/${enc(db!)}/participants?q=${enc(bib)}`,
          { signal },
        );
        key = hits.find((h) => h.bib === bib)?.trackingKey;
      }
      if (!key) return null;
      return apiGet<AthleteCard>('trackingApiUrlBase', `tracking/${enc(key)}`, { signal });
    },
    refetchInterval: POLL_MS,
  });

/** The cards of the followed bibs (`keys`: their tracking keys when known), live. */
export function useFollowedCards(db: string | undefined, bibs: string[], keys: Record<string, string>) {
  const queries = useQueries({ queries: bibs.map((bib) => followedCardQuery(db, bib, keys[bib])) });
  useLiveRefetch(db, ['map-followed', db], undefined, LIVE_MS);
  return queries;
}

/** A runner's card by bib in the race's context (a leader drawn on the map). */
export const mapAthleteQuery = (db: string | undefined, bib: string) =>
  queryOptions({
    queryKey: ['map-athlete', db, bib] as const,
    enabled: !!db,
    queryFn: ({ signal }) =>
      apiGet<AthleteCard>('trackingApiUrlBase', `results/contexts/${enc(db!)}/participants/${enc(bib)}`, {
        signal,
      }),
    refetchInterval: POLL_MS,
  });

/** The cards of the given bibs of the race's context, live. */
export function useMapAthletes(db: string | undefined, bibs: string[]) {
  const queries = useQueries({ queries: bibs.map((bib) => mapAthleteQuery(db, bib)) });
  useLiveRefetch(db, ['map-athlete', db], undefined, LIVE_MS);
  return queries;
}
