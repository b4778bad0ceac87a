import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, testConfig } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';
import { F } from './report-builder.ts';
import * as repo from './repository.ts';
import { hashKey } from './service.ts';

// Issue 20: two nodes on one database. A reader on node B holding a patch's version must never be
// answered from a state older than that version, and writers on both nodes must never leave a
// node skipping a passing (seq order is commit order within a context).
const LIVE1 = '/api/results/demo-city-run/groups/city-10k/reports/LIVE1';
const KEY = 'tdk_nodes_test_key_0001';

describe.each(backends().map((b) => [b.name, b] as const))('two nodes on %s', (_name, backend) => {
  const cleanups: (() => Promise<void>)[] = [];
  let a: FastifyInstance;
  let b: FastifyInstance;
  let gun: number;

  beforeAll(async () => {
    const fresh = await backend.fresh();
    cleanups.push(fresh.drop);
    const first = await fresh.open();
    // PostgreSQL: each node has its own connection pool, as two processes would. PGlite is
    // single-process: both nodes share the one database object.
    const second = backend.name === 'postgres' ? await fresh.open() : first;
    const config = testConfig({ DEMO_REPLAY: 'false', SEED_BOSTON: 'false' });
    a = await buildApp(config, { database: first, logger: false });
    b = await buildApp(config, { database: second, logger: false });
    // Nodes share their internal events in production (Redis): here the two local hubs are
    // bridged, so a change one node makes (a read clearing a runner's DNS) reaches the other.
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const)
      from.realtime.onInternal('results-invalidate', (data) => {
        if (!data.endsWith(' relayed'))
          void to.realtime.broadcastInternal('results-invalidate', `${data} relayed`);
      });
    cleanups.push(async () => {
      await a.close();
      await b.close();
      await first.close();
      if (second !== first) await second.close();
    });
    await repo.insertDevice(a.database, {
      db: DEMO_DB,
      name: 'finish',
      keyHash: hashKey(KEY),
      pointKey: 'finish',
    });
    const rows = await a.database.query<{ gun: number }>(
      "SELECT gun_time_ms::float8 AS gun FROM races WHERE id = 'city-10k'",
    );
    gun = rows[0]!.gun;
  });
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  const post = (app: FastifyInstance, passings: { bib: string; time: number }[]) =>
    app.inject({
      method: 'POST',
      url: '/api/ingest/passings',
      headers: { 'x-device-key': KEY, 'content-type': 'application/json' },
      payload: JSON.stringify({ passings }),
    });
  const read = async (app: FastifyInstance, query = '') => {
    const res = await app.inject(`${LIVE1}${query}`);
    expect(res.statusCode).toBe(200);
    return res.json() as { version: number; rows: unknown[][] };
  };

  it('answers a read asking for a version only once the node has reached it', async () => {
    // Warm both nodes: node B has just caught up, so a plain read would not look again.
    await post(a, [{ bib: '150', time: gun + 50 * 60_000 }]);
    await read(a);
    await read(b);
    for (let k = 0; k < 5; k++) {
      // Each new leader is faster than the last; posted to A, read at once from B.
      const bib = String(200 + k);
      expect((await post(a, [{ bib, time: gun + (40 - k) * 60_000 }])).statusCode).toBe(200);
      const atA = await read(a);
      expect(atA.rows[0]![F.bib]).toBe(bib);
      const atB = await read(b, `?minVersion=${atA.version}`);
      expect(atB.version).toBeGreaterThanOrEqual(atA.version);
      expect(atB.rows[0]![F.bib]).toBe(bib);
    }
  });

  it('answers a fresh read (the first after subscribing) with every change stored before it', async () => {
    for (let k = 0; k < 5; k++) {
      // Node B has just caught up: a plain read would not look again for a while.
      await read(b);
      const bib = String(250 + k);
      expect((await post(a, [{ bib, time: gun + (30 - k) * 60_000 }])).statusCode).toBe(200);
      // The client knows no version (it heard nothing before subscribing): it asks for fresh.
      const atB = await read(b, '?fresh=1&offset=0&limit=1');
      expect(atB.rows[0]![F.bib]).toBe(bib);
    }
    const bad = await b.inject(`${LIVE1}?fresh=yes`);
    expect(bad.statusCode).toBe(400);
  });

  it('refuses a bad minVersion with a problem, and does not wait for ever on one never reached', async () => {
    const bad = await b.inject(`${LIVE1}?minVersion=-1`);
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
    const started = Date.now();
    const far = await read(b, '?minVersion=999999999');
    expect(far.version).toBeLessThan(999999999);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('agrees on every passing when both nodes write concurrently', async () => {
    const batches = Array.from({ length: 40 }, (_, k) =>
      Array.from({ length: 10 }, (_, j) => ({
        bib: String(300 + k * 10 + j),
        time: gun + 45 * 60_000 + (k * 10 + j) * 1_000,
      })),
    );
    const answers = await Promise.all(batches.map((batch, k) => post(k % 2 ? b : a, batch)));
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    const [count] = await a.database.query<{ n: number; max: number }>(
      'SELECT count(*)::int AS n, max(seq)::int AS max FROM passings',
    );
    const atA = await read(a, `?minVersion=${count!.max}`);
    const atB = await read(b, `?minVersion=${count!.max}`);
    expect(atA.rows.map((r) => r[F.bib])).toEqual(atB.rows.map((r) => r[F.bib]));
    const finished = (rows: unknown[][]) => rows.filter((r) => r[F.time]).length;
    expect(finished(atB.rows)).toBe(count!.n);
  });
});
