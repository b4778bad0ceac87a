/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { importBostonTable } from '../src/results/boston-import.ts';
import { computeResults } from '../src/results/compute.ts';
import { applyPassing, createResultsState } from '../src/results/incremental.ts';
import { predict } from '../src/results/prediction.ts';
import { participantIndexOf } from '../src/results/queries.ts';
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
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : Number.NaN;
};

/**
 * Replays an edition live — every read in time order through the incremental engine — and
 * predicts each runner (1 in `sample`) the moment they pass `pointId`, with only the reads that
 * exist then; compares with their official finish.
 */
export function scoreEdition(edition: Edition, pointId = 'Half', sample = 1): EditionScore {
  const state = createResultsState(computeResults(edition.race, edition.participants, []));
  const passings = [...edition.passings].sort((a, b) => a.timeMs - b.timeMs);
  const sampled = new Set(edition.participants.filter((_, k) => k % sample === 0).map((p) => p.bib));
  const errors: number[] = [];
  let inside = 0;
  let below = 0;
  let ranged = 0;
  let width = 0;
  for (const passing of passings) {
    applyPassing(state, passing);
    const bib = passing.bib ?? '';
    if (passing.pointId !== pointId || !sampled.has(bib)) continue;
    const actual = edition.finish.get(bib);
    const i = participantIndexOf(state, bib);
    if (actual === undefined || i < 0) continue;
    const prediction = predict(state, i);
    if (!prediction) continue;
    errors.push(prediction.finishNetMs - actual);
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
  };
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
