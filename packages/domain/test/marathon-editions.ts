/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { importBostonTable } from '../src/results/boston-import.ts';
import { computeResults } from '../src/results/compute.ts';
import { fadeRatioBetween, GENDER_FADE } from '../src/results/fade-model.ts';
import { applyPassing, createResultsState } from '../src/results/incremental.ts';
import { type Prediction, predict } from '../src/results/prediction.ts';
import { participantIndexOf } from '../src/results/queries.ts';
import { netTimeOf } from '../src/results/results-model.ts';
import type { Participant, Passing, RaceDefinition } from '../src/results/types.ts';
import { readCsv } from './read-csv.ts';

/**
 * Published marathons with 5 km splits (`fixtures/marathon-splits/`, sources in its README) and
 * Boston 2017 (`fixtures/boston-2017.csv`), as the engine's inputs, and the finish prediction made
 * at half-way evaluated on them, live (issue 41: "a prediction that holds on other years").
 */
export interface Edition {
  readonly name: string;
  readonly race: RaceDefinition;
  readonly participants: Participant[];
  readonly passings: Passing[];
  /** Official (net) finish by bib. */
  readonly finish: Map<string, number>;
}

const SPLITS: readonly (readonly [string, number])[] = [
  ['5K', 5000],
  ['10K', 10_000],
  ['15K', 15_000],
  ['20K', 20_000],
  ['Half', 21_097.5],
  ['25K', 25_000],
  ['30K', 30_000],
  ['35K', 35_000],
  ['40K', 40_000],
  ['finish', 42_195],
];
const GUN = Date.UTC(2020, 0, 1, 8, 0, 0);
const FOLDER = new URL('../../../fixtures/marathon-splits/', import.meta.url);

/** The names of the editions in `fixtures/marathon-splits/` (`berlin-2014`, …). */
export function editionNames(): string[] {
  return readdirSync(FOLDER)
    .filter((f) => f.endsWith('.csv.gz'))
    .map((f) => f.replace(/\.csv\.gz$/, ''))
    .sort();
}

/**
 * One edition of `fixtures/marathon-splits/`: a mass start (the files hold net times only, as
 * Boston's), every runner reaching each mat at the gun + the published split; a missing split is
 * no read. `every`: keep 1 runner in `every` (by their order in the file, sorted by finish).
 */
export function loadEdition(name: string, every = 1): Edition {
  const text = gunzipSync(readFileSync(new URL(`${name}.csv.gz`, FOLDER))).toString('utf8');
  const [, ...lines] = text.trim().split('\n');
  const participants: Participant[] = [];
  const passings: Passing[] = [];
  const finish = new Map<string, number>();
  lines.forEach((line, k) => {
    if (k % every !== 0) return;
    const [gender, ...cells] = line.split(',');
    const bib = String(k + 1);
    participants.push({
      bib,
      firstName: '',
      lastName: bib,
      gender: gender === 'F' ? 'F' : 'M',
      status: 'registered',
    });
    SPLITS.forEach(([pointId], s) => {
      const seconds = Number(cells[s]);
      if (cells[s] === '' || !(seconds > 0)) return;
      passings.push({
        id: `${bib}@${pointId}`,
        bib,
        pointId,
        timeMs: GUN + seconds * 1000,
        source: 'import',
      });
      if (pointId === 'finish') finish.set(bib, seconds * 1000);
    });
  });
  const race: RaceDefinition = {
    id: name,
    name,
    date: '2020-01-01',
    startType: 'mass',
    gunTime: GUN,
    points: SPLITS.map(([id, distanceM]) => ({ id, name: id, distanceM })),
    categories: [],
  };
  return { name, race, participants, passings, finish };
}

/** Boston 2017 (`fixtures/boston-2017.csv`), 1 runner in `every` (by their order in the file). */
export function loadBoston2017(every = 1): Edition {
  const text = readFileSync(new URL('../../../fixtures/boston-2017.csv', import.meta.url), 'utf8');
  const boston = importBostonTable(readCsv(text));
  const kept = new Set(boston.participants.filter((_, k) => k % every === 0).map((p) => p.bib));
  return {
    name: 'boston-2017',
    race: boston.race,
    participants: boston.participants.filter((p) => kept.has(p.bib)),
    passings: boston.passings.filter((p) => kept.has(p.bib ?? '')),
    finish: new Map(boston.official.filter((o) => kept.has(o.bib)).map((o) => [o.bib, o.officialTimeMs])),
  };
}

