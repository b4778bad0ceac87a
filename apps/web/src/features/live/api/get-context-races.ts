import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ContextRace } from '@tempora/contracts';
import { apiGet } from '../../../lib/api-client.ts';

/** `GET results/contexts/{db}/races`: the races of a context. */
export const contextRacesQuery = (db: string) =>
  queryOptions({
    queryKey: ['races', db] as const,
    queryFn: ({ signal }) =>
      apiGet<ContextRace[]>('resultsApiUrlBase', `results/contexts/${encodeURIComponent(db)}/races`, {
        signal,
      }),
  });

/** The races of a context (`enabled`: false while the page does not need them). */
export function useContextRaces(db: string, enabled = true) {
  return useQuery({ ...contextRacesQuery(db), enabled });
}
