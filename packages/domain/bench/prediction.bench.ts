/// <reference types="node" />
// `npm run bench -- prediction` (issue 19): the finish prediction of `predict()` on Boston 2017,
// made live — every read replayed in time order through the incremental engine, each sampled
// runner predicted the moment they pass each point from 5K to 40K, with only the reads
// that exist then — against the official finish. Median absolute error and median signed error
// (negative: predicted too fast), for `predict()` with the fade model (Tempora: the general prior
// by pace and gender, shifted by what the runners ahead show, and the runner's own trend against comparable
// runners) and the share of finishes inside its 80 % interval (issue 27: target 77–83 % at every point;
// its constants were calibrated on the odd half, so the even half, the default, is held back), the
// shares below and above it and its mean width, the same with a previous edition's prior, without the fade model (the field's segment
// profile alone, the model before issue 19), and an even pace (the baseline).
// Runners are split in two halves by their position in the file: the predicted ones are one half
// (even index by default; PREDICTION_HALF=odd for the other, the one looked at while tuning);
// the "previous edition" prior is fitted on the other half only, so no error is read on data the
// prior was made from. The general prior is not fitted on Boston at all.
import { readFileSync } from 'node:fs';
import { importBostonTable } from '../src/results/boston-import.ts';
import { computeResults } from '../src/results/compute.ts';
import { priorFromEditions } from '../src/results/fade-model.ts';
import { applyPassing, createResultsState } from '../src/results/incremental.ts';
import { predict } from '../src/results/prediction.ts';
import { participantIndexOf } from '../src/results/queries.ts';
import { netTimeOf } from '../src/results/results-model.ts';
import { readCsv } from '../test/read-csv.ts';

const DATA = new URL('../../../fixtures/boston-2017.csv', import.meta.url);
const boston = importBostonTable(readCsv(readFileSync(DATA, 'utf8')));
const POINTS = boston.race.points.slice(0, -1).map((p) => p.id);
const SAMPLE = Number(process.env.PREDICTION_SAMPLE ?? 4); // 1 runner in SAMPLE is predicted
const HALF = process.env.PREDICTION_HALF === 'odd' ? 1 : 0;

const official = new Map(boston.official.map((o) => [o.bib, o.officialTimeMs]));
const sampled = new Set(boston.participants.filter((_, k) => k % (2 * SAMPLE) === HALF).map((p) => p.bib));
// The course's "previous edition": the other half of the field (never predicted here), its
// finish/half ratios by 5-minute band — what an organiser would give from last year's results.
const halfOf = new Map<string, number>();
for (const p of boston.passings)
  if (p.pointId === 'Half') halfOf.set(p.bib ?? '', p.timeMs - boston.race.gunTime!);
const edition = priorFromEditions(
  boston.official
    .filter((_, k) => k % 2 !== HALF)
    .map((o) => ({ halfMs: halfOf.get(o.bib) ?? Number.NaN, finishMs: o.officialTimeMs })),
);
const state = createResultsState(computeResults(boston.race, boston.participants, []));
const passings = [...boston.passings].sort((a, b) => a.timeMs - b.timeMs);
const pointIndex = new Map(boston.race.points.map((p, k) => [p.id, k]));

type Model = 'fade' | 'edition' | 'profile' | 'even';
const errors = new Map<string, number[]>();
const push = (point: string, model: Model, e: number) => {
  const key = `${point}|${model}`;
  const list = errors.get(key) ?? [];
  list.push(e);
  errors.set(key, list);
};
const inside = new Map<string, number>();
const below = new Map<string, number>();
const widths = new Map<string, number[]>();
const started = performance.now();
let predictMs = 0;
for (const passing of passings) {
  applyPassing(state, passing);
  const bib = passing.bib ?? '';
  if (!sampled.has(bib) || !POINTS.includes(passing.pointId)) continue;
  const actual = official.get(bib);
  const i = participantIndexOf(state, bib);
  if (actual === undefined || i < 0) continue;
  const t0 = performance.now();
  const withFade = predict(state, i);
  const profileOnly = predict(state, i, { fade: false });
  const withEdition = predict(state, i, { prior: edition });
  predictMs += performance.now() - t0;
  const p = pointIndex.get(passing.pointId)!;
  const own = netTimeOf(state, i, p);
  if (withFade) push(passing.pointId, 'fade', withFade.finishNetMs - actual);
  if (withFade?.finishRange) {
    const [low, high] = withFade.finishRange;
    inside.set(
      passing.pointId,
      (inside.get(passing.pointId) ?? 0) + (low <= actual && actual <= high ? 1 : 0),
    );
    below.set(passing.pointId, (below.get(passing.pointId) ?? 0) + (actual < low ? 1 : 0));
    widths.set(passing.pointId, [...(widths.get(passing.pointId) ?? []), high - low]);
  }
  if (withEdition) push(passing.pointId, 'edition', withEdition.finishNetMs - actual);
  if (profileOnly) push(passing.pointId, 'profile', profileOnly.finishNetMs - actual);
  push(passing.pointId, 'even', (own * 42_195) / boston.race.points[p]!.distanceM - actual);
}
const elapsed = performance.now() - started;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};
const min = (ms: number) => `${(ms / 60_000).toFixed(2)}`;
console.log(
  `Boston 2017 replayed live: ${passings.length} reads in ${(elapsed / 1000).toFixed(1)} s (${(predictMs / 1000).toFixed(1)} s predicting); ` +
    `${sampled.size} runners predicted (1 in ${2 * SAMPLE}, ${HALF ? 'odd' : 'even'} half). ` +
    'Targets at the half: median absolute error ≤ 5 min, |median signed error| ≤ 1 min.\n',
);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
console.log(
  '| point | runners | predict(): MAE / signed (min) | inside its 80 % interval | below / above | mean width (min) | with a previous edition as the prior | field profile only (before issue 19) | even pace (baseline) |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const point of POINTS) {
  const cell = (model: Model) => {
    const list = errors.get(`${point}|${model}`) ?? [];
    return `${min(median(list.map(Math.abs)))} / ${min(median(list))}`;
  };
  const n = errors.get(`${point}|fade`)?.length ?? 0;
  const ranged = widths.get(point)?.length ?? 0;
  const share = (count: number) => `${((100 * count) / Math.max(1, ranged)).toFixed(1)} %`;
  const inn = inside.get(point) ?? 0;
  const low = below.get(point) ?? 0;
  console.log(
    `| ${point} | ${n} | ${cell('fade')} | ${share(inn)} | ${share(low)} / ${share(ranged - inn - low)} | ${min(mean(widths.get(point) ?? []))} | ${cell('edition')} | ${cell('profile')} | ${cell('even')} |`,
  );
}
