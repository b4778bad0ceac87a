import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RaceStats, RaceTeams } from '@tempora/contracts';
import { apiGet } from '../../../lib/api-client.ts';
import { useLiveRefetch } from '../api.ts';

const enc = encodeURIComponent;

/** `GET …/races/{race}/stats`: a race's live statistics; nothing until the race is known. */
export const raceStatsQuery = (db: string, raceId: string | undefined) =>
  queryOptions({
    queryKey: ['stats', db, raceId] as const,
    enabled: !!raceId,
    queryFn: ({ signal }) =>
      apiGet<RaceStats>('resultsApiUrlBase', `results/contexts/${enc(db)}/races/${enc(raceId!)}/stats`, {
        signal,
      }),
  });

/** A race's statistics, live (at most one refetch every 3 s). */
export function useRaceStats(db: string, raceId: string | undefined) {
  const options = raceStatsQuery(db, raceId);
  const query = useQuery(options);
  useLiveRefetch(db, options.queryKey, undefined, 3000);
  return query;
}

/** `GET …/races/{race}/teams`: a race's clubs as teams (issue 7). */
export const raceTeamsQuery = (db: string, raceId: string) =>
  queryOptions({
    queryKey: ['teams', db, raceId] as const,
    queryFn: ({ signal }) =>
      apiGet<RaceTeams>('resultsApiUrlBase', `results/contexts/${enc(db)}/races/${enc(raceId)}/teams`, {
        signal,
      }),
  });

/** A race's team standings, live (at most one refetch every 5 s). */
export function useRaceTeams(db: string, raceId: string) {
  const options = raceTeamsQuery(db, raceId);
  const query = useQuery(options);
  useLiveRefetch(db, options.queryKey, undefined, 5000);
  return query;
}
