import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ReportList } from '@tempora/contracts';
import { apiGet } from '../../../lib/api-client.ts';

/** `GET {resultsApiUrlBase}results/{eventId}/reportlist`: the event's report groups (issue 6). */
export function getReportList(eventId: string, signal?: AbortSignal): Promise<ReportList> {
  return apiGet<ReportList>('resultsApiUrlBase', `results/${encodeURIComponent(eventId)}/reportlist`, {
    signal,
  });
}

/** Query options of an event's report list. */
export const reportListQuery = (eventId: string) =>
  queryOptions({
    queryKey: ['results', 'reportlist', eventId] as const,
    queryFn: ({ signal }) => getReportList(eventId, signal),
  });

/** The report list of an event. */
export function useReportList(eventId: string) {
  return useQuery(reportListQuery(eventId));
}
