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

/**
 * The least version the next fetch of a report must bring (issue 20): a reload or a patch the
 * table cannot take names the version it leads to, and the server answers only once it has
 * reached it — on several nodes the one answering may not have caught up with the one that
 * published. Keyed by the report's path.
 */
const wanted = new Map<string, number>();

/** Asks the next fetch of `source` for at least `version`. */
export function requireReportVersion(source: ReportSource, version: number): void {
  const path = reportPath(source);
  wanted.set(path, Math.max(version, wanted.get(path) ?? 0));
}

/** `GET` a whole report table (columns + rows). */
export async function getReport(source: ReportSource, signal?: AbortSignal): Promise<ReportTable> {
  const path = reportPath(source);
  const minVersion = wanted.get(path);
  const table = await apiGet<ReportTable>(
    'resultsApiUrlBase',
    minVersion ? `${path}?minVersion=${minVersion}` : path,
    { signal },
  );
  if (minVersion && table.version >= minVersion && wanted.get(path) === minVersion) wanted.delete(path);
  return table;
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
