import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import {
  applyReportPatch,
  applyWindowPatch,
  liveChannels,
  RESULTS_EVENT,
  type ReportPatch,
  type ReportTable,
  unbundleResults,
} from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, testConfig } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import type { Database } from '../../db/database.ts';
import type { Envelope } from '../../realtime/adapters/types.ts';
import { eventually, pusherClient, subscribed } from '../../realtime/test-harness.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';
import { F } from './report-builder.ts';
import * as repo from './repository.ts';
import { hashKey } from './service.ts';

// Issue 20, one publisher per change: two nodes on one PostgreSQL and one Redis ingest reads of
// the same context. Exactly one of them publishes its changes at a time (a lease per context);
// a subscriber's patches chain (each starts from the version the previous one reached) and
// folding them gives the table a fresh read gives, on either node. When the publisher goes away,
// the other node takes over and publishes every acknowledged read.
const LIVE1 = '/api/results/demo-city-run/groups/city-10k/reports/LIVE1';
const CHANNEL = `results-${DEMO_DB}`;
const KEY = 'tdk_publisher_test_key_01';
const LEASE_MS = 1_000;
const url = process.env.TEST_REDIS_URL;
const postgres = backends().find((b) => b.name === 'postgres');

describe.skipIf(!url || !postgres)('one publisher per context (PostgreSQL + Redis)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  const prefix = `tempora-test:${randomUUID()}:`;
  let nodes: FastifyInstance[];
  let gun: number;
  let watcher: Redis;
  /** Every `results` event of the context, in the order Redis carried them, and who sent it. */
  const heard: { from: string; patches: ReportPatch[] }[] = [];
  /** What the pusher-js client on node B received (a subscriber of the other node's sockets). */
  const onB: ReportPatch[] = [];
  /** Who sends each event: the node's name, set while it publishes. */
  const senders: string[] = [];
  let client: Pusher;
  let config: ReturnType<typeof testConfig>;
  let openDatabase: () => Promise<Database>;

  beforeAll(async () => {
    const fresh = await postgres!.fresh();
    cleanups.push(fresh.drop);
    config = testConfig({
      DEMO_REPLAY: 'false',
      SEED_BOSTON: 'false',
      REDIS_URL: url!,
      REALTIME_REDIS_PREFIX: `${prefix}rt:`,
      RESULTS_LEASE_REDIS_PREFIX: `${prefix}lease:`,
      RESULTS_LEASE_MS: String(LEASE_MS),
      RESULTS_PUBLISH_MS: '100',
    });
    openDatabase = fresh.open;
    const databases = [await fresh.open(), await fresh.open()];
    nodes = [];
    for (const database of databases) nodes.push(await buildApp(config, { database, logger: false }));
    cleanups.push(async () => {
      for (const node of nodes) await node.close();
      for (const database of databases) await database.close();
    });
    nodes.forEach((node, n) => {
      const name = n ? 'B' : 'A';
      const send = node.realtime.publish.bind(node.realtime);
      node.realtime.publish = async (channels, event, ...rest) => {
        if (event === RESULTS_EVENT && channels.includes(CHANNEL)) senders.push(name);
        return send(channels, event, ...rest);
      };
    });
    // The demo marks a few runners DNS; a read of one clears it (issue 26's front door), which
    // reloads the context from the node that stored it. These tests follow the live chain of
    // ordinary reads, so every runner here has started.
    await nodes[0]!.database.query(`UPDATE participants SET status = 'registered' WHERE status = 'DNS'`);
    for (const node of nodes) await node.results.reload(DEMO_DB);
    await repo.insertDevice(nodes[0]!.database, {
      db: DEMO_DB,
      name: 'finish',
      keyHash: hashKey(KEY),
      pointKey: 'finish',
    });
    const rows = await nodes[0]!.database.query<{ gun: number }>(
      "SELECT gun_time_ms::float8 AS gun FROM races WHERE id = 'city-10k'",
    );
    gun = rows[0]!.gun;

    // What goes over the bus: one message per event, whichever node sends it.
    watcher = new Redis(url!);
    cleanups.push(async () => {
      await watcher.quit();
      const r = new Redis(url!);
      const keys = await r.keys(`${prefix}*`);
      if (keys.length) await r.del(...keys);
      await r.quit();
    });
    watcher.on('message', (_channel: string, message: string) => {
      const envelope = JSON.parse(message) as Envelope;
      if (envelope.event !== RESULTS_EVENT || !envelope.channels.includes(CHANNEL)) return;
      const patches = unbundleResults(JSON.parse(envelope.data))
        .filter(([kind]) => kind === 'report-patch')
        .map(([, p]) => p as ReportPatch);
      heard.push({ from: senders.shift() ?? '?', patches });
    });
    await watcher.subscribe(`${prefix}rt:events`);

    // A browser's subscription on node B (its own sockets).
    const b = nodes[1]!;
    await b.listen({ port: 0, host: '127.0.0.1' });
    const port = (b.server.address() as AddressInfo).port;
    client = pusherClient({ app: b, port, config, close: () => b.close() });
    const { channel } = await subscribed(client, CHANNEL);
    channel.bind(RESULTS_EVENT, (data: unknown) => {
      for (const [kind, p] of unbundleResults(data)) if (kind === 'report-patch') onB.push(p as ReportPatch);
    });
    cleanups.push(async () => client.disconnect());
  }, 120_000);
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  });

  const post = async (app: FastifyInstance, passings: { bib: string; time: number }[]) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/ingest/passings',
      headers: { 'x-device-key': KEY, 'content-type': 'application/json' },
      payload: JSON.stringify({ passings }),
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { accepted: number };
  };
  const read = async (app: FastifyInstance, query = '') => {
    const res = await app.inject(`${LIVE1}${query}`);
    expect(res.statusCode).toBe(200);
    return res.json() as ReportTable;
  };
  const live1 = (patches: ReportPatch[]) =>
    patches.filter((p) => p.group === 'city-10k' && p.report === 'LIVE1');
  /** Folds patches into a table; fails on a patch that does not start from its version. */
  const fold = (table: ReportTable, patches: ReportPatch[]) => {
    let current = table;
    for (const patch of patches) {
      if (patch.version <= current.version && !('reload' in patch)) continue;
      expect('reload' in patch ? 'reload' : patch.fromVersion).toBe(current.version);
      const next = applyReportPatch(current, patch);
      expect(next).not.toBeNull();
      current = next!;
    }
    return current;
  };
  const finishers = (table: ReportTable) => table.rows.filter((r) => r[F.time]).length;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('publishes the changes of reads ingested on both nodes from one node, in one chain', async () => {
    const [a, b] = nodes as [FastifyInstance, FastifyInstance];
    // The first read makes node A the context's publisher; a subscriber reads on node B.
    await post(a, [{ bib: '700', time: gun + 50 * 60_000 }]);
    await eventually(() => heard.length > 0);
    const start = await read(b, '?fresh=1');
    const heardBefore = heard.length;
    const onBBefore = onB.length;
    let accepted = 1;
    for (let k = 0; k < 30; k++) {
      const batch = (n: number) =>
        Array.from({ length: 2 }, (_, j) => ({
          bib: String(701 + k * 4 + n * 2 + j),
          time: gun + (48 - k) * 60_000 + (n * 2 + j) * 1_000,
        }));
      // Interleaved: one node, the other, or both at once.
      if (k % 3 === 2) {
        const [x, y] = await Promise.all([post(a, batch(0)), post(b, batch(1))]);
        accepted += x.accepted + y.accepted;
      } else accepted += (await post(k % 3 ? b : a, batch(0))).accepted;
      await sleep((k * 37) % 120);
    }
    const [{ max }] = (await a.database.query<{ max: number }>(
      'SELECT max(seq)::int AS max FROM passings',
    )) as [{ max: number }];
    // Both nodes answer the last read's version once caught up; the subscriber's chain gets there.
    const atA = await read(a, `?minVersion=${max}`);
    const atB = await read(b, `?minVersion=${max}`);
    expect(atB.rows).toEqual(atA.rows);
    expect(finishers(atA)).toBe(accepted);
    await eventually(() => (live1(heard.flatMap((h) => h.patches)).at(-1)?.version ?? 0) >= atA.version);

    const events = heard.slice(heardBefore);
    // Exactly one node published, each change once.
    expect(new Set(heard.map((h) => h.from))).toEqual(new Set(['A']));
    const versions = live1(events.flatMap((e) => e.patches)).map((p) => p.version);
    expect(new Set(versions).size).toBe(versions.length);
    // Each patch starts where the previous one ended, from the table the subscriber read on B.
    const folded = fold(start, live1(events.flatMap((e) => e.patches)));
    expect(folded.version).toBe(atA.version);
    expect(folded.rows).toEqual(atA.rows);
    // The browser on node B received the same patches, in the same order.
    await eventually(() => onB.length - onBBefore >= events.flatMap((e) => e.patches).length);
    expect(fold(start, live1(onB.slice(onBBefore))).rows).toEqual(atA.rows);

    // A node that does not publish shows its own reads once the publisher has: its next read
    // waits for them (read-your-writes), a plain read included.
    await post(b, [{ bib: '1290', time: gun + 10 * 60_000 }]);
    expect((await read(b)).rows[0]![F.bib]).toBe('1290');
    expect(new Set(heard.map((h) => h.from))).toEqual(new Set(['A']));
  }, 120_000);

  it("sends each view's channel what it shows across nodes: a runner's reads, a table's top window (issue 28)", async () => {
    const [a, b] = nodes as [FastifyInstance, FastifyInstance];
    // pusher-js on node B holds a card, an idle card and a table at its top; node A publishes.
    const got = new Map<string, { patches: ReportPatch[]; bibs: string[] }>();
    const views = [
      liveChannels.runner(DEMO_DB, '731'),
      liveChannels.runner(DEMO_DB, '732'),
      liveChannels.reportTop(DEMO_DB, 'city-10k', 'LIVE1'),
    ];
    for (const name of views) {
      const seen = { patches: [] as ReportPatch[], bibs: [] as string[] };
      got.set(name, seen);
      const { channel } = await subscribed(client, name);
      channel.bind(RESULTS_EVENT, (data: unknown) => {
        for (const [kind, p] of unbundleResults(data))
          if (kind === 'report-patch') seen.patches.push(p as ReportPatch);
          else seen.bibs.push((p as { bib: string }).bib);
      });
    }
    const base = await read(b, '?fresh=1');
    // A new leader, then a runner far behind, each stored on either node.
    await post(a, [{ bib: '731', time: gun + 10 * 60_000 }]);
    await post(b, [{ bib: '733', time: gun + 70 * 60_000 }]);
    await eventually(() => got.get(views[0]!)!.bibs.length > 0 && got.get(views[2]!)!.patches.length > 0);
    await sleep(300);
    expect(got.get(views[0]!)!.bibs).toEqual(['731']);
    expect(got.get(views[1]!)!.bibs).toEqual([]);
    let table: ReportTable | null = base;
    for (const patch of got.get(views[2]!)!.patches) table = table && applyWindowPatch(table, patch);
    const now = await read(b, '?fresh=1');
    expect(table!.version).toBe(now.version);
    expect(table!.rows.slice(0, 30)).toEqual(now.rows.slice(0, 30));
    expect(now.rows.slice(0, 30).map((r) => r[F.bib])).toContain('731');
    for (const name of views) client.unsubscribe(name);
  });

  it('lets the other node take over when the publisher dies, losing no acknowledged read', async () => {
    const [a, b] = nodes as [FastifyInstance, FastifyInstance];
    const before = await read(b, '?fresh=1');
    let accepted = finishers(before);
    // Node A dies just after renewing its lease: the lease stays in Redis until it expires.
    const key = `${prefix}lease:${DEMO_DB}`;
    const holder = new Redis(url!);
    const value = await holder.get(key);
    expect(value).toBeTruthy();
    nodes = [b];
    await a.close();
    await holder.set(key, value!, 'PX', LEASE_MS);
    const died = Date.now();
    const heardBefore = heard.length;
    // Reads keep coming to node B: acknowledged at once, published once B holds the lease.
    for (let k = 0; k < 8; k++) {
      accepted += (await post(b, [{ bib: String(900 + k), time: gun + (20 - k) * 60_000 }])).accepted;
      await sleep(150);
    }
    await eventually(() => heard.length > heardBefore, 15_000);
    const takeover = Date.now() - died;
    const [{ max }] = (await b.database.query<{ max: number }>(
      'SELECT max(seq)::int AS max FROM passings',
    )) as [{ max: number }];
    const after = await read(b, `?minVersion=${max}`);
    expect(finishers(after)).toBe(accepted);
    expect(new Set(heard.slice(heardBefore).map((h) => h.from))).toEqual(new Set(['B']));
    // The subscriber's chain after the takeover: at most one refetch, then it folds to the end.
    await eventually(() => (live1(heard.flatMap((h) => h.patches)).at(-1)?.version ?? 0) >= after.version);
    const patches = live1(heard.slice(heardBefore).flatMap((h) => h.patches));
    let table = before;
    if (patches[0] && ('reload' in patches[0] || patches[0].fromVersion !== table.version))
      table = await read(b, `?minVersion=${patches[0].version}`);
    expect(fold(table, patches).rows).toEqual(after.rows);
    console.info(`publisher takeover: ${takeover} ms after the holder died (lease ${LEASE_MS} ms)`);
    await holder.quit();
  }, 120_000);

  it('hands the context over at once when the publisher stops cleanly', async () => {
    const [b] = nodes as [FastifyInstance];
    const database = await openDatabase();
    const c = await buildApp(config, { database, logger: false });
    cleanups.push(async () => {
      await c.close();
      await database.close();
    });
    const send = c.realtime.publish.bind(c.realtime);
    c.realtime.publish = async (channels, event, ...rest) => {
      if (event === RESULTS_EVENT && channels.includes(CHANNEL)) senders.push('C');
      return send(channels, event, ...rest);
    };
    // A browser on node C watches the context (issue 28: a node publishes only to channels
    // someone holds; once B stops, its own subscriber is gone).
    await c.listen({ port: 0, host: '127.0.0.1' });
    const onC = pusherClient({
      app: c,
      port: (c.server.address() as AddressInfo).port,
      config,
      close: async () => undefined,
    });
    cleanups.unshift(async () => onC.disconnect());
    await subscribed(onC, CHANNEL);
    // Node C follows node B (the publisher since the takeover).
    await post(c, [{ bib: '1000', time: gun + 15 * 60_000 }]);
    expect((await read(c)).rows.some((r) => r[F.bib] === '1000')).toBe(true);
    const key = `${prefix}lease:${DEMO_DB}`;
    const redis = new Redis(url!);
    expect(await redis.get(key)).toBeTruthy();
    const heardBefore = heard.length;
    // B stops (SIGTERM): it publishes what it holds and gives the lease back, and says so.
    await b.close();
    nodes = [];
    expect(await redis.get(key)).toBeNull();
    const stopped = Date.now();
    // C asked for the lease moments ago (it was B's until its expiry): told that B gave it back, C
    // takes it with its next read, not once that expiry has passed.
    await sleep(100);
    await post(c, [{ bib: '1001', time: gun + 5 * 60_000 }]);
    expect(await redis.get(key)).toBeTruthy();
    await eventually(() => heard.slice(heardBefore).some((h) => h.from === 'C'));
    console.info(`clean handover: ${Date.now() - stopped} ms after the publisher stopped`);
    expect((await read(c)).rows[0]![F.bib]).toBe('1001');
    await redis.quit();
  }, 120_000);
});
