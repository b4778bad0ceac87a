/**
 * Race-day pickup (issue 39): the time from a scan to "handed out" on the server path — the entry
 * code resolved (`GET /api/pickup/events/{event}/entries/{code}`), then the handout sent
 * (`POST …/ops`) — with 10 volunteers at once on a 10,000-runner event, over HTTP on one node
 * — on the embedded database (PGlite), then on PostgreSQL when TEST_DATABASE_URL (or
 * BENCH_DATABASE_URL) names a server (`postgres://postgres@127.0.0.1:5432/test`: a fresh database
 * is made there and dropped after), one row each. Baseline in the same run and database: a plain
 * read of a participant by the organiser's grid
 * (`GET /api/console/events/{event}/participants?q={bib}&limit=1`), by the same 10 callers at
 * once, before and after; the table quotes the ratio to the last baseline.
 * BENCH_PICKUP_RUNNERS, BENCH_PICKUP_HANDOUTS (total), BENCH_PICKUP_VOLUNTEERS, BENCH_PICKUP_READS (each
 * baseline) to scale.
 * Run: npm run bench -- pickup
 */
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createRace } from '../src/modules/results/setup.ts';
import { createTestUser } from '../test/identity-helpers.ts';
import { benchApp, printTable, quantile } from './bench-setup.ts';

const RUNNERS = Number(process.env.BENCH_PICKUP_RUNNERS ?? 10_000);
const HANDOUTS = Number(process.env.BENCH_PICKUP_HANDOUTS ?? 2_000);
const VOLUNTEERS = Number(process.env.BENCH_PICKUP_VOLUNTEERS ?? 10);
const READS = Number(process.env.BENCH_PICKUP_READS ?? 1_000);
const ORG = '00000000-0000-4000-8000-0000000000be';
const EVENT = 'bench';
const DB = 'bench-pickup';
const RACE = 'pickup-10k';
/** PostgreSQL's server for the second row (a fresh database is made there and dropped). */
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? '';

