import { QueryClient, QueryObserver } from '@tanstack/react-query';
import type { EnvironmentConfig, ReportTable } from '@tempora/contracts';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../../../lib/api-client.ts';
import { loadPatchCode, receivePatch } from '../hooks/use-live-report.ts';
import {
  FIRST_PAGE,
  type ReportSource,
  reportQuery,
  reportQueryKey,
  requireFreshReport,
} from './get-report.ts';

// The patch code is loaded lazily (the report page's first JavaScript): these tests fold patches.
beforeAll(async () => {
  await loadPatchCode();
});

const base = '/api/';
configureApiClient({
  apiUrlBase: base,
  eventsApiUrlBase: base,
  resultsApiUrlBase: base,
  userApiUrlBase: base,
  confirmationApiUrlBase: base,
  trackingApiUrlBase: base,
  realtime: { key: 'k', cluster: 'eu', host: null, port: null, forceTLS: null },
  mapKey: '',
  blobUrlBase: '/',
} satisfies EnvironmentConfig);

const ROWS = FIRST_PAGE * 2;

/** The table a node holds at `version`: the first `version - 100` bibs have finished. */
function tableAt(report: string, version: number, offset = 0, limit = ROWS + 1): ReportTable {
  const rows = Array.from({ length: ROWS + 1 }, (_, k) => [String(1000 + k), k]);
  if (version > 100) rows.unshift(['leader', -version]);
  return {
    eventId: 'e',
    db: 'd',
    group: 'g',
    report,
    title: { en: 'Overall', fr: 'Général' },
    version,
    columns: [],
    rows: rows.slice(offset, offset + limit),
    total: rows.length,
    keyField: 0,
    orderField: 1,
    tag: `t-${version}`,
  };
}

/**
 * A node of the server as the page sees it (the stand-in for `fetch`): it answers from the
 * version it has reached (`node.version`), waits for `minVersion` like the real one, and holds
 * requests while `node.hold` is set, so a patch can come in between.
 */
function fakeNode() {
  const node = {
    version: 100,
    hold: null as Promise<void> | null,
    requests: [] as URLSearchParams[],
  };
  vi.stubGlobal('fetch', async (url: string) => {
    const params = new URL(url, 'http://node').searchParams;
    node.requests.push(params);
    const min = Number(params.get('minVersion') ?? 0);
    if (min > node.version) node.version = min; // the real node waits until it has caught up
    if (node.hold) await node.hold;
    const offset = params.has('offset') ? Number(params.get('offset')) : 0;
    const limit = params.has('limit') ? Number(params.get('limit')) : undefined;
    return new Response(JSON.stringify(tableAt(source.report, node.version, offset, limit)), {
      headers: { 'content-type': 'application/json' },
    });
  });
  return node;
}

function gate() {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open: () => open() };
}

let source: ReportSource;
let sources = 0;
beforeEach(() => {
  // A report of its own per test: the versions a page wants are kept per report.
  source = { eventId: 'e', group: 'g', report: `LIVE${++sources}` };
});
afterEach(() => vi.unstubAllGlobals());

const reload = (version: number) => ({
  group: 'g',
  report: source.report,
  version,
  reload: true as const,
});

describe('a report table never stays behind a patch it heard (issue 20)', () => {
  it('a patch heard while the table loads makes the load fetch at least its version', async () => {
    const node = fakeNode();
    const client = new QueryClient();
    const options = reportQuery(source, client);
    const held = gate();
    node.hold = held.promise;
    const loading = client.fetchQuery(options);
    // The first page is asked of the node at version 100 …
    await vi.waitFor(() => expect(node.requests).toHaveLength(1));
    // … a reload to 105 published elsewhere arrives before the table is there …
    expect(receivePatch(client, options.queryKey, reload(105), source)).toBeNull();
    // … and the node answers the first page and the rest from version 100.
    node.hold = null;
    held.open();
    const table = await loading;
    expect(node.requests[1]?.get('offset')).toBe(String(FIRST_PAGE));
    expect(table.version).toBe(105);
    expect(table.rows[0]).toEqual(['leader', -105]);
    expect(node.requests.at(-1)?.get('minVersion')).toBe('105');
  });

  it('the read after subscribing asks for a fresh state, once', async () => {
    const node = fakeNode();
    const client = new QueryClient();
    const options = reportQuery(source, client);
    await client.fetchQuery(options);
    const before = node.requests.length;
    // Published while the page was not subscribed yet: the page never heard of it.
    node.version = 120;
    requireFreshReport(source);
    await client.refetchQueries({ queryKey: options.queryKey, exact: true });
    const after = node.requests.slice(before);
    expect(after[0]?.get('fresh')).toBe('1');
    expect(after[0]?.get('limit')).toBe('1'); // the probe
    // The whole table that follows is at least as recent as the probe said.
    expect(after[1]?.get('minVersion')).toBe('120');
    expect(client.getQueryData<ReportTable>(options.queryKey)?.version).toBe(120);
    await client.refetchQueries({ queryKey: options.queryKey, exact: true });
    expect(node.requests.at(-1)?.has('fresh')).toBe(false);
  });

  it('a reload refetches the whole table at its version without probing first', async () => {
    const node = fakeNode();
    const client = new QueryClient();
    const options = reportQuery(source, client);
    await client.fetchQuery(options);
    // An open page observes the table (an invalidated table nobody shows is not refetched).
    const stop = new QueryObserver(client, options).subscribe(() => undefined);
    const before = node.requests.length;
    receivePatch(client, options.queryKey, reload(130), source);
    await vi.waitFor(() => expect(client.getQueryData<ReportTable>(options.queryKey)?.version).toBe(130));
    const after = node.requests.slice(before);
    expect(after).toHaveLength(1);
    expect(after[0]?.get('minVersion')).toBe('130');
    expect(after[0]?.has('limit')).toBe(false);
    stop();
  });

  it('a fetch answered before a patch applied meanwhile does not take the table back', async () => {
    const node = fakeNode();
    const client = new QueryClient();
    const options = reportQuery(source, client);
    await client.fetchQuery(options);
    const held = gate();
    node.hold = held.promise;
    const refetching = client.refetchQueries({ queryKey: reportQueryKey(source), exact: true });
    await vi.waitFor(() => expect(node.requests.length).toBe(3));
    // While the probe is in flight (answered from version 100), a patch brings the table to 101.
    const keys = receivePatch(
      client,
      options.queryKey,
      {
        group: 'g',
        report: source.report,
        fromVersion: 100,
        version: 101,
        upserts: [['1000', -1]],
        removes: [],
      },
      source,
    );
    expect(keys).toEqual(['1000']);
    node.hold = null;
    held.open();
    await refetching;
    const table = client.getQueryData<ReportTable>(options.queryKey);
    expect(table?.version).toBe(101);
    expect(table?.rows[0]).toEqual(['1000', -1]);
  });
});
