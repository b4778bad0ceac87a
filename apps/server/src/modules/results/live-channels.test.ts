import type { AddressInfo } from 'node:net';
import {
  applyWindowPatch,
  liveChannels,
  type ReportPatch,
  type ReportTable,
  TOP_WINDOW_ROWS,
  unbundleResults,
} from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { eventually, rawSubscriber, startNode } from '../../realtime/test-harness.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';
import { F } from './report-builder.ts';
import * as repo from './repository.ts';
import { hashKey } from './service.ts';

// Issue 28: channels follow views, and only occupied channels get anything.
const REPORTS = '/api/results/demo-city-run/groups/city-10k/reports';
const DEVICE_KEY = 'tdk_live_channels_key_123456';

describe('live channels follow views (issue 28)', () => {
  let app: FastifyInstance;
  let gun: number;
  const published: string[][] = [];
  const node = () => ({ port: (app.server.address() as AddressInfo).port, config: app.config });

  beforeAll(async () => {
    app = await buildTestApp();
    await repo.insertDevice(app.database, {
      db: DEMO_DB,
      name: 'finish',
      keyHash: hashKey(DEVICE_KEY),
      pointKey: 'finish',
    });
    gun = (
      await app.database.query<{ gun: number }>(
        "SELECT gun_time_ms::float8 AS gun FROM races WHERE id = 'city-10k'",
      )
    )[0]!.gun;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const original = app.realtime.publish.bind(app.realtime);
    Object.assign(app.realtime, {
      publish: async (
        channels: string[],
        ...rest: Parameters<typeof original> extends [unknown, ...infer R] ? R : never
      ) => {
        published.push(channels);
        return original(channels, ...rest);
      },
    });
  }, 240_000);
  afterAll(() => app.close());

  const read = async (bib: string, minutes: number) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/ingest/passings',
      headers: { 'x-device-key': DEVICE_KEY, 'content-type': 'application/json' },
      payload: JSON.stringify({ passings: [{ bib, time: gun + minutes * 60_000 }] }),
    });
    expect(res.statusCode).toBeLessThan(300);
    await app.results.settle(DEMO_DB);
  };

  it('sends a runner his reads, the feed every read, an idle card nothing, and no channel nobody holds', async () => {
    const card = await rawSubscriber(node(), [liveChannels.runner(DEMO_DB, '107')]);
    const idle = await rawSubscriber(node(), [liveChannels.runner(DEMO_DB, '199')]);
    const feed = await rawSubscriber(node(), [liveChannels.passings(DEMO_DB)]);
    const changes = await rawSubscriber(node(), [liveChannels.changes(DEMO_DB)]);
    published.length = 0;
    await read('107', 40);
    await eventually(() => card.events.length > 0 && feed.events.length > 0);
    const passings = (m: { data?: unknown }) =>
      unbundleResults(JSON.parse(String(m.data))).map(([e, d]) => [e, (d as { bib?: string }).bib]);
    expect(card.events.flatMap(passings)).toEqual([['passing', '107']]);
    expect(feed.events.flatMap(passings)).toContainEqual(['passing', '107']);
    expect(idle.bytes()).toBe(0);
    // Pages that refetch hear one small `changed` per publication, not the reads.
    await eventually(() => changes.events.length > 0);
    expect(changes.events.map((m) => [m.event, JSON.parse(String(m.data))])).toEqual([
      ['changed', { races: ['city-10k'] }],
    ]);
    // Nobody holds the firehose nor any report: nothing went there, no patch was even built.
    const channels = published.flat();
    expect(channels).not.toContain(liveChannels.all(DEMO_DB));
    expect(channels.some((c) => c.includes('-report-'))).toBe(false);
    for (const c of [card, idle, feed, changes]) c.ws.close();
  });

  it("sends a report's top window only its own changes, which bring a client's table to the server's", async () => {
    const top = await rawSubscriber(node(), [liveChannels.reportTop(DEMO_DB, 'city-10k', 'LIVE1')]);
    const base = (await app.inject(`${REPORTS}/LIVE1?fresh=1`)).json() as ReportTable;
    // A runner outside the top window moves, inside it: nothing to the window's channel. The
    // window is first filled with finishers (a read of a runner with no time, or of a DNS runner
    // whose read clears the DNS, issue 26, would otherwise enter it or reload every report).
    if (base.rows.length > TOP_WINDOW_ROWS + 1) {
      const bibs = base.rows.map((r) => String(r[F.bib])).filter((b) => b !== '131');
      for (let i = 0; i <= TOP_WINDOW_ROWS; i++) await read(bibs[i]!, 40 + i);
      await new Promise((r) => setTimeout(r, 300));
      const before = top.bytes();
      top.events.length = 0;
      await read(bibs[TOP_WINDOW_ROWS + 1]!, 300);
      await new Promise((r) => setTimeout(r, 300));
      expect(top.bytes()).toBe(before);
    }
    const settled = (await app.inject(`${REPORTS}/LIVE1?fresh=1`)).json() as ReportTable;
    // A new leader: the window's patch carries it.
    await read('131', 20);
    await eventually(() => top.events.length > 0);
    let table: ReportTable | null = settled;
    for (const event of top.events)
      for (const [, patch] of unbundleResults(JSON.parse(String(event.data))))
        table = table && applyWindowPatch(table, patch as never);
    const now = (await app.inject(`${REPORTS}/LIVE1?fresh=1`)).json() as ReportTable;
    expect(table).not.toBeNull();
    expect(table!.version).toBe(now.version);
    expect(table!.rows.slice(0, TOP_WINDOW_ROWS)).toEqual(now.rows.slice(0, TOP_WINDOW_ROWS));
    expect(table!.rows[0]![F.bib]).toBe('131');
    // Other reports (the categories) nobody watches: no patch published for them.
    expect(published.flat().filter((c) => c.includes('-report-') && !c.includes('-LIVE1-top'))).toEqual([]);
    top.ws.close();
  });

  it('sends a rank window below the top only the changes of its own rows, from a window fetched by offset', async () => {
    const W = TOP_WINDOW_ROWS;
    const w1 = liveChannels.reportWindow(DEMO_DB, 'city-10k', 'LIVE1', 1);
    const w10 = liveChannels.reportWindow(DEMO_DB, 'city-10k', 'LIVE1', 10);
    expect(w1).toBe(`${liveChannels.report(DEMO_DB, 'city-10k', 'LIVE1')}-w1`);
    const near = await rawSubscriber(node(), [w1]);
    const far = await rawSubscriber(node(), [w10]);
    const base = (await app.inject(`${REPORTS}/LIVE1?fresh=1`)).json() as ReportTable;
    expect(base.rows.length).toBeGreaterThan(11 * W);
    // The REST call a window's catch-up makes: its rows alone, as in the whole table.
    const page = (await app.inject(`${REPORTS}/LIVE1?fresh=1&offset=${W}&limit=${W}`)).json() as ReportTable;
    expect(page.rows).toEqual(base.rows.slice(W, 2 * W));
    // A runner still on course at row 100 finishes: he moves up past window 1 (rows 30–59), whose
    // rows shift by one; rows from 101 on (window 10: 300–329) do not move.
    const runner =
      base.rows.slice(100).find((r) => r[F.status] === '' || r[F.status] === null) ?? base.rows[100]!;
    const index = base.rows.indexOf(runner);
    expect(index).toBeLessThan(10 * W);
    published.length = 0;
    await read(String(runner[F.bib]), 200);
    await eventually(() => near.events.length > 0);
    await new Promise((r) => setTimeout(r, 300));
    expect(far.bytes()).toBe(0);
    expect(published.flat()).not.toContain(w10);
    const now = (await app.inject(`${REPORTS}/LIVE1?fresh=1`)).json() as ReportTable;
    const before = new Set(base.rows.slice(W, 2 * W).map((r) => String(r[F.key])));
    const after = new Set(now.rows.slice(W, 2 * W).map((r) => String(r[F.key])));
    let table: ReportTable | null = base;
    for (const event of near.events)
      for (const [, patch] of unbundleResults(JSON.parse(String(event.data)))) {
        const p = patch as ReportPatch;
        expect('reload' in p).toBe(false);
        if ('reload' in p) continue;
        // Only rows entering or leaving the window, whole; the others as changed cells.
        expect(p.offset).toBe(W);
        for (const row of p.upserts) expect(after.has(String(row[F.key]))).toBe(true);
        for (const key of p.removes) expect(before.has(key)).toBe(true);
        expect(p.upserts.length + p.removes.length).toBeLessThanOrEqual(4);
        table = table && applyWindowPatch(table, p);
      }
    expect(table).not.toBeNull();
    expect(table!.rows.slice(W, 2 * W)).toEqual(now.rows.slice(W, 2 * W));
    near.ws.close();
    far.ws.close();
  });
});

