import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RaceCourse } from '@tempora/contracts';
import { apiGet } from '../../../lib/api-client.ts';

const enc = encodeURIComponent;

/** `GET …/races/{race}/course`: a race's course line and timing points; nothing until the race is known. */
export const raceCourseQuery = (db: string | undefined, raceId: string | undefined) =>
  queryOptions({
    queryKey: ['course', db, raceId] as const,
    enabled: raceId !== undefined,
    queryFn: ({ signal }) =>
      apiGet<RaceCourse>('resultsApiUrlBase', `results/contexts/${enc(db!)}/races/${enc(raceId!)}/course`, {
        signal,
      }),
  });

/** A race's course (the map). */
export function useRaceCourse(db: string | undefined, raceId: string | undefined) {
  return useQuery(raceCourseQuery(db, raceId));
}
