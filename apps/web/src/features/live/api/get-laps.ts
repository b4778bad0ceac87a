import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LapTable, Published } from '@tempora/contracts';
import { apiGet } from '../../../lib/api-client.ts';
import { useLiveRefetch } from '../api.ts';

const enc = encodeURIComponent;

/** `GET results/contexts/{db}/races/{race}/laps`: a lap race's table and lap chart (issue 31). */
export const lapsQuery = (db: string, race: string) =>
  queryOptions({
    queryKey: ['laps', db, race] as const,
    queryFn: ({ signal }) =>
      apiGet<Published<LapTable>>(
        'resultsApiUrlBase',
        `results/contexts/${enc(db)}/races/${enc(race)}/laps`,
        {
          signal,
        },
      ),
  });

/** A lap race's table, live (refetched on the context's changes). */
export function useLaps(db: string, race: string) {
  const options = lapsQuery(db, race);
  const query = useQuery(options);
  useLiveRefetch(db, options.queryKey);
  return query;
}
