import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, memoryDatabase, testConfig } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import type { Database } from '../../db/database.ts';
import { parseCsv } from '../../lib/csv.ts';
import { repoRoot } from '../../paths.ts';
import { F } from './report-builder.ts';
import { currentStamp, openSnapshot, SNAPSHOT_CHUNK } from './report-snapshots.ts';
import * as repo from './repository.ts';
import { hashKey } from './service.ts';
import { importBoston } from './setup.ts';

// Issue 27, first open after a restart: a finished event's tables are stored as a snapshot named
// by the context's stamp; a restarted node answers from it without loading the state, and any
// change (on any node) renames the state so the snapshot is never served again.
const DB = 'boston';
const LIVE1 = '/api/results/snap/groups/boston-2017/reports/LIVE1';
const KEY = 'tdk_snapshot_test_key_01';

interface Table {
  version: number;
  total: number;
  rows: unknown[][];
  columns: unknown[];
  title: unknown;
}

describe.each(backends().map((b) => [b.name, b] as const))('report snapshots on %s', (_name, backend) => {
  const cleanups: (() => Promise<void>)[] = [];
  let database: Database;
  let config: ReturnType<typeof testConfig>;
  let first: FastifyInstance;
  let expected: Table;

  /** A node on the shared database: a restart of the first, or another node of a cluster. */
  const node = async () => {
    const app = await buildApp(config, { database, logger: false });
    cleanups.push(() => app.close());
    return app;
  };
  const post = (
    app: FastifyInstance,
    passings: { bib: string; time: number; point: string; deleted?: boolean }[],
  ) =>
    app.inject({
      method: 'POST',
      url: '/api/ingest/passings',
      headers: { 'x-device-key': KEY, 'content-type': 'application/json' },
      payload: JSON.stringify({ passings }),
    });

  beforeAll(async () => {
    const fresh = await backend.fresh();
    // PGlite: the in-memory one, from the initdb dump (a fresh directory's initdb is slow).
    database = backend.name === 'pglite' ? await memoryDatabase() : await fresh.open();
    cleanups.push(async () => {
      await database.close();
      await fresh.drop();
    });
    // No demo: its seeding in the plugin does not fit the plugin's start time on a loaded machine.
    config = testConfig({ SEED_DEMO: 'false' });
    first = await node();
    await database.query(
      `INSERT INTO organisations (id, slug, name) VALUES ('00000000-0000-4000-8000-0000000000aa', 'snap', 'Snap')`,
    );
    await database.query(
      `INSERT INTO events (id, organisation_id, name, start_date, end_date, status)
       VALUES ('snap', '00000000-0000-4000-8000-0000000000aa', 'Snap', '2017-04-17', '2017-04-17', 'finished')`,
    );
    await repo.insertContext(database, { db: DB, eventId: 'snap', name: 'Boston' });
    // The first 1,500 runners of Boston 2017: more than one chunk of a snapshot.
    const text = fs.readFileSync(path.join(repoRoot, 'fixtures/boston-2017.csv'), 'utf8');
    const csv = await parseCsv(text.split('\n').slice(0, 1_501).join('\n'));
    await database.transaction((sql) => importBoston(sql, DB, csv));
    await repo.insertDevice(database, { db: DB, name: 'finish', keyHash: hashKey(KEY), pointKey: null });
    // Loading the finished context stores its snapshot; these rows come from the live state.
    const res = await first.inject(LIVE1);
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).not.toMatch(/^"s/);
    expected = res.json() as Table;
    await first.results.snapshotsWritten();
    await first.close();
  }, 300_000);
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  });

  it('answers health before a report after a restart, with the rows computed without the snapshot', async () => {
    const stamp = await currentStamp(database, DB);
    expect(await openSnapshot(database, DB, stamp!.key)).not.toBeNull();
    const restarted = await node();
    const order: string[] = [];
    const [report, health] = await Promise.all([
      restarted.inject(LIVE1).then((r) => {
        order.push('report');
        return r;
      }),
      restarted.inject('/api/health').then((r) => {
        order.push('health');
        return r;
      }),
    ]);
    expect(order).toEqual(['health', 'report']);
    expect(health.statusCode).toBe(200);
    expect(report.statusCode).toBe(200);
    // Answered from the snapshot (its tags start with "s"), the state not loaded.
    expect(report.headers.etag).toMatch(/^"s/);
    const table = report.json() as Table;
    expect(table.rows).toEqual(expected.rows);
    expect(table.total).toBe(expected.total);
    expect(table.columns).toEqual(expected.columns);
    expect(table.version).toBe(expected.version);
    expect(table.rows.length).toBe(1_500);
    // A page reads the chunks holding it; a search finds what the state's search finds.
    const page = (await restarted.inject(`${LIVE1}?offset=2&limit=5`)).json() as Table;
    expect(page.rows).toEqual(expected.rows.slice(2, 7));
    expect(page.total).toBe(expected.total);
    const far = (await restarted.inject(`${LIVE1}?offset=${SNAPSHOT_CHUNK - 2}&limit=4`)).json() as Table;
    expect(far.rows).toEqual(expected.rows.slice(SNAPSHOT_CHUNK - 2, SNAPSHOT_CHUNK + 2));
    const bib = String(expected.rows[3]![F.bib]);
    const search = (await restarted.inject(`${LIVE1}?q=${bib}`)).json() as Table;
    expect(search.rows[0]![F.bib]).toBe(bib);
    // A version the snapshot has not reached is answered from the state.
    const ahead = await restarted.inject(`${LIVE1}?minVersion=${expected.version + 1}&limit=1`);
    expect(ahead.headers.etag).not.toMatch(/^"s/);
  }, 120_000);

  it('is ready after a restart once the first screen is warm: first page, event and report list', async () => {
    // Issue 41: every statement the restarted node runs, in order.
    const statements: string[] = [];
    const counted = new Proxy(database, {
      get(target, key) {
        if (key === 'query')
          return (text: string, params?: unknown[]) => {
            statements.push(text);
            return target.query(text, params);
          };
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const restarted = await buildApp(config, { database: counted, logger: false });
    cleanups.push(() => restarted.close());
    await restarted.listen({ port: 0, host: '127.0.0.1' });
    // Not ready before the finished event's first screen is warm (read from its snapshot)…
    expect(restarted.readiness.pending()).toContain('finished results');
    for (let k = 0; k < 1_500 && restarted.readiness.pending().length; k++)
      await new Promise((r) => setTimeout(r, 20));
    expect(restarted.readiness.pending()).toEqual([]);
    expect((await restarted.inject('/api/ready')).statusCode).toBe(200);
    // …then a spectator's first page is answered without reading the snapshot's rows again (it
    // was encoded once by the warm-up), from the snapshot, the state never loaded.
    statements.length = 0;
    const first = await restarted.inject({
      url: `${LIVE1}?offset=0&limit=100`,
      headers: { 'accept-encoding': 'br' },
    });
    expect(first.statusCode).toBe(200);
    expect(first.headers.etag).toMatch(/^"s/);
    expect(statements.filter((q) => q.includes('report_snapshots'))).toEqual([]);
    const page = (await restarted.inject(`${LIVE1}?offset=0&limit=100`)).json() as Table;
    expect(page.rows).toEqual(expected.rows.slice(0, 100));
    // The event's detail asks no catalogue (a table, once there, stays) and its tiles in one
    // statement: five statements where there were seventeen.
    statements.length = 0;
    const event = await restarted.inject('/api/events/snap');
    expect(event.statusCode).toBe(200);
    expect(statements.filter((q) => q.includes('to_regclass'))).toEqual([]);
    expect(statements.filter((q) => q.includes('EXISTS ('))).toHaveLength(1);
    expect(event.json().available).toEqual({
      photos: false,
      stream: false,
      map: false,
      info: false,
      groupEntry: false,
    });
    // The report list: its groups and their reports in one statement (two per context before).
    statements.length = 0;
    const list = await restarted.inject('/api/results/snap/reportlist');
    expect(list.statusCode).toBe(200);
    expect(list.json().groups).toEqual([
      {
        key: 'boston-2017',
        db: DB,
        name: expect.objectContaining({ en: expect.any(String) }),
        reports: expect.arrayContaining([{ key: 'LIVE1', name: expected.title }]),
      },
    ]);
    expect(
      statements.filter((q) => /report_groups|FROM reports WHERE db = \$1\s+ORDER/.test(q)),
    ).toHaveLength(1);
  }, 120_000);

  it('is never served once a correction or a status change was made on another node', async () => {
    const other = await node();
    const restarted = await node();
    // Node `restarted` serves the snapshot…
    const servedBefore = String((await restarted.inject(`${LIVE1}?limit=1`)).headers.etag);
    expect(servedBefore).toMatch(/^"s/);
    /** The snapshot an answer came from (its stamp), '' when it came from the state. */
    const snapshotOf = (etag: unknown) =>
      String(etag).startsWith('"s') ? String(etag).split('-boston-2017%2FLIVE1-')[0] : '';
    const before = await currentStamp(database, DB);
    // …until the other node voids the leader's finish (a correction is a new passing).
    const leader = expected.rows[0]!;
    const [{ time, point }] = (await database.query<{ time: number; point: string }>(
      'SELECT time_ms::float8 AS time, point_key AS point FROM passings WHERE bib = $1 ORDER BY time_ms DESC LIMIT 1',
      [leader[F.bib]],
    )) as [{ time: number; point: string }];
    const voided = await post(other, [{ bib: String(leader[F.bib]), time, point, deleted: true }]);
    expect(voided.statusCode).toBe(200);
    const afterCorrection = await currentStamp(database, DB);
    expect(afterCorrection!.key).not.toBe(before!.key);
    const res = await restarted.inject(`${LIVE1}?fresh=1`);
    // Never the snapshot of the state before the correction. One stored since for the new stamp
    // may answer: the other node loaded the context to take the correction after storing it, and
    // stored the corrected state's snapshot (written in the background: the check above can run
    // before it is) — its rows are checked below.
    expect(snapshotOf(res.headers.etag)).not.toBe(snapshotOf(servedBefore));
    const table = res.json() as Table;
    expect(table.rows[0]![F.key]).not.toBe(leader[F.key]);
    // A status change stored by any writer moves the stamp too (a trigger, same transaction)…
    await database.query(
      "UPDATE participants SET status = 'DSQ' WHERE race_id = 'boston-2017' AND bib = $1",
      [String(expected.rows[1]![F.bib])],
    );
    const afterStatus = await currentStamp(database, DB);
    expect(afterStatus!.key).not.toBe(afterCorrection!.key);
    // …but refreshing a runner's search column does not.
    await database.query(
      "UPDATE participants SET search_folded = 'x' WHERE race_id = 'boston-2017' AND bib = $1",
      [String(expected.rows[5]![F.bib])],
    );
    expect((await currentStamp(database, DB))!.key).toBe(afterStatus!.key);
  }, 120_000);
});