/**
 * The order an edition is replayed in: every read by its time of day (a stable sort: reads of the
 * same millisecond keep the file's order). The first `applied` of them are all that exist when the
 * `applied`-th is read.
 */
export function replayOrder(edition: Edition): Passing[] {
  return [...edition.passings].sort((a, b) => a.timeMs - b.timeMs);
}

/**
 * One prediction made during a replay (`scoreEdition`): for whom, from how many reads
 * (`replayOrder(edition).slice(0, applied)`, the last one the runner's own at the point), when,
 * and the official finish it is scored against.
 */
export interface MadePrediction {
  readonly bib: string;
  readonly applied: number;
  readonly atMs: number;
  readonly prediction: Prediction;
  readonly finishMs: number;
}

/** The prediction at one point over one edition (minutes; signed: negative = predicted too fast). */
export interface EditionScore {
  readonly name: string;
  readonly runners: number;
  readonly medianAbsMin: number;
  readonly medianSignedMin: number;
  /** Share of finishes inside the stated 80 % interval, and below / above it. */
  readonly coverage: number;
  readonly below: number;
  readonly above: number;
  /** Mean width of the interval, minutes. */
  readonly widthMin: number;
  /**
   * Median signed error (min) of the runners whose time at `pointId` falls in each band of
   * `PACE_BANDS_MIN` (brought to half-way: the pace so far over 21.1 km), and how many they are.
   */
  readonly byPace: readonly { readonly signedMin: number; readonly runners: number }[];
}

/**
 * Bands of times at the point, brought to half-way (min): the bias by pace (issue 41) — under 1:30,
 * 1:30–1:50, 1:50–2:10, 2:10–2:35, 2:35–2:50, over 2:50.
 */
export const PACE_BANDS_MIN: readonly number[] = [0, 90, 110, 130, 155, 170, Number.POSITIVE_INFINITY];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : Number.NaN;
};

/**
 * Replays an edition live — every read in time order through the incremental engine — and
 * predicts each runner (1 in `sample`) the moment they pass `pointId`, with only the reads that
 * exist then; compares with their official finish.
 */
export function scoreEdition(
  edition: Edition,
  pointId = 'Half',
  sample = 1,
  onPrediction?: (made: MadePrediction) => void,
): EditionScore {
  const state = createResultsState(computeResults(edition.race, edition.participants, []));
  const passings = replayOrder(edition);
  const sampled = new Set(edition.participants.filter((_, k) => k % sample === 0).map((p) => p.bib));
  const errors: number[] = [];
  const byPace: number[][] = PACE_BANDS_MIN.slice(1).map(() => []);
  let inside = 0;
  let below = 0;
  let ranged = 0;
  let width = 0;
  for (const [k, passing] of passings.entries()) {
    applyPassing(state, passing);
    const bib = passing.bib ?? '';
    if (passing.pointId !== pointId || !sampled.has(bib)) continue;
    const actual = edition.finish.get(bib);
    const i = participantIndexOf(state, bib);
    if (actual === undefined || i < 0) continue;
    const prediction = predict(state, i);
    if (!prediction) continue;
    onPrediction?.({ bib, applied: k + 1, atMs: passing.timeMs, prediction, finishMs: actual });
    errors.push(prediction.finishNetMs - actual);
    const p = state.index.pointIds.indexOf(pointId);
    const toHalf = (netTimeOf(state, i, p) / state.index.distanceM[p]!) * (21_097.5 / 60_000);
    const band = PACE_BANDS_MIN.findIndex((low, b) => toHalf >= low && toHalf < PACE_BANDS_MIN[b + 1]!);
    byPace[band]?.push(prediction.finishNetMs - actual);
    const range = prediction.finishRange;
    if (!range) continue;
    ranged++;
    width += range[1] - range[0];
    if (actual < range[0]) below++;
    else if (actual <= range[1]) inside++;
  }
  const min = (ms: number) => ms / 60_000;
  return {
    name: edition.name,
    runners: errors.length,
    medianAbsMin: min(median(errors.map(Math.abs))),
    medianSignedMin: min(median(errors)),
    coverage: inside / Math.max(1, ranged),
    below: below / Math.max(1, ranged),
    above: (ranged - inside - below) / Math.max(1, ranged),
    widthMin: min(width / Math.max(1, ranged)),
    byPace: byPace.map((e) => ({ signedMin: min(median(e)), runners: e.length })),
  };
}

