import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LegTable, Published } from '@tempora/contracts';
import { apiGet } from '../../../lib/api-client.ts';
import { useLiveRefetch } from '../api.ts';

const enc = encodeURIComponent;

/** `GET results/contexts/{db}/races/{race}/legs`: a multisport or relay race's legs (issue 31). */
export const legsQuery = (db: string, race: string) =>
  queryOptions({
    queryKey: ['legs', db, race] as const,
    queryFn: ({ signal }) =>
      apiGet<Published<LegTable>>(
        'resultsApiUrlBase',
        `results/contexts/${enc(db)}/races/${enc(race)}/legs`,
        {
          signal,
        },
      ),
  });

/** A race's legs, live (refetched on the context's changes). */
export function useLegs(db: string, race: string) {
  const options = legsQuery(db, race);
  const query = useQuery(options);
  useLiveRefetch(db, options.queryKey);
  return query;
}
