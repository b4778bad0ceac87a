/**
 * Results engine benchmark against product.md "Numbers we hold ourselves to": Boston 2017
 * (26,410 runners × 10 points) full recompute ≤ 30 ms, one passing applied incrementally
 * ≤ 0.2 ms median and ≤ 2 ms p99. A baseline measured in the same run (a plain sort of the
 * finish times) lets results from different machines be compared as ratios.
 * Run: npx tsx packages/domain/bench/results.bench.ts
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importBostonTable } from '../src/results/boston-import.ts';
import { ranksAt } from '../src/results/bulk-ranks.ts';
import { computeResults, computeResultsFrom, prepareRace } from '../src/results/compute.ts';
import { applyPassing, createResultsState } from '../src/results/incremental.ts';
import { predict } from '../src/results/prediction.ts';
import { groupRankingsOf } from '../src/results/rankings-build.ts';
import { getResultRow } from '../src/results/result-row.ts';
import { defaultRules, type Passing } from '../src/results/types.ts';
import { readCsv } from '../test/read-csv.ts';

/** One line of the report: `ms` measured, `targetMs` the product.md budget where there is one. */
export interface Row {
  readonly case: string;
  readonly ms: number;
  readonly targetMs?: number;
  readonly note?: string;
}

const DATA = new URL('../../../fixtures/boston-2017.csv', import.meta.url);

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** Sorted durations of `runs` calls after `warmup` untimed ones (the JIT settles first). */
function timeRuns(runs: number, warmup: number, fn: () => unknown): number[] {
  for (let k = 0; k < warmup; k++) fn();
  const times: number[] = [];
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b);
}

/** A seeded shuffle (mulberry32), so that every run applies the same order. */
function shuffle<T>(items: T[], seed: number): T[] {
  let s = seed >>> 0;
  const random = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let k = items.length - 1; k > 0; k--) {
    const j = Math.floor(random() * (k + 1));
    [items[k], items[j]] = [items[j]!, items[k]!];
  }
  return items;
}

function recomputeRows(text: string): Row[] {
  const { race, participants, passings } = importBostonTable(readCsv(text));
  const finishTimes = passings.filter((p) => p.pointId === 'finish').map((p) => p.timeMs);
  const baseline = timeRuns(30, 10, () => [...finishTimes].sort((a, b) => a - b));
  const full = timeRuns(30, 10, () => computeResults(race, participants, passings, defaultRules));
  // As a server loads them: in arrival (time) order, fresh objects and strings, as from a database.
  const loaded: Passing[] = JSON.parse(JSON.stringify([...passings].sort((a, b) => a.timeMs - b.timeMs)));
  const fullLoaded = timeRuns(30, 10, () => computeResults(race, participants, loaded, defaultRules));
  const prepared = prepareRace(race, participants, defaultRules);
  const fromPrepared = timeRuns(30, 10, () => computeResultsFrom(prepared, loaded));
  const note = `${participants.length} runners, ${passings.length} passings; min`;
  return [
    { case: `baseline: Array.sort of ${finishTimes.length} numbers (p50)`, ms: quantile(baseline, 0.5) },
    {
      case: 'full recompute, file order (p50)',
      ms: quantile(full, 0.5),
      targetMs: 30,
      note: `${note} ${full[0]?.toFixed(1)}`,
    },
    {
      case: 'full recompute, time order (p50)',
      ms: quantile(fullLoaded, 0.5),
      targetMs: 30,
      note: `min ${fullLoaded[0]?.toFixed(1)}`,
    },
    {
      case: 'recompute, prepared race, time order (p50)',
      ms: quantile(fromPrepared, 0.5),
      targetMs: 30,
      note: `min ${fromPrepared[0]?.toFixed(1)}`,
    },
  ];
}

function incrementalRows(text: string): Row[] {
  const { race, participants, passings } = importBostonTable(readCsv(text));
  const finishes = shuffle(
    passings.filter((p) => p.pointId === 'finish'),
    2017,
  );
  const results = computeResults(
    race,
    participants,
    passings.filter((p) => p.pointId !== 'finish'),
  );
  const stateTimes = timeRuns(5, 1, () => createResultsState(results));
  const state = createResultsState(results);
  // A live server answers rank queries, so the gender and category indexes exist and every
  // passing maintains them: build them first.
  const t1 = performance.now();
  race.points.forEach((_, p) => {
    groupRankingsOf(state, p, 'gender');
    groupRankingsOf(state, p, 'category');
  });
  const groupMs = performance.now() - t1;
  const applyTimes: number[] = [];
  let changedRows = 0;
  for (const passing of finishes) {
    const t0 = performance.now();
    const change = applyPassing(state, passing);
    applyTimes.push(performance.now() - t0);
    changedRows += change.changed.length;
  }
  applyTimes.sort((a, b) => a - b);
  const perPassing = Math.round(changedRows / finishes.length);
  const note = `${finishes.length} finish passings in random order, ${perPassing} changed rows each on average`;
  const rowTimes = timeRuns(3, 1, () => {
    for (let i = 0; i < participants.length; i++) getResultRow(state, i);
  });
  const rankTimes = timeRuns(10, 2, () => race.points.map((_, p) => ranksAt(state, p)));
  // Mid-race (everyone at 40 km): the first prediction builds the field profile.
  const midRace = createResultsState(results);
  const t0 = performance.now();
  predict(midRace, 0);
  const profileMs = performance.now() - t0;
  const predictTimes = timeRuns(1000, 100, () => predict(midRace, 12_345));
  return [
    { case: 'createResultsState from a recompute (p50)', ms: quantile(stateTimes, 0.5) },
    { case: 'gender + category rank indexes, every point', ms: groupMs, note: 'built on first use' },
    { case: 'applyPassing p50', ms: quantile(applyTimes, 0.5), targetMs: 0.2, note },
    { case: 'applyPassing p99', ms: quantile(applyTimes, 0.99), targetMs: 2 },
    { case: 'applyPassing max', ms: applyTimes[applyTimes.length - 1] ?? Number.NaN, note: 'a GC pause' },
    { case: `getResultRow × ${participants.length} (p50)`, ms: quantile(rowTimes, 0.5) },
    { case: 'ranksAt, every point (p50)', ms: quantile(rankTimes, 0.5), note: 'all ranks for a full report' },
    { case: 'first prediction (builds the field profile)', ms: profileMs },
    { case: 'prediction of one runner (p50)', ms: quantile(predictTimes, 0.5) },
  ];
}

/** Runs every case and returns the rows (also used by the root bench script). */
export async function runResultsBench(): Promise<Row[]> {
  const text = readFileSync(fileURLToPath(DATA), 'utf8');
  return [...recomputeRows(text), ...incrementalRows(text)];
}

function printTable(rows: readonly Row[]): void {
  const base = rows[0]?.ms ?? Number.NaN;
  console.log('| case | ms | × baseline | target ms | note |');
  console.log('|---|---:|---:|---:|---|');
  for (const row of rows) {
    const target =
      row.targetMs === undefined ? '' : `${row.targetMs}${row.ms <= row.targetMs ? ' ok' : ' MISSED'}`;
    console.log(
      `| ${row.case} | ${row.ms.toFixed(3)} | ${(row.ms / base).toFixed(2)} | ${target} | ${row.note ?? ''} |`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable(await runResultsBench());
}