/** A markdown table of each edition's median signed error by pace band (`EditionScore.byPace`). */
export function paceTable(scores: readonly EditionScore[]): string {
  const label = (m: number) => `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}`;
  const heads = PACE_BANDS_MIN.slice(1).map((high, b) => {
    const low = PACE_BANDS_MIN[b]!;
    return low === 0
      ? `< ${label(high)}`
      : Number.isFinite(high)
        ? `${label(low)}–${label(high)}`
        : `> ${label(low)}`;
  });
  const cell = (x: { signedMin: number; runners: number }) =>
    x.runners === 0 ? '–' : `${x.signedMin >= 0 ? '+' : ''}${x.signedMin.toFixed(2)} (${x.runners})`;
  return [
    `| edition | ${heads.join(' | ')} |`,
    `|---|${heads.map(() => '---:').join('|')}|`,
    ...scores.map((s) => `| ${s.name} | ${s.byPace.map(cell).join(' | ')} |`),
  ].join('\n');
}

/** A markdown table of scores. */
export function scoreTable(scores: readonly EditionScore[]): string {
  const f = (x: number) => x.toFixed(2);
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  return [
    '| edition | runners | median abs (min) | median signed (min) | inside 80 % interval | below / above | mean width (min) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...scores.map(
      (s) =>
        `| ${s.name} | ${s.runners} | ${f(s.medianAbsMin)} | ${s.medianSignedMin >= 0 ? '+' : ''}${f(s.medianSignedMin)} | ${pct(s.coverage)} | ${pct(s.below)} / ${pct(s.above)} | ${f(s.widthMin)} |`,
    ),
  ].join('\n');
}

/**
 * What the runners ahead show of the day when the mid-pack passes `pointId` (issue 41, a
 * diagnostic for `npm run bench -- prediction-editions`): replayed as `scoreEdition` does, each
 * read at a point past `pointId` gives the runner's pace on the segment it ends relative to the
 * general prior's for their pace and gender (`fadeRatioBetween`; +1 % = 1 % slower than the prior
 * says), at its time of day. For each runner of the middle half (half times between the 25th and
 * 75th percentiles — chosen after the race, to report on, not to predict with) at the moment
 * they pass: the mean of that excess over the segments finished in the last `windowMin` minutes
 * (`aheadNow`, from the reads applied so far only) and over the `windowMin` before
 * (`aheadBefore`), and what the prediction made then missed on the time still to run
 * (`missed`: log(actual / predicted time still to run); +1 % = 1 % slower than predicted).
 * Medians. Also the median signed error (min) of men and women, all runners.
 */
export interface ConditionsAtPoint {
  readonly name: string;
  readonly aheadNow: number;
  readonly aheadBefore: number;
  readonly aheadRuns: number;
  readonly missed: number;
  /**
   * The runners ahead's pace against the prior regressed on the time they ran each segment past
   * the point (net time at its middle: the clock of a mass start), within each segment and pooled
   * over them, per hour (+0.01: 1 % slower for each hour later). Median over the middle half at
   * the moment each passes. The results README's seventh pass (issue 41).
   */
  readonly clockSlope: number;
  readonly menMin: number;
  readonly womenMin: number;
}

