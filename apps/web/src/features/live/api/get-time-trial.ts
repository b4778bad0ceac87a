import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TimeTrialBoard } from '@tempora/contracts';
import { apiGet } from '../../../lib/api-client.ts';
import { useLiveRefetch } from '../api.ts';

const enc = encodeURIComponent;

/** `GET …/races/{race}/timetrial`: a time trial's live board (hot seat, on course, starters). */
export const timeTrialQuery = (db: string, race: string) =>
  queryOptions({
    queryKey: ['timetrial', db, race] as const,
    queryFn: ({ signal }) =>
      apiGet<TimeTrialBoard>(
        'resultsApiUrlBase',
        `results/contexts/${enc(db)}/races/${enc(race)}/timetrial`,
        {
          signal,
        },
      ),
  });

/** A time trial's board, live on every change of the context (at most once a second). */
export function useTimeTrial(db: string, race: string) {
  const options = timeTrialQuery(db, race);
  const query = useQuery(options);
  useLiveRefetch(db, options.queryKey, undefined, 1000);
  return query;
}
