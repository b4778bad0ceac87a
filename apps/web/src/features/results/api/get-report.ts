import { type QueryClient, queryOptions } from '@tanstack/react-query';
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

/** The query key of a report's first page, shown while the whole table loads. */
export const reportHeadKey = (source: ReportSource) => [...reportQueryKey(source), 'head'] as const;

/** Rows of the first request: more than a phone or a desktop screen shows. */
export const FIRST_PAGE = 100;
/** Rows per request behind the first page (a few parallel requests, each parsed in a short task). */
export const CHUNK = 5000;

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

/**
 * `GET` a whole report table (columns + rows), or one page of it. Every request asks for the
 * version wanted (issue 20); only a whole table satisfies the wish.
 */
export async function getReport(
  source: ReportSource,
  signal?: AbortSignal,
  page?: { offset: number; limit: number },
): Promise<ReportTable> {
  const path = reportPath(source);
  const minVersion = wanted.get(path);
  const params = new URLSearchParams();
  if (minVersion) params.set('minVersion', String(minVersion));
  if (page) {
    params.set('offset', String(page.offset));
    params.set('limit', String(page.limit));
  }
  const qs = params.toString();
  const query = qs ? `?${qs}` : '';
  const table = await apiGet<ReportTable>('resultsApiUrlBase', `${path}${query}`, { signal });
  if (!page && minVersion && table.version >= minVersion && wanted.get(path) === minVersion)
    wanted.delete(path);
  return table;
}

/**
 * Loads a report progressively (issue 19: the first screenful within 1 s on a 26,000-row table):
 * the first page, handed to `onFirstPage` to be shown at once, then the rest through the API's
 * `offset`/`limit` paging in parallel chunks, put together into the whole table — which search,
 * sort and live patches work on. When the table changed between the requests (a live race), the
 * whole table is fetched again in one request, so the rows are always of one version.
 */
export async function getReportProgressively(
  source: ReportSource,
  onFirstPage: (table: ReportTable) => void,
  signal?: AbortSignal,
): Promise<ReportTable> {
  const first = await getReport(source, signal, { offset: 0, limit: FIRST_PAGE });
  if (first.rows.length >= first.total) return first;
  onFirstPage(first);
  const offsets: number[] = [];
  for (let offset = FIRST_PAGE; offset < first.total; offset += CHUNK) offsets.push(offset);
  const parts = await Promise.all(
    offsets.map((offset) => getReport(source, signal, { offset, limit: CHUNK })),
  );
  if (parts.some((part) => part.version !== first.version)) return getReport(source, signal);
  const rows = first.rows.concat(...parts.map((part) => part.rows));
  return { ...first, rows, total: rows.length };
}

/**
 * A refetch (catch-up after a subscription or a reconnection): one row says whether the version
 * moved; only then is the whole table fetched again (a 26,000-row table is 7 MB to parse).
 */
export async function refetchReport(
  source: ReportSource,
  current: ReportTable,
  signal?: AbortSignal,
): Promise<ReportTable> {
  const probe = await getReport(source, signal, { offset: 0, limit: 1 });
  // The tag moves with a status change or a correction too, which do not move the version.
  const same =
    probe.version === current.version && probe.total === current.total && probe.tag === current.tag;
  return same ? current : getReport(source, signal);
}

/**
 * Query options of a report. The first load is progressive (its first page under
 * `reportHeadKey`); a refetch checks the version first. Live pages keep it fresh through
 * patches, not polling.
 */
export const reportQuery = (source: ReportSource, client?: QueryClient) =>
  queryOptions({
    queryKey: reportQueryKey(source),
    queryFn: ({ signal }) => {
      const current = client?.getQueryData<ReportTable>(reportQueryKey(source));
      if (current) return refetchReport(source, current, signal);
      return client
        ? getReportProgressively(source, (head) => client.setQueryData(reportHeadKey(source), head), signal)
        : getReport(source, signal);
    },
    staleTime: 60_000,
    // Rows are replaced whole by refetches and patches: deep-comparing 26,000 rows would cost more than it saves.
    structuralSharing: false,
  });
