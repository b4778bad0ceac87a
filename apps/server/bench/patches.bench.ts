/**
 * Live report patches on the Boston 2017 replay (issue 20): how often a change still goes out as
 * a reload (every open table then fetches the whole report again) and how large the patches are,
 * without row shifts (the baseline: full rows only, a reload past 300 changed runners or 8 KB)
 * and with them, on the same passings in the same run. The replay: the 26,410 runners' reads in
 * time order, one batch per second of race time (a decoder flushing every second), over windows
 * of the race (the first splits, mid-race, the finish peak); a reader fetches a report again
 * after each reload, as the open tables do.
 * Run: npm run bench -- patches   (BENCH_PATCH_WINDOW_S=… seconds of race per window, default 120)
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { BOSTON_2017, importBostonTable } from '@tempora/domain';
import { parseCsv } from '../src/lib/csv.ts';
import { ContextState } from '../src/modules/results/context-state.ts';
import * as repo from '../src/modules/results/repository.ts';
import { createBostonRace } from '../src/modules/results/setup.ts';
import { benchApp, printTable, quantile } from './bench-setup.ts';

const WINDOW_S = Number(process.env.BENCH_PATCH_WINDOW_S ?? 120);

const { app } = await benchApp();
const database = app.database;
await database.query(`INSERT INTO contexts (db, event_id, name) VALUES ('boston', 'bench', 'Boston')`);
const csv = await parseCsv(
  fs.readFileSync(new URL('../../../fixtures/boston-2017.csv', import.meta.url), 'utf8'),
);
const imported = importBostonTable(csv, BOSTON_2017);
await database.transaction((sql) => createBostonRace(sql, 'boston', imported));
const [context, races, points, participants, reports] = await Promise.all([
  repo.findContext(database, 'boston'),
  repo.racesOf(database, 'boston'),
  repo.pointsOf(database, 'boston'),
  repo.participantsOf(database, 'boston'),
  repo.reportsOf(database, 'boston'),
]);
await app.close();

const passings = imported.passings
  .map((p, k) => ({ ...p, source: 'decoder' as const, seq: k + 1 }))
  .sort((a, b) => a.timeMs - b.timeMs)
  .map((p, k) => ({ ...p, seq: k + 1 }));
const at = (q: number) => passings[Math.floor(q * (passings.length - 1))]!.timeMs;
const windows = [
  { name: 'first splits', from: at(0.05) },
  { name: 'mid-race', from: at(0.5) },
  { name: 'finish peak', from: at(0.93) },
];

interface Outcome {
  batches: number;
  patches: number;
  reloads: number;
  bytes: number[];
  ms: number[];
  refetched: number;
}

/**
 * How many batches (seconds of race time) one coalesced publication holds in the third mode
 * (issue 20: RESULTS_PUBLISH_MS; two seconds of race time is a 500 ms window on a replay run 4×
 * faster than the clock, or four decoders posting twice a second).
 */
const COALESCE = Number(process.env.BENCH_PATCH_COALESCE ?? 2);
/** The largest patch of the stage/flush modes (RESULTS_PATCH_MAX_BYTES; 8,000 before it). */
const MAX_BYTES = Number(process.env.BENCH_PATCH_MAX_BYTES ?? 64_000);

/**
 * Replays one window: the state before it built at once, then its batches one by one; `every`
 * set: through `stage` and `flush` (what the service does), one publication per `every` batches.
 */
function replay(from: number, compact: boolean, every = 0): Outcome {
  const before = passings.filter((p) => p.timeMs < from);
  const ctx = new ContextState(context!, races, points, participants, before, reports);
  ctx.compact = compact;
  // The readers' tables: every report read once, as open pages hold them.
  const sizes = new Map<string, number>();
  const read = (report: (typeof reports.reports)[number]) => {
    const table = ctx.table(report);
    sizes.set(report.key, JSON.stringify(table.rows).length);
  };
  for (const report of reports.reports) read(report);
  const out: Outcome = { batches: 0, patches: 0, reloads: 0, bytes: [], ms: [], refetched: 0 };
  const inWindow = passings.filter((p) => p.timeMs >= from && p.timeMs < from + WINDOW_S * 1000);
  for (let k = 0; k < inWindow.length; ) {
    const second = Math.floor(inWindow[k]!.timeMs / 1000);
    let end = k;
    while (end < inWindow.length && Math.floor(inWindow[end]!.timeMs / 1000) === second) end++;
    const started = performance.now();
    let patches: ReturnType<typeof ctx.patchesFor>;
    if (every) {
      ctx.stage(inWindow.slice(k, end));
      const last = end >= inWindow.length;
      patches = (out.batches + 1) % every === 0 || last ? (ctx.flush(MAX_BYTES)?.patches ?? []) : [];
    } else patches = ctx.patchesFor(ctx.apply(inWindow.slice(k, end)));
    out.ms.push(performance.now() - started);
    out.batches++;
    for (const patch of patches) {
      out.patches++;
      if ('reload' in patch) {
        out.reloads++;
        const report = reports.reports.find((r) => r.key === patch.report)!;
        read(report); // every open table fetches the whole report again
        out.refetched += sizes.get(report.key) ?? 0;
      } else out.bytes.push(JSON.stringify(patch).length);
    }
    k = end;
  }
  return out;
}

const kb = (n: number) => (n / 1000).toFixed(1);
const rows: (string | number)[][] = [];
for (const window of windows) {
  const base = replay(window.from, false);
  const ours = replay(window.from, true);
  const staged = replay(window.from, true, 1);
  const coalesced = replay(window.from, true, COALESCE);
  for (const [mode, o] of [
    ['full rows (before)', base],
    ['shifts, per batch', ours],
    [`stage/flush per batch, ≤ ${kb(MAX_BYTES)} KB`, staged],
    [`coalesced: ${COALESCE} batches a publication, ≤ ${kb(MAX_BYTES)} KB`, coalesced],
  ] as const) {
    const bytes = [...o.bytes].sort((a, b) => a - b);
    const ms = [...o.ms].sort((a, b) => a - b);
    rows.push([
      window.name,
      mode,
      o.batches,
      o.patches,
      `${o.reloads} (${((100 * o.reloads) / Math.max(1, o.patches)).toFixed(1)} %)`,
      bytes.length
        ? `${kb(quantile(bytes, 0.5))} / ${kb(quantile(bytes, 0.99))} / ${kb(bytes.at(-1)!)}`
        : '–',
      `${(o.refetched / 1e6).toFixed(0)} MB`,
      `${quantile(ms, 0.5).toFixed(1)} / ${quantile(ms, 0.99).toFixed(1)}`,
    ]);
  }
}
console.log(
  `Boston 2017 replay, ${reports.reports.length} reports, batches of one second of race time, windows of ${WINDOW_S} s:\n`,
);
printTable(
  [
    'window',
    'encoding',
    'batches',
    'report patches',
    'reloads',
    'patch KB p50 / p99 / max',
    'a reader of every report refetches',
    'server ms per batch p50 / p99 (flush in its batch)',
  ],
  rows,
);
