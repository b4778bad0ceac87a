import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type { ReportTable } from '@tempora/contracts';
import { apiGet } from '../../../lib/api-client.ts';
import { untilFirstRowsShown } from './first-rows.ts';

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
/**
 * Rows per request behind the first page, parsed each in its own task: 1,000 Boston rows are 270 KB
 * of JSON, a task well under 50 ms on a phone's CPU; 5,000 were 1.3 MB, five long tasks after the
 * first rows (issue 19: Lighthouse TBT on the Boston table).
 */
export const CHUNK = 1000;

/**
 * What the next fetch of a report must bring (issue 20), keyed by the report's path:
 * - `version`: the least version. A reload or a patch the table cannot take names the version it
 *   leads to, and the server answers only once it has reached it — on several nodes the one
 *   answering may not have caught up with the one that published.
 * - `fresh`: a state caught up after the request (the first read after subscribing or
 *   reconnecting: the node answering may lag changes published before the subscription, whose
 *   patches this client never heard). A number, so a wish made during a request survives it.
 */
interface Wish {
  version: number;
  fresh: number;
}
const wishes = new Map<string, Wish>();
let freshCount = 0;

function wishOf(path: string): Wish {
  let wish = wishes.get(path);
  if (!wish) {
    wish = { version: 0, fresh: 0 };
    wishes.set(path, wish);
  }
  return wish;
}

/** Asks the next fetch of `source` for at least `version`. */
export function requireReportVersion(source: ReportSource, version: number): void {
  const wish = wishOf(reportPath(source));
  wish.version = Math.max(version, wish.version);
}

/** Asks the next fetch of `source` for a state caught up after it (see `Wish`). */
export function requireFreshReport(source: ReportSource): void {
  wishOf(reportPath(source)).fresh = ++freshCount;
}

/** The least version asked of the next fetch of `source` (0: none). */
export function wantedVersion(source: ReportSource): number {
  return wishes.get(reportPath(source))?.version ?? 0;
}

/**
 * `GET` a whole report table (columns + rows), or one page of it. Every request carries the
 * wish (issue 20); a fresh answer satisfies the freshness asked before it was sent, a whole table
 * at the version wanted satisfies the version.
 */
export async function getReport(
  source: ReportSource,
  signal?: AbortSignal,
  page?: { offset: number; limit: number },
): Promise<ReportTable> {
  const path = reportPath(source);
  const { version: minVersion, fresh } = wishes.get(path) ?? { version: 0, fresh: 0 };
  const params = new URLSearchParams();
  if (minVersion) params.set('minVersion', String(minVersion));
  if (fresh) params.set('fresh', '1');
  if (page) {
    params.set('offset', String(page.offset));
    params.set('limit', String(page.limit));
  }
  const qs = params.toString();
  const query = qs ? `?${qs}` : '';
  const table = await apiGet<ReportTable>('resultsApiUrlBase', `${path}${query}`, { signal });
  const wish = wishes.get(path);
  if (wish) {
    if (fresh && wish.fresh === fresh) wish.fresh = 0;
    if (!page && minVersion && table.version >= wish.version) wish.version = 0;
    if (!wish.fresh && !wish.version) wishes.delete(path);
  }
  return table;
}

/**
 * One rank window of a report (issue 28: `liveChannels.reportWindow`), the REST side of a window's
 * catch-up: its rows from `offset`, always from a state caught up after the request (`fresh`:
 * the node answering may lag the patches this client missed) and at least `minVersion`.
 */
export function getReportWindow(
  source: ReportSource,
  page: { offset: number; limit: number },
  minVersion = 0,
  signal?: AbortSignal,
): Promise<ReportTable> {
  const params = new URLSearchParams({ fresh: '1', offset: String(page.offset), limit: String(page.limit) });
  if (minVersion) params.set('minVersion', String(minVersion));
  return apiGet<ReportTable>('resultsApiUrlBase', `${reportPath(source)}?${params}`, { signal });
}

/**
 * Requests in flight at once for the rest of a table: what a browser sends at once to one host
 * over HTTP/1.1 anyway; 26 `fetch` calls made in one go (Boston) were one 25 ms task, 100 on a
 * throttled phone (issue 28).
 */
const PARALLEL = 6;

/** `work` over `items`, at most `limit` at a time; the results in the items' order. */
async function inParallel<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await work(items[at]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
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
  if (first.rows.length >= first.total)
    return wantedVersion(source) > first.version ? getReport(source, signal) : first;
  onFirstPage(first);
  await untilFirstRowsShown(reportPath(source)); // the first rows paint before the rest's parsing
  const offsets: number[] = [];
  for (let offset = FIRST_PAGE; offset < first.total; offset += CHUNK) offsets.push(offset);
  const parts = await inParallel(offsets, PARALLEL, (offset) =>
    getReport(source, signal, { offset, limit: CHUNK }),
  );
  // Parts of another version, or a version older than a patch heard meanwhile (issue 20: a patch
  // that came before the table could not be applied): the whole table in one request, which
  // carries the version wanted.
  if (parts.some((part) => part.version !== first.version) || wantedVersion(source) > first.version)
    return getReport(source, signal);
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
  // A reload or a gap named a version past ours: the table moved, the probe would only say so.
  if (wantedVersion(source) > current.version) return getReport(source, signal);
  const probe = await getReport(source, signal, { offset: 0, limit: 1 });
  // The tag moves with a status change or a correction too, which do not move the version.
  const same =
    probe.version === current.version && probe.total === current.total && probe.tag === current.tag;
  if (same) return current;
  // The whole table at least as recent as the probe, whichever node answers (issue 20).
  requireReportVersion(source, probe.version);
  return getReport(source, signal);
}

/**
 * A fetch never takes the table back (issue 20): a patch applied while it was in flight may have
 * brought the cached table past what the fetch was answered from.
 */
function newest(fetched: ReportTable, cached: ReportTable | undefined): ReportTable {
  return cached && cached.version > fetched.version ? cached : fetched;
}

/**
 * Query options of a report. The first load is progressive (its first page under
 * `reportHeadKey`); a refetch checks the version first. Live pages keep it fresh through
 * patches, not polling.
 */
export const reportQuery = (source: ReportSource, client?: QueryClient) =>
  queryOptions({
    queryKey: reportQueryKey(source),
    queryFn: async ({ signal }) => {
      const key = reportQueryKey(source);
      const current = client?.getQueryData<ReportTable>(key);
      if (current) return newest(await refetchReport(source, current, signal), client?.getQueryData(key));
      if (!client) return getReport(source, signal);
      const table = await getReportProgressively(
        source,
        (head) => client.setQueryData(reportHeadKey(source), head),
        signal,
      );
      return newest(table, client.getQueryData(key));
    },
    staleTime: 60_000,
    // Rows are replaced whole by refetches and patches: deep-comparing 26,000 rows would cost more than it saves.
    structuralSharing: false,
  });