export function conditionsAtPoint(edition: Edition, pointId = 'Half', windowMin = 15): ConditionsAtPoint {
  const state = createResultsState(computeResults(edition.race, edition.participants, []));
  const { distanceM, pointIds } = state.index;
  const k = pointIds.indexOf(pointId);
  const events: { atMs: number; excess: number }[] = [];
  const made: {
    atMs: number;
    seen: number;
    tK: number;
    predicted: number;
    finish: number;
    gender: number;
    clockSlope: number;
  }[] = [];
  // Per point p past k (segment p − 1 → p): n, Σx, Σy, Σxy, Σx² of the runners ahead's excess y
  // over the net time x (hours) at the segment's middle.
  const sums: [number, number, number, number, number][] = Array.from(
    { length: state.index.pointCount },
    () => [0, 0, 0, 0, 0],
  );
  const clockSlope = () => {
    let sxx = 0;
    let sxy = 0;
    for (const [n, x, y, xy, xx] of sums) {
      if (n < 2) continue;
      sxx += xx - (x * x) / n;
      sxy += xy - (x * y) / n;
    }
    return sxx > 0 ? sxy / sxx : Number.NaN;
  };
  for (const passing of replayOrder(edition)) {
    applyPassing(state, passing);
    const i = participantIndexOf(state, passing.bib ?? '');
    const p = pointIds.indexOf(passing.pointId);
    if (i < 0 || p < k || p < 1) continue;
    const gender = state.index.genderOf[i]!;
    if (p > k) {
      const before = netTimeOf(state, i, p - 1);
      const after = netTimeOf(state, i, p);
      const prior = fadeRatioBetween(distanceM, p - 1, p, before, undefined, GENDER_FADE[gender] ?? 1);
      if (before > 0 && after > before && prior > 0) {
        const excess =
          (Math.log(after / before) - Math.log(prior)) / Math.log(distanceM[p]! / distanceM[p - 1]!);
        events.push({ atMs: passing.timeMs, excess });
        const x = (before + after) / 2 / 3_600_000;
        const y = Math.min(0.5, Math.max(-0.3, excess));
        const sum = sums[p]!;
        sum[0] += 1;
        sum[1] += x;
        sum[2] += y;
        sum[3] += x * y;
        sum[4] += x * x;
      }
      continue;
    }
    const finish = edition.finish.get(passing.bib ?? '');
    const prediction = predict(state, i);
    if (finish === undefined || !prediction) continue;
    made.push({
      atMs: passing.timeMs,
      seen: events.length,
      tK: netTimeOf(state, i, k),
      predicted: prediction.finishNetMs,
      finish,
      gender,
      clockSlope: clockSlope(),
    });
  }
  const byTime = made.map((m) => m.tK).sort((a, b) => a - b);
  const [low, high] = [byTime[Math.floor(byTime.length / 4)]!, byTime[Math.floor((3 * byTime.length) / 4)]!];
  const mean = (from: number, to: number, seen: number) => {
    let sum = 0;
    let n = 0;
    for (let e = seen - 1; e >= 0 && events[e]!.atMs > from; e--) {
      if (events[e]!.atMs > to) continue;
      sum += events[e]!.excess;
      n++;
    }
    return { value: n > 0 ? sum / n : Number.NaN, n };
  };
  const window = windowMin * 60_000;
  const now: number[] = [];
  const before: number[] = [];
  const runs: number[] = [];
  const missed: number[] = [];
  const slopes: number[] = [];
  for (const m of made) {
    if (m.tK < low || m.tK > high) continue;
    if (Number.isFinite(m.clockSlope)) slopes.push(m.clockSlope);
    const recent = mean(m.atMs - window, m.atMs, m.seen);
    const earlier = mean(m.atMs - 2 * window, m.atMs - window, m.seen);
    if (recent.n > 0) now.push(recent.value);
    if (earlier.n > 0) before.push(earlier.value);
    runs.push(recent.n);
    missed.push(Math.log((m.finish - m.tK) / (m.predicted - m.tK)));
  }
  const signed = (gender: number) =>
    median(made.filter((m) => m.gender === gender).map((m) => m.predicted - m.finish)) / 60_000;
  return {
    name: edition.name,
    aheadNow: median(now),
    aheadBefore: median(before),
    aheadRuns: median(runs),
    missed: median(missed),
    clockSlope: median(slopes),
    menMin: signed(0),
    womenMin: signed(1),
  };
}

/** A markdown table of `conditionsAtPoint`. */
export function conditionsTable(rows: readonly ConditionsAtPoint[], windowMin = 15): string {
  const pct = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(2)} %`;
  const min = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;
  return [
    `| edition | runners ahead: pace vs prior, last ${windowMin} min (segments) | the ${windowMin} min before | their slope over the clock (per hour) | prediction missed (time still to run) | men / women signed (min) |`,
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${pct(r.aheadNow)} (${r.aheadRuns}) | ${pct(r.aheadBefore)} | ${pct(r.clockSlope)} | ${pct(r.missed)} | ${min(r.menMin)} / ${min(r.womenMin)} |`,
    ),
  ].join('\n');
}
