/// <reference types="node" />
// `npm run bench -- prediction` (issue 19): the finish predicted at half-way on Boston 2017, made
// live — each runner predicted at the moment they pass the half, with only the reads that exist
// then (the finishers known at that instant refine the fade model) — against the official finish.
// Median absolute error and median signed error (negative: predicted too fast), for the fade model
// by pace band (general prior refined live), the same model without the live refinement, a single
// fade for the whole field (the field's finishers so far), and an even pace (the baseline).
import { readFileSync } from 'node:fs';
import { importBostonTable } from '../src/results/boston-import.ts';
import { EVEN_PACE_RATIO, FadeModel, generalMarathonFade } from '../src/results/fade-model.ts';
import { readCsv } from '../test/read-csv.ts';

const DATA = new URL('../../../fixtures/boston-2017.csv', import.meta.url);
const boston = importBostonTable(readCsv(readFileSync(DATA, 'utf8')));
const at = new Map<string, { start?: number; half?: number; finish?: number }>();
for (const p of boston.passings) {
  if (!p.bib) continue;
  const r = at.get(p.bib) ?? {};
  if (p.pointId === 'start') r.start = p.timeMs;
  if (p.pointId === 'Half') r.half = p.timeMs;
  if (p.pointId === 'finish') r.finish = p.timeMs;
  at.set(p.bib, r);
}
const official = new Map(boston.official.map((o) => [o.bib, o.officialTimeMs]));

interface Runner {
  halfAt: number;
  finishAt: number;
  halfMs: number;
  finishMs: number;
}
const runners: Runner[] = [];
for (const [bib, r] of at) {
  const finishMs = official.get(bib);
  if (r.start === undefined || r.half === undefined || r.finish === undefined || finishMs === undefined)
    continue;
  runners.push({ halfAt: r.half, finishAt: r.finish, halfMs: r.half - r.start, finishMs });
}

// Events in time order: a finish becomes known at its time; a half is predicted at its time.
type Event = { t: number; kind: 0 | 1; r: Runner };
const events: Event[] = [];
for (const r of runners) {
  events.push({ t: r.finishAt, kind: 0, r }); // finishes first at equal times: they exist then
  events.push({ t: r.halfAt, kind: 1, r });
}
events.sort((a, b) => a.t - b.t || a.kind - b.kind);

const live = new FadeModel(generalMarathonFade);
const priorOnly = new FadeModel(generalMarathonFade, { priorWeight: 1e12 });
let fieldSum = 0;
let fieldN = 0;
const errors: Record<string, number[]> = { bands: [], prior: [], field: [], even: [] };
const started = performance.now();
for (const e of events) {
  if (e.kind === 0) {
    live.observe(e.r.halfMs, e.r.finishMs);
    fieldSum += e.r.finishMs / e.r.halfMs;
    fieldN++;
    continue;
  }
  const { halfMs, finishMs } = e.r;
  errors.bands!.push(live.predictFinish(halfMs) - finishMs);
  errors.prior!.push(priorOnly.predictFinish(halfMs) - finishMs);
  errors.field!.push(halfMs * (fieldN ? fieldSum / fieldN : EVEN_PACE_RATIO) - finishMs);
  errors.even!.push(halfMs * EVEN_PACE_RATIO - finishMs);
}
const elapsed = performance.now() - started;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const min = (ms: number) => `${(ms / 60_000).toFixed(2)} min`;
console.log(
  `Boston 2017, ${runners.length} runners, each predicted live at the half (${elapsed.toFixed(0)} ms for all); targets: median absolute error ≤ 5 min, |median signed error| ≤ 1 min\n`,
);
console.log('| model | median absolute error | median signed error |');
console.log('|---|---:|---:|');
const rows: [string, number[]][] = [
  ['fade by pace band, general prior refined live (Tempora)', errors.bands!],
  ['fade by pace band, general prior only', errors.prior!],
  ['one fade for the field (its finishers so far)', errors.field!],
  ['baseline: even pace (2 × half)', errors.even!],
];
for (const [name, list] of rows) {
  console.log(`| ${name} | ${min(median(list.map(Math.abs)))} | ${min(median(list))} |`);
}
