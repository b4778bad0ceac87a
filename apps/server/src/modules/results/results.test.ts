import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { RESULTS_EVENT, unbundleResults } from '@tempora/contracts';
import { importBostonTable } from '@tempora/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { parseCsv } from '../../lib/csv.ts';
import { rawSubscriber } from '../../realtime/test-harness.ts';
import { DEMO_DB, DEMO_RUNNERS } from '../../seed/demo-races.ts';
import { F } from './report-builder.ts';
import * as repo from './repository.ts';
import { hashKey } from './service.ts';
import { importBoston } from './setup.ts';

const LIVE1 = '/api/results/demo-city-run/groups/city-10k/reports/LIVE1';
const DEVICE_KEY = 'tdk_test_device_key_123456';

async function table(app: FastifyInstance, url = LIVE1) {
  const res = await app.inject(url);
  expect(res.statusCode).toBe(200);
  return res.json() as { version: number; rows: unknown[][]; total: number; columns: { FieldIdx: number }[] };
}

function post(
  app: FastifyInstance,
  body: unknown,
  headers: Record<string, string> = { 'x-device-key': DEVICE_KEY },
) {
  return app.inject({
    method: 'POST',
    url: '/api/ingest/passings',
    headers: { ...headers, 'content-type': typeof body === 'string' ? 'text/csv' : 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('results API on the demo race', () => {
  let app: FastifyInstance;
  let gun: number;
  beforeAll(async () => {
    app = await buildTestApp();
    await repo.insertDevice(app.database, {
      db: DEMO_DB,
      name: 'finish mat',
      keyHash: hashKey(DEVICE_KEY),
      pointKey: 'finish',
    });
    const rows = await app.database.query<{ gun: number }>(
      "SELECT gun_time_ms::float8 AS gun FROM races WHERE id = 'city-10k'",
    );
    gun = rows[0]!.gun;
    // Listening: the tests of what is published subscribe as clients do (issue 28: only occupied
    // channels get anything).
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  /** A WebSocket subscriber of the context's firehose (`results-{db}`). */
  const firehose = () =>
    rawSubscriber({ port: (app.server.address() as AddressInfo).port, config: app.config }, [
      `results-${DEMO_DB}`,
    ]);

  it('lists the report groups and reports of an event', async () => {
    const res = await app.inject('/api/results/demo-city-run/reportlist');
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.groups[0].key).toBe('city-10k');
    expect(list.groups[0].reports.map((r: { key: string }) => r.key)).toEqual(
      expect.arrayContaining(['LIVE1', 'LIVE2', 'LIVE3', 'LAST', 'START', 'CAT-F18']),
    );
    expect((await app.inject('/api/results/nope/reportlist')).statusCode).toBe(404);
  });

  it('never serves one report for another, though they share a version', async () => {
    const base = '/api/results/demo-city-run/groups/city-10k/reports';
    const women = await app.inject(`${base}/LIVE2`);
    const last = await app.inject(`${base}/LAST`);
    const byContext = await app.inject(`/api/results/contexts/${DEMO_DB}/reports/LIVE3`);
    expect(women.json().version).toBe(last.json().version);
    expect([women.json().report, last.json().report, byContext.json().report]).toEqual([
      'LIVE2',
      'LAST',
      'LIVE3',
    ]);
    expect(new Set([women.headers.etag, last.headers.etag, byContext.headers.etag]).size).toBe(3);
    // Again, from the encoded-body cache.
    expect((await app.inject(`${base}/LAST`)).json().report).toBe('LAST');
  });

  it('serves the start list with every participant and spec column definitions', async () => {
    const start = await table(app, '/api/results/demo-city-run/groups/city-10k/reports/START');
    expect(start.total).toBe(DEMO_RUNNERS);
    expect(start.rows[0]![2]).toBe('101');
    const live = await table(app);
    for (const c of live.columns)
      expect(Object.keys(c)).toEqual(
        expect.arrayContaining([
          'FieldIdx',
          'Colspan',
          'Bold',
          'Italic',
          'Alignment',
          'UrlColumnIdx',
          'Settings',
        ]),
      );
  });

  it('refuses ingest without a known device key, and bad lines, storing nothing', async () => {
    expect((await post(app, { passings: [{ bib: '101', time: gun + 1 }] }, {})).statusCode).toBe(401);
    expect(
      (
        await post(
          app,
          { passings: [{ bib: '101', time: gun + 1 }] },
          { 'x-device-key': 'tdk_wrong_key_000000' },
        )
      ).statusCode,
    ).toBe(401);
    const bad = await post(app, `C00101;${gun + 1};finish\nnot a line`);
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
    expect(bad.json().errors[0].field).toBe('line 2');
    const invalid = await post(app, { passings: [{ time: 'yesterday' }] });
    expect(invalid.statusCode).toBe(400);
    const stored = await app.database.query<{ n: number }>('SELECT count(*)::int AS n FROM passings');
    expect(stored[0]!.n).toBe(0);
  });

  it('acknowledges durable, idempotent reads and ranks them whatever their order', async () => {
    const reads = [
      { bib: '103', time: gun + 40 * 60_000 },
      { bib: '101', time: gun + 35 * 60_000 },
      { bib: '102', time: gun + 38 * 60_000 },
    ];
    const first = await post(app, { passings: reads });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ accepted: 3, duplicates: 0 });
    const again = await post(app, { passings: [reads[1]] });
    expect(again.json()).toEqual({ accepted: 0, duplicates: 1 });
    const live = await table(app);
    expect(live.rows.slice(0, 3).map((r) => [r[F.bib], r[F.rank], r[F.time]])).toEqual([
      ['101', '1', 35 * 60_000],
      ['102', '2', 38 * 60_000],
      ['103', '3', 40 * 60_000],
    ]);
    const count = await app.database.query<{ n: number }>('SELECT count(*)::int AS n FROM passings');
    expect(count[0]!.n).toBe(3);
  });

  it('takes CSV lines from a decoder (chip;time;point)', async () => {
    const csv = `C00104;${new Date(gun + 36 * 60_000).toISOString()};finish\n`;
    expect((await post(app, csv)).json()).toEqual({ accepted: 1, duplicates: 0 });
    const live = await table(app);
    expect(live.rows.slice(0, 4).map((r) => r[F.bib])).toEqual(['101', '104', '102', '103']);
  });

  it('answers 304 to a matching ETag and a new version after a change', async () => {
    const res = await app.inject(LIVE1);
    const etag = res.headers.etag as string;
    expect((await app.inject({ url: LIVE1, headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    await post(app, { passings: [{ bib: '105', time: gun + 50 * 60_000 }] });
    const after = await app.inject({ url: LIVE1, headers: { 'if-none-match': etag } });
    expect(after.statusCode).toBe(200);
    expect(after.json().version).toBeGreaterThan(res.json().version);
  });

  it('searches by name and bib with the exact bib first, and pages', async () => {
    const hits = await app.inject('/api/results/contexts/demo-city-run-10k/participants?q=110');
    expect(hits.json()[0].bib).toBe('110');
    const page = await table(app, `${LIVE1}?offset=1&limit=2`);
    expect(page.rows).toHaveLength(2);
    expect(page.total).toBe(DEMO_RUNNERS);
    const search = await table(app, `${LIVE1}?q=102`);
    expect(search.rows[0]![F.bib]).toBe('102');
  });

  it('publishes row patches with versions on the context channel', async () => {
    const seen: { event: string; data: unknown }[] = [];
    const original = app.realtime.publish.bind(app.realtime);
    const spy = async (channels: string[], event: string, data: unknown) => {
      // One `results` bundle per change: its patches and reads (issue 20).
      if (channels.includes(`results-${DEMO_DB}`) && event === RESULTS_EVENT)
        for (const [e, d] of unbundleResults(data)) seen.push({ event: e, data: d });
    };
    // Read as a subscriber does (`fresh`): what earlier tests changed is published first.
    const before = (await table(app, `${LIVE1}?fresh=1`)).version;
    const subscriber = await firehose();
    Object.assign(app.realtime, {
      publish: async (c: string[], e: string, d: unknown) => {
        await spy(c, e, d);
        return original(c, e, d);
      },
    });
    try {
      await post(app, { passings: [{ bib: '106', time: gun + 55 * 60_000 }] });
      // Published with the rest of its window (RESULTS_PUBLISH_MS): now, for the test.
      await app.results.settle(DEMO_DB);
    } finally {
      Object.assign(app.realtime, { publish: original });
      subscriber.ws.close();
    }
    const patch = seen.find(
      (s) => s.event === 'report-patch' && (s.data as { report: string }).report === 'LIVE1',
    )?.data as {
      fromVersion: number;
      version: number;
      upserts: unknown[][];
    };
    expect(patch.fromVersion).toBe(before);
    expect(patch.upserts.map((r) => r[F.bib])).toContain('106');
    expect(seen.some((s) => s.event === 'passing')).toBe(true);
  });

  it('keeps last-passings patches as small as the change, and exact', async () => {
    const LAST = LIVE1.replace('LIVE1', 'LAST');
    // More reads than the report shows, so older rows have left its window.
    const many = Array.from({ length: 60 }, (_, k) => ({
      bib: String(130 + k),
      time: gun + 60 * 60_000 + k,
    }));
    await post(app, { passings: many });
    // As a subscriber reads it (`fresh`): the version the next patch starts from.
    const before = await table(app, `${LAST}?fresh=1`);
    const seen: unknown[] = [];
    const original = app.realtime.publish.bind(app.realtime);
    const subscriber = await firehose();
    Object.assign(app.realtime, {
      publish: async (c: string[], e: string, d: unknown) => {
        for (const [name, p] of e === RESULTS_EVENT ? unbundleResults(d) : [])
          if (name === 'report-patch' && (p as { report: string }).report === 'LAST') seen.push(p);
        return original(c, e, d);
      },
    });
    try {
      await post(app, { passings: [{ bib: '200', time: gun + 61 * 60_000 }] });
      await app.results.settle(DEMO_DB);
    } finally {
      Object.assign(app.realtime, { publish: original });
      subscriber.ws.close();
    }
    const patch = seen[0] as { fromVersion: number; upserts: unknown[][]; removes: string[] };
    expect(patch.fromVersion).toBe(before.version);
    expect(patch.upserts).toHaveLength(1);
    expect(patch.removes).toHaveLength(1);
    const after = await table(app, LAST);
    const patched = new Set(before.rows.map((r) => String(r[0])));
    for (const key of patch.removes) patched.delete(key);
    for (const row of patch.upserts) patched.add(String(row[0]));
    expect([...patched].sort()).toEqual(after.rows.map((r) => String(r[0])).sort());
  });

  it('gives an athlete card by tracking key, with ranks and a prediction for runners on course', async () => {
    const rows = await app.database.query<{ key: string }>(
      "SELECT tracking_key AS key FROM participants WHERE bib = '101'",
    );
    const card = (await app.inject(`/api/tracking/${rows[0]!.key}`)).json();
    expect(card.athlete.bib).toBe('101');
    expect(card.status).toBe('finished');
    expect(card.splits.at(-1).rankOverall).toBe(1);
    expect((await app.inject('/api/tracking/unknown-key')).statusCode).toBe(404);
  });

  it('names timing points in both languages: the card and the split columns (issue 19, French complete)', async () => {
    const rows = await app.database.query<{ key: string }>(
      "SELECT tracking_key AS key FROM participants WHERE bib = '101'",
    );
    const card = (await app.inject(`/api/tracking/${rows[0]!.key}`)).json();
    const names = card.race.points.map((p: { name: string; nameFr: string }) => [p.name, p.nameFr]);
    expect(names).toContainEqual(['2.5 km', '2,5 km']);
    expect(names).toContainEqual(['5 km', '5 km']);
    expect(names.at(-1)).toEqual(['Finish', 'Arrivée']);
    const table = (await app.inject('/api/results/demo-city-run/groups/city-10k/reports/LIVE1')).json();
    const titles = table.columns.map((c: { Title: { en: string; fr: string } }) => c.Title);
    expect(titles).toContainEqual({ en: '2.5 km', fr: '2,5 km' });
    expect(titles).toContainEqual({ en: '7.5 km', fr: '7,5 km' });
  });

  it('refuses organiser calls from anonymous callers', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/devices`,
      payload: { name: 'x' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('keeps acknowledged reads across a rebuild from the database, with the same tables', async () => {
    const last = '/api/results/demo-city-run/groups/city-10k/reports/LAST';
    const before = [(await table(app)).rows, (await table(app, last)).rows];
    expect(before[1]!.length).toBeGreaterThan(0);
    // Rebuilt by one full recompute of the stored reads, not passing by passing.
    await app.results.reload(DEMO_DB);
    const live = await table(app);
    expect(live.rows[0]![F.bib]).toBe('101');
    expect([live.rows, (await table(app, last)).rows]).toEqual(before);
  });
});

describe('Boston 2017 through the import and the reports API', () => {
  it('ranks every untied runner as the official overall, gender and division columns', async () => {
    const csv = await parseCsv(
      fs.readFileSync(new URL('../../../../../fixtures/boston-2017.csv', import.meta.url), 'utf8'),
    );
    const app = await buildTestApp({ SEED_DEMO: 'false' });
    try {
      await app.database.query(
        `INSERT INTO organisations (id, slug, name) VALUES ('00000000-0000-4000-8000-0000000000b0', 'baa', 'B.A.A.')`,
      );
      await app.database.query(
        `INSERT INTO events (id, organisation_id, name, start_date, end_date) VALUES ('boston', '00000000-0000-4000-8000-0000000000b0', 'Boston', '2017-04-17', '2017-04-17')`,
      );
      await app.database.query(
        `INSERT INTO contexts (db, event_id, name) VALUES ('boston-2017', 'boston', 'Marathon')`,
      );
      await app.database.transaction((sql) => importBoston(sql, 'boston-2017', csv));
      const res = await app.inject({
        url: '/api/results/boston/groups/boston-2017/reports/LIVE1',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(res.headers['content-encoding']).toBe('gzip');
      const overall = (await app.inject('/api/results/boston/groups/boston-2017/reports/LIVE1')).json()
        .rows as unknown[][];
      const women = (await app.inject('/api/results/boston/groups/boston-2017/reports/LIVE2')).json()
        .rows as unknown[][];
      const { official } = importBostonTable(csv);
      expect(overall.length).toBe(official.length);
      // Official ranks skip missing finishers: compare positions among the ranks present.
      const byBib = new Map(overall.map((r) => [String(r[F.bib]), r]));
      const position = (values: number[]) => {
        const sorted = [...values].sort((a, b) => a - b);
        return (v: number) => sorted.indexOf(v) + 1;
      };
      const time = new Map<number, number>();
      for (const o of official) time.set(o.officialTimeMs, (time.get(o.officialTimeMs) ?? 0) + 1);
      const overallPos = position(official.map((o) => o.overall));
      let checked = 0;
      for (const o of official) {
        if (time.get(o.officialTimeMs) !== 1) continue;
        const row = byBib.get(o.bib)!;
        expect(Number(row[F.rank])).toBe(overallPos(o.overall));
        checked++;
      }
      expect(checked).toBeGreaterThan(3000);
      expect(women.every((r) => r[F.rankGender] === r[F.rank] || r[F.rank] !== '')).toBe(true);
      // Gender and division ranks for untied runners in their group.
      for (const [field, pick, group] of [
        [
          F.rankGender,
          (o: (typeof official)[number]) => o.gender,
          (r: unknown[]) => String(r[F.category]).slice(0, 1),
        ],
        [
          F.rankCategory,
          (o: (typeof official)[number]) => o.division,
          (r: unknown[]) => String(r[F.category]),
        ],
      ] as const) {
        const groups = new Map<string, (typeof official)[number][]>();
        for (const o of official) {
          const g = group(byBib.get(o.bib)!);
          groups.set(g, [...(groups.get(g) ?? []), o]);
        }
        let exact = 0;
        for (const members of groups.values()) {
          const pos = position(members.map(pick));
          const times = new Map<number, number>();
          for (const m of members) times.set(m.officialTimeMs, (times.get(m.officialTimeMs) ?? 0) + 1);
          for (const m of members) {
            if (times.get(m.officialTimeMs) !== 1) continue;
            expect(Number(byBib.get(m.bib)![field])).toBe(pos(pick(m)));
            exact++;
          }
        }
        expect(exact).toBeGreaterThan(6000);
      }
    } finally {
      await app.close();
    }
  }, 300_000); // Boston (26,410 rows) on a shared 2-core machine running other files beside it
});

describe('live views API', () => {
  it('ranks clubs as teams and opens a team or an athlete by an opaque token', async () => {
    const app = await buildTestApp();
    try {
      await repo.insertDevice(app.database, {
        db: DEMO_DB,
        name: 'finish',
        keyHash: hashKey(DEVICE_KEY),
        pointKey: 'finish',
      });
      const [{ gun }] = (await app.database.query<{ gun: number }>(
        "SELECT gun_time_ms::float8 AS gun FROM races WHERE id = 'city-10k'",
      )) as [{ gun: number }];
      const people = await app.database.query<{ bib: string; club: string; trackingKey: string }>(
        `SELECT bib, club, tracking_key AS "trackingKey" FROM participants WHERE race_id = 'city-10k' AND club <> '' ORDER BY bib`,
      );
      const clubs = [...new Set(people.map((p) => p.club))];
      const [a, b] = clubs as [string, string];
      const ofA = people.filter((p) => p.club === a).slice(0, 3);
      const ofB = people.filter((p) => p.club === b).slice(0, 3);
      // Club A's three finish in 40, 41, 42 min; club B's in 39, 45, 46: A wins on the sum.
      const reads = [
        ...ofA.map((p, k) => ({ bib: p.bib, time: gun + (40 + k) * 60_000 })),
        ...ofB.map((p, k) => ({ bib: p.bib, time: gun + [39, 45, 46][k]! * 60_000 })),
      ];
      expect((await post(app, { passings: reads })).statusCode).toBe(200);
      const url = `/api/results/contexts/${DEMO_DB}/races/city-10k/teams`;
      const teams = (await app.inject(url)).json();
      expect(
        teams.teams
          .slice(0, 2)
          .map((t: { name: string; rank: number; totalMs: number }) => [t.name, t.rank, t.totalMs]),
      ).toEqual([
        [a, 1, 123 * 60_000],
        [b, 2, 130 * 60_000],
      ]);
      const token = teams.teams[0].token as string;
      expect(token).toMatch(/^[\w-]{16}$/);
      expect((await app.inject(url)).json().teams[0].token).toBe(token);
      const team = (await app.inject(`/api/objects/${token}`)).json();
      expect(team).toMatchObject({
        kind: 'team',
        race: { id: 'city-10k' },
        team: { name: a, rank: 1, finishers: 3 },
      });
      expect(
        team.team.members.filter((m: { scoring: boolean }) => m.scoring).map((m: { bib: string }) => m.bib),
      ).toEqual(ofA.map((p) => p.bib));
      const athlete = (await app.inject(`/api/objects/${ofB[0]!.trackingKey}`)).json();
      expect(athlete).toMatchObject({ kind: 'athlete', card: { athlete: { bib: ofB[0]!.bib } } });
      expect((await app.inject('/api/objects/not-a-real-token')).statusCode).toBe(404);
      expect((await app.inject('/api/objects/x')).statusCode).toBe(404);
      expect((await app.inject(`/api/objects/${'x'.repeat(65)}`)).statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });

  it('gives statistics, a leaders board and an athlete by bib', async () => {
    const app = await buildTestApp();
    try {
      await repo.insertDevice(app.database, {
        db: DEMO_DB,
        name: 'mats',
        keyHash: hashKey(DEVICE_KEY),
        pointKey: null,
      });
      const [{ gun }] = (await app.database.query<{ gun: number }>(
        "SELECT gun_time_ms::float8 AS gun FROM races WHERE id = 'city-10k'",
      )) as [{ gun: number }];
      const reads = [
        { bib: '101', point: '2k5', time: gun + 600_000 },
        { bib: '102', point: '2k5', time: gun + 610_000 },
        { bib: '101', point: 'finish', time: gun + 2_400_000 },
        { bib: '102', point: 'finish', time: gun + 2_460_000 },
        { bib: '103', point: '2k5', time: gun + 620_000 },
      ];
      await post(app, { passings: reads });
      const stats = (await app.inject(`/api/results/contexts/${DEMO_DB}/races/city-10k/stats`)).json();
      expect(stats.counts.finished).toBe(2);
      expect(stats.points[0]).toMatchObject({ key: '2k5', passed: 3, onCourse: 1, dnf: 0 });
      expect(stats.points.at(-1)).toMatchObject({ key: 'finish', passed: 2, onCourse: 0 });
      expect(stats.histogram.reduce((a: number, b: { count: number }) => a + b.count, 0)).toBe(2);
      expect(stats.averagePaceMsPerKm).toBe(243_000);
      const leaders = (
        await app.inject(`/api/results/contexts/${DEMO_DB}/races/city-10k/leaders?count=2`)
      ).json();
      expect(leaders.points.at(-1).rows.map((r: { bib: string; gapMs: number }) => [r.bib, r.gapMs])).toEqual(
        [
          ['101', 0],
          ['102', 60_000],
        ],
      );
      expect(
        (await app.inject(`/api/results/contexts/${DEMO_DB}/races/city-10k/leaders?count=0`)).statusCode,
      ).toBe(400);
      const trial = (await app.inject(`/api/results/contexts/${DEMO_DB}/races/city-10k/timetrial`)).json();
      expect(trial.hotSeat).toMatchObject({ bib: '101', netMs: trial.standings[0].netMs });
      expect(
        trial.standings.map((r: { bib: string; rank: number; gapMs: number }) => [r.bib, r.rank, r.gapMs]),
      ).toEqual([
        ['101', 1, 0],
        ['102', 2, 60_000],
      ]);
      expect(trial.latestFinishers.map((r: { bib: string }) => r.bib)).toEqual(['102', '101']);
      expect(trial.onCourse.every((r: { bib: string }) => r.bib !== '101')).toBe(true);
      expect((await app.inject(`/api/results/contexts/${DEMO_DB}/races/nope/timetrial`)).statusCode).toBe(
        404,
      );
      const athlete = (await app.inject(`/api/results/contexts/${DEMO_DB}/participants/102`)).json();
      expect(athlete.splits.at(-1).rankOverall).toBe(2);
      expect((await app.inject(`/api/results/contexts/${DEMO_DB}/participants/99999`)).statusCode).toBe(404);
      expect((await app.inject(`/api/results/contexts/${DEMO_DB}/races/nope/stats`)).statusCode).toBe(404);
      // Issue 27: a runner on course has a predicted finish with its 80 % interval around it.
      const onCourse = (await app.inject(`/api/results/contexts/${DEMO_DB}/participants/103`)).json();
      expect(onCourse.status).toBe('onCourse');
      const [low, high] = onCourse.prediction.finishRangeNetMs;
      expect(low).toBeLessThan(onCourse.prediction.finishNetMs);
      expect(high).toBeGreaterThan(onCourse.prediction.finishNetMs);
      expect(low).toBeGreaterThanOrEqual(600_000);
    } finally {
      await app.close();
    }
  });
});
