import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SeriesStandings } from '@tempora/contracts';
import { apiGet } from '../../../lib/api-client.ts';

/** `GET series/{context}`: standings per category. */
export const seriesQuery = (context: string) =>
  queryOptions({
    queryKey: ['content', 'series', context] as const,
    queryFn: ({ signal }) =>
      apiGet<SeriesStandings>('eventsApiUrlBase', `series/${encodeURIComponent(context)}`, { signal }),
  });

export function useSeries(context: string) {
  return useQuery(seriesQuery(context));
}