describe('live channels through an upstream Pusher service (pusher-http adapter)', () => {
  it("asks the upstream which channels are occupied and publishes only to those: a runner's card gets his read", async () => {
    // Another Tempora node stands in for hosted Pusher; the results node publishes to it.
    const upstream = await startNode();
    const app = await buildTestApp({
      REALTIME_ADAPTER: 'pusher-http',
      REALTIME_UPSTREAM_URL: `http://127.0.0.1:${upstream.port}`,
      // The upstream app's secret (issue 42: no shared default any more).
      REALTIME_SECRET: upstream.config.REALTIME_SECRET,
    });
    try {
      await repo.insertDevice(app.database, {
        db: DEMO_DB,
        name: 'finish',
        keyHash: hashKey(DEVICE_KEY),
        pointKey: 'finish',
      });
      const gun = (
        await app.database.query<{ gun: number }>(
          "SELECT gun_time_ms::float8 AS gun FROM races WHERE id = 'city-10k'",
        )
      )[0]!.gun;
      const published: string[][] = [];
      const original = app.realtime.publish.bind(app.realtime);
      Object.assign(app.realtime, {
        publish: async (channels: string[], ...rest: unknown[]) => {
          published.push(channels);
          return (original as (...args: unknown[]) => Promise<void>)(channels, ...rest);
        },
      });
      const card = await rawSubscriber(upstream, [liveChannels.runner(DEMO_DB, '141')]);
      // The occupancy is asked every second: the subscription is known after the next answer.
      await new Promise((r) => setTimeout(r, 1_500));
      const res = await app.inject({
        method: 'POST',
        url: '/api/ingest/passings',
        headers: { 'x-device-key': DEVICE_KEY, 'content-type': 'application/json' },
        payload: JSON.stringify({ passings: [{ bib: '141', time: gun + 45 * 60_000 }] }),
      });
      expect(res.statusCode).toBe(200);
      await app.results.settle(DEMO_DB);
      await eventually(() => card.events.length > 0);
      const bibs = card.events.flatMap((m) =>
        unbundleResults(JSON.parse(String(m.data))).map(([, d]) => (d as { bib?: string }).bib),
      );
      expect(bibs).toEqual(['141']);
      expect(published.flat()).toEqual([liveChannels.runner(DEMO_DB, '141')]);
      card.ws.close();
    } finally {
      await app.close();
      await upstream.close();
    }
  });
});
