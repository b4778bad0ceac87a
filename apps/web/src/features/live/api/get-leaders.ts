import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LeadersBoard } from '@tempora/contracts';
import { apiGet } from '../../../lib/api-client.ts';
import { useLiveRefetch } from '../api.ts';

const enc = encodeURIComponent;

/** `GET …/races/{race}/leaders?count=`: the first `count` at every point of a race. */
export function getLeaders(db: string, race: string, count: number, signal?: AbortSignal) {
  return apiGet<LeadersBoard>(
    'resultsApiUrlBase',
    `results/contexts/${enc(db)}/races/${enc(race)}/leaders?count=${count}`,
    { signal },
  );
}

/** The leaders page's board: the first five at every point. */
export const leadersQuery = (db: string, race: string | undefined) =>
  queryOptions({
    queryKey: ['leaders', db, race] as const,
    enabled: !!race,
    queryFn: ({ signal }) => getLeaders(db, race!, 5, signal),
  });

/** The leaders of a race, live; nothing while no race is chosen. */
export function useLeaders(db: string, race: string | undefined) {
  const options = leadersQuery(db, race);
  const query = useQuery(options);
  useLiveRefetch(race ? db : null, options.queryKey);
  return query;
}
