import { queryOptions } from '@tanstack/react-query';
import type { ReportTable } from '@tempora/contracts';
import { apiGet } from '../../../lib/api-client.ts';

/** Where a report comes from: a group of an event, or a context (`generic/{path}/home/{key}`). */
export type ReportSource =
  | { eventId: string; group: string; report: string }
  | { db: string; report: string };

const enc = encodeURIComponent;

/** The API path of a report (packages/contracts results.ts). */
export function reportPath(source: ReportSource): string {
  return 'eventId' in source
    ? `results/${enc(source.eventId)}/groups/${enc(source.group)}/reports/${enc(source.report)}`
    : `results/contexts/${enc(source.db)}/reports/${enc(source.report)}`;
}

/** The query key of a report: the live hook patches the cache under it. */
export const reportQueryKey = (source: ReportSource) =>
  ['results', 'report', 'eventId' in source ? source : { db: source.db, report: source.report }] as const;

/** `GET` a whole report table (columns + rows). */
export function getReport(source: ReportSource, signal?: AbortSignal): Promise<ReportTable> {
  return apiGet<ReportTable>('resultsApiUrlBase', reportPath(source), { signal });
}

/** Query options of a report. Live pages keep it fresh through patches, not polling. */
export const reportQuery = (source: ReportSource) =>
  queryOptions({
    queryKey: reportQueryKey(source),
    queryFn: ({ signal }) => getReport(source, signal),
    staleTime: 60_000,
    // Rows are replaced whole by refetches and patches: deep-comparing 26,000 rows would cost more than it saves.
    structuralSharing: false,
  });