/** One run on one database: the baseline, the scans, the baseline again; the times and what was stored. */
async function run(env: Record<string, string>) {
  const { app } = await benchApp(env);
  const sql = app.database;
  await sql.query(`INSERT INTO contexts (db, event_id, name) VALUES ($1, $2, 'Pickup')`, [DB, EVENT]);
  await sql.transaction((tx) =>
    createRace(tx, DB, {
      id: RACE,
      name: '10 km',
      date: '2026-05-31',
      distanceM: 10_000,
      startType: 'mass',
      points: [
        { key: 'start', name: 'Start', distanceM: 0, isStart: true },
        { key: 'finish', name: 'Finish', distanceM: 10_000 },
      ],
    }),
  );
  // The runners, each with a confirmed entry (its code, a T-shirt to hand out).
  await sql.query(
    `INSERT INTO participants (race_id, bib, first_name, last_name, gender, status, tracking_key, search_folded)
     SELECT $1, n::text, 'Runner', 'Number ' || n, CASE WHEN n % 2 = 0 THEN 'M' ELSE 'F' END, 'registered',
            md5('pickup-bench-' || n), 'runner number ' || n
       FROM generate_series(1, $2::int) n`,
    [RACE, RUNNERS],
  );
  await sql.query(
    `INSERT INTO registration_entries (code, event_id, race_id, email, state, participant_id, details, addons)
     SELECT 'E' || upper(substr(md5('code-' || p.bib), 1, 20)), $1, p.race_id, 'r' || p.bib || '@example.test', 'confirmed', p.id,
            '{"guardianName": ""}'::jsonb, '[{"id": "1", "key": "tshirt-m", "name": "T-shirt M", "quantity": 1, "cents": 1500}]'::jsonb
       FROM participants p WHERE p.race_id = $2`,
    [EVENT, RACE],
  );
  const codes = new Map(
    (
      await sql.query<{ bib: string; code: string }>(
        `SELECT p.bib, e.code FROM registration_entries e JOIN participants p ON p.id = e.participant_id WHERE e.event_id = $1`,
        [EVENT],
      )
    ).map((r) => [r.bib, r.code]),
  );
  const owner = await createTestUser(app, { memberships: [{ organisationId: ORG, role: 'owner' }] });
  const volunteers = await Promise.all(
    Array.from({ length: VOLUNTEERS }, () =>
      createTestUser(app, { memberships: [{ organisationId: ORG, role: 'pickup' }] }),
    ),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  async function call(path: string, authorization: string, body?: unknown) {
    const res = await fetch(`${base}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { authorization, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`);
    return JSON.parse(text);
  }

  /** `work(k)` for k of 0..n-1, by `callers` loops at once; each step's milliseconds. */
  async function timed(n: number, callers: number, work: (k: number, caller: number) => Promise<void>) {
    const times: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: callers }, async (_, caller) => {
        for (let k = next++; k < n; k = next++) {
          const t0 = performance.now();
          await work(k, caller);
          times.push(performance.now() - t0);
        }
      }),
    );
    return times.sort((a, b) => a - b);
  }

  const bibOf = (k: number) => String(1 + ((k * 7919) % RUNNERS));
  const baseline = () =>
    timed(READS, VOLUNTEERS, async (k) => {
      const page = await call(
        `/api/console/events/${EVENT}/participants?q=${bibOf(k)}&limit=1`,
        owner.authorization,
      );
      if (!page.rows?.length && !page.participants?.length && page.total === undefined)
        throw new Error('no row');
    });
  let conflicts = 0;
  const pickup = () =>
    timed(HANDOUTS, VOLUNTEERS, async (k, caller) => {
      const who = (volunteers[caller] as { authorization: string }).authorization;
      const bib = String(k + 1);
      const card = await call(`/api/pickup/events/${EVENT}/entries/${codes.get(bib)}`, who);
      const { answers } = await call(`/api/pickup/events/${EVENT}/ops`, who, {
        ops: [
          {
            kind: 'handout',
            opId: `bench-handout-${k}`,
            at: new Date().toISOString(),
            participantId: card.id,
            items: ['bib', 'tshirt-m'],
          },
        ],
      });
      if (answers[0].status !== 'done') conflicts++;
    });

  const first = await baseline();
  const scans = await pickup();
  const last = await baseline();
  const [stored] = await sql.query<{ kept: number; other: number }>(
    `SELECT count(*) FILTER (WHERE state = 'kept')::int AS kept, count(*) FILTER (WHERE state <> 'kept')::int AS other
       FROM pickup_handouts WHERE event_id = $1`,
    [EVENT],
  );
  const kind = app.database.kind;
  await app.close();
  return { kind, first, scans, last, kept: stored?.kept ?? 0, other: stored?.other ?? 0, conflicts };
}

/** A fresh database on the PostgreSQL server of TEST_DATABASE_URL (or BENCH_DATABASE_URL), dropped after. */
async function withPostgres<T>(admin: string, work: (url: string) => Promise<T>): Promise<T> {
  const name = `tempora_pickup_${process.pid}`;
  const query = async (text: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await query(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  try {
    return await work(url.toString());
  } finally {
    await query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

const ms = (v: number) => v.toFixed(1);
const results = [{ name: 'PGlite (embedded)', ...(await run({})) }];
if (ADMIN_URL)
  results.push({
    name: 'PostgreSQL',
    ...(await withPostgres(ADMIN_URL, (url) => run({ DATABASE_URL: url }))),
  });
else
  console.log('PostgreSQL: skipped (set TEST_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test)\n');
for (const r of results)
  console.log(
    `${r.name} (${r.kind}): ${RUNNERS} runners, ${VOLUNTEERS} volunteers at once, ${HANDOUTS} handouts; stored: ${r.kept} kept, ${r.other} other, ${r.conflicts} not done`,
  );
console.log('');
const ratio = (a: number[], b: number[], q: number) => (quantile(a, q) / quantile(b, q)).toFixed(2);
printTable(
  [
    'database',
    'scans',
    'scan → handed out median ms',
    'p95 ms',
    'participant read median ms (first / last)',
    'p95 ms (last)',
    'ratio to the last read',
  ],
  results.map((r) => [
    r.name,
    r.scans.length,
    ms(quantile(r.scans, 0.5)),
    ms(quantile(r.scans, 0.95)),
    `${ms(quantile(r.first, 0.5))} / ${ms(quantile(r.last, 0.5))}`,
    ms(quantile(r.last, 0.95)),
    `${ratio(r.scans, r.last, 0.5)}× median, ${ratio(r.scans, r.last, 0.95)}× p95`,
  ]),
);
