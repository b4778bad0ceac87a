/**
 * Ingest benchmark (product.md: ≥ 20,000 passings/s acknowledged durably on this machine).
 * A 27,000-runner race on PGlite on disk; batches of 1,000 reads POSTed with a device key (JSON
 * over HTTP, app.inject) — each acknowledged after its transaction committed and the live results
 * were updated. Baseline in the same run: the same rows INSERTed straight into the database
 * (one multi-row statement per 1,000, no HTTP, no validation, no engine).
 * Run: npx tsx apps/server/bench/ingest.bench.ts
 */
import { performance } from 'node:perf_hooks';
import type { Participant } from '@tempora/domain';
import * as repo from '../src/modules/results/repository.ts';
import { hashKey } from '../src/modules/results/service.ts';
import { addParticipants, createRace } from '../src/modules/results/setup.ts';
import { benchApp, printTable } from './bench-setup.ts';

const RUNNERS = 27_000;
const BATCH = 1_000;
const BATCHES = Number(process.env.BENCH_INGEST_BATCHES ?? 60);
const KEY = 'tdk_bench_key_0123456789';
const GUN = Date.UTC(2026, 4, 31, 8, 0, 0);
const POINTS = ['5k', '10k', '15k', 'finish'];

const { app } = await benchApp();
await app.database.query(
  `INSERT INTO contexts (db, event_id, name) VALUES ('bench', 'bench', 'Bench'), ('bench-raw', 'bench', 'Raw')`,
);
await app.database.transaction(async (sql) => {
  await createRace(sql, 'bench', {
    id: 'bench-20k',
    name: '20 km',
    date: '2026-05-31',
    distanceM: 20_000,
    startType: 'mass',
    gunTimeMs: GUN,
    points: POINTS.map((key, k) => ({ key, name: key, distanceM: (k + 1) * 5000 })),
  });
  const people: Participant[] = Array.from({ length: RUNNERS }, (_, i) => ({
    bib: String(i + 1),
    chips: [`C${i + 1}`],
    firstName: 'Runner',
    lastName: `N${i + 1}`,
    gender: i % 2 ? 'F' : 'M',
    age: 20 + (i % 50),
    status: 'registered',
  }));
  await addParticipants(sql, 'bench-20k', people);
});
await repo.insertDevice(app.database, { db: 'bench', name: 'mat', keyHash: hashKey(KEY), pointKey: null });

/** Reads in time order, as a decoder sends them: runner i at point p. */
function reads(batch: number) {
  return Array.from({ length: BATCH }, (_, k) => {
    const n = batch * BATCH + k;
    const point = Math.floor(n / RUNNERS) % POINTS.length;
    const runner = n % RUNNERS;
    return {
      chip: `C${runner + 1}`,
      point: POINTS[point]!,
      time: GUN + (point + 1) * 1_200_000 + runner * 40,
    };
  });
}

// Warm-up: the first ingest loads the context into memory.
await app.inject({
  method: 'POST',
  url: '/api/ingest/passings',
  headers: { 'x-device-key': KEY },
  payload: { passings: reads(BATCHES + 5).slice(0, 10) },
});

const latencies: number[] = [];
const started = performance.now();
let accepted = 0;
for (let b = 0; b < BATCHES; b++) {
  const t0 = performance.now();
  const res = await app.inject({
    method: 'POST',
    url: '/api/ingest/passings',
    headers: { 'x-device-key': KEY, 'content-type': 'application/json' },
    payload: JSON.stringify({ passings: reads(b) }),
  });
  latencies.push(performance.now() - t0);
  if (res.statusCode !== 200) throw new Error(res.body);
  accepted += res.json().accepted;
}
const ingestRate = accepted / ((performance.now() - started) / 1000);

const rawStarted = performance.now();
for (let b = 0; b < BATCHES; b++) {
  await repo.insertPassings(
    app.database,
    'bench-raw',
    reads(b).map((r, k) => ({
      id: `raw-${b}-${k}`,
      chip: r.chip,
      pointId: r.point,
      timeMs: r.time,
      source: 'decoder' as const,
    })),
  );
}
const rawRate = (BATCHES * BATCH) / ((performance.now() - rawStarted) / 1000);
latencies.sort((a, b) => a - b);

printTable(
  ['case', 'passings/s', 'vs baseline', 'batch p50 ms', 'batch p99 ms', 'target'],
  [
    [
      'POST /api/ingest/passings (1,000 per batch, durable ack, live results)',
      Math.round(ingestRate),
      `${(ingestRate / rawRate).toFixed(2)}×`,
      latencies[Math.floor(latencies.length / 2)]!.toFixed(1),
      latencies[Math.floor(latencies.length * 0.99)]!.toFixed(1),
      '≥ 20,000/s',
    ],
    ['baseline: raw multi-row INSERT of the same rows', Math.round(rawRate), '1.00×', '', '', ''],
  ],
);
console.log(
  `\n${accepted} passings accepted on ${app.database.kind}, ${RUNNERS} runners, ${POINTS.length} points.`,
);
await app.close();
