import { describe, expect, it } from 'vitest';
import { computeResults } from './compute.ts';
import { editionBands, priorFromBands } from './fade-model.ts';
import { editionRunnersOf, liveShift, predict } from './prediction.ts';
import { defaultRules, type Participant, type Passing, type RaceDefinition } from './types.ts';

const GUN = Date.UTC(2026, 4, 31, 8, 0, 0);
const MIN = 60_000;
const race: RaceDefinition = {
  id: '20k',
  name: '20 km',
  date: '2026-05-31',
  startType: 'mass',
  gunTime: GUN,
  points: [
    { id: '5k', name: '5 km', distanceM: 5000 },
    { id: '10k', name: '10 km', distanceM: 10_000 },
    { id: 'finish', name: 'Finish', distanceM: 20_000 },
  ],
  categories: [],
};
const runners: Participant[] = ['A', 'B', 'C', 'D', 'E'].map((bib) => ({
  bib,
  firstName: bib,
  lastName: bib,
  gender: 'M',
  status: bib === 'E' ? 'DNF' : 'registered',
}));
const at = (bib: string, pointId: string, minutes: number): Passing => ({
  id: `${bib}@${pointId}`,
  bib,
  pointId,
  timeMs: GUN + minutes * MIN,
  source: 'decoder',
});
// The field slows down: the second half takes 1.25 times the first (ratio 2.25 over 10 km → 20 km).
const field = [
  at('A', '5k', 20),
  at('A', '10k', 40),
  at('A', 'finish', 90),
  at('B', '5k', 25),
  at('B', '10k', 50),
];
const points = (p: ReturnType<typeof predict>) =>
  p?.points.map((x) => [x.pointId, x.netMs / MIN, (x.timeOfDay ?? 0) - GUN]);

describe('predict (product.md tracking: predicted finish and arrival at the next points)', () => {
  it('scales the field profile to the runner: own pace so far, the field’s shape ahead', () => {
    const results = computeResults(race, runners, [...field, at('B', 'finish', 112.5), at('C', '5k', 30)]);
    // The field's profile alone (the fade model is tested below).
    const c = predict(results, 2, { fade: false });
    expect(c?.basis).toBe('athlete');
    expect(points(c)).toEqual([
      ['10k', 60, 60 * MIN],
      ['finish', 135, 135 * MIN],
    ]);
    expect(c?.finishNetMs).toBe(135 * MIN);
  });

  it('takes the field median for a runner without a split, even pace where nobody ran yet', () => {
    const results = computeResults(race, runners, [...field, at('C', '5k', 30)]);
    const d = predict(results, 3);
    expect(d?.basis).toBe('field');
    // Median at 5 km of A, B, C = 25 min; 10 km: ratio 2; finish: A alone, 2.25.
    expect(points(d)).toEqual([
      ['5k', 25, 25 * MIN],
      ['10k', 50, 50 * MIN],
      ['finish', 112.5, 112.5 * MIN],
    ]);
    const early = computeResults(race, runners, [at('A', '5k', 20), at('A', '10k', 40)]);
    expect(predict(early, 3)?.finishNetMs).toBe(80 * MIN);
  });

  it('falls back to an even pace when the field has no split at all', () => {
    const results = computeResults(race, runners, [], { ...defaultRules, fallbackPaceMsPerKm: 6 * MIN });
    const p = predict(results, 0);
    expect(p?.basis).toBe('evenPace');
    expect(points(p)?.map(([, net]) => net)).toEqual([30, 60, 120]);
  });

  it('predicts nothing for finished or out-of-race runners', () => {
    const results = computeResults(race, runners, [...field, at('E', '5k', 20)]);
    expect(predict(results, 0)).toBeNull();
    expect(predict(results, 4)).toBeNull();
  });

  it('fades by pace (issue 19): before anyone finishes a marathon, slower than even pace, the slower the more', () => {
    const marathon: RaceDefinition = {
      ...race,
      id: 'm',
      points: [
        { id: 'half', name: 'Half', distanceM: 21_097.5 },
        { id: 'finish', name: 'Finish', distanceM: 42_195 },
      ],
    };
    const halves = [at('A', 'half', 80), at('B', 'half', 120), at('C', 'half', 160)];
    const results = computeResults(marathon, runners, halves);
    const ratios = [0, 1, 2].map((i) => predict(results, i)!.finishNetMs / ((80 + 40 * i) * MIN));
    expect(ratios[0]).toBeGreaterThan(2);
    expect(ratios[1]).toBeGreaterThan(ratios[0]!);
    expect(ratios[2]).toBeGreaterThan(ratios[1]!);
    // Without the fade: an even pace, as nobody ran the second half yet.
    expect(predict(results, 1, { fade: false })!.finishNetMs).toBe(240 * MIN);
  });

  it('takes the previous editions as the prior: their band ratio before anyone is ahead', () => {
    const marathon: RaceDefinition = {
      ...race,
      id: 'm',
      points: [
        { id: 'half', name: 'Half', distanceM: 21_097.5 },
        { id: 'finish', name: 'Finish', distanceM: 42_195 },
      ],
    };
    const results = computeResults(marathon, runners, [at('A', 'half', 100)]);
    const bands = editionBands(
      Array.from({ length: 6 }, () => ({ halfMs: 101 * MIN, finishMs: 101 * MIN * 2.3 })),
    );
    expect(predict(results, 0, { prior: priorFromBands(bands) })!.finishNetMs).toBe(230 * MIN);
    expect(predict(results, 0)!.finishNetMs).toBeLessThan(220 * MIN);
  });

  it('reads a race’s finishers as a previous edition: half (brought to half-way) and finish', () => {
    const marathon: RaceDefinition = {
      ...race,
      id: 'm',
      points: [
        { id: '20k', name: '20 km', distanceM: 20_000 },
        { id: 'finish', name: 'Finish', distanceM: 42_195 },
      ],
    };
    const results = computeResults(marathon, runners, [
      at('A', '20k', 100),
      at('A', 'finish', 230),
      at('B', '20k', 120),
    ]);
    expect(editionRunnersOf(results)).toEqual([
      { halfMs: 100 * MIN * (21_097.5 / 20_000), finishMs: 230 * MIN },
    ]);
    // Any distance: the 20 km race's 10 km is its half; without a point near half-way, nothing.
    expect(editionRunnersOf(computeResults(race, runners, [...field, at('B', 'finish', 112.5)]))).toEqual([
      { halfMs: 40 * MIN, finishMs: 90 * MIN },
      { halfMs: 50 * MIN, finishMs: 112.5 * MIN },
    ]);
    const noHalf = { ...race, points: [race.points[0]!, race.points[2]!] };
    expect(editionRunnersOf(computeResults(noHalf, runners, [...field, at('B', 'finish', 112.5)]))).toEqual(
      [],
    );
  });

  it('fades men more than women of the same pace (GENDER_FADE), both slower than even', () => {
    const marathon: RaceDefinition = {
      ...race,
      id: 'm',
      points: [
        { id: 'half', name: 'Half', distanceM: 21_097.5 },
        { id: 'finish', name: 'Finish', distanceM: 42_195 },
      ],
    };
    const pair: Participant[] = [
      { bib: 'M', firstName: 'M', lastName: 'M', gender: 'M', status: 'registered' },
      { bib: 'F', firstName: 'F', lastName: 'F', gender: 'F', status: 'registered' },
    ];
    const results = computeResults(marathon, pair, [at('M', 'half', 110), at('F', 'half', 110)]);
    const man = predict(results, 0)!.finishNetMs;
    const woman = predict(results, 1)!.finishNetMs;
    expect(woman).toBeGreaterThan(220 * MIN);
    expect(man).toBeGreaterThan(woman);
  });

  it('counts the runners ahead by their number, however little of the way they have run', () => {
    const marathon: RaceDefinition = {
      ...race,
      id: 'm',
      points: [
        { id: 'half', name: 'Half', distanceM: 21_097.5 },
        { id: '25k', name: '25 km', distanceM: 25_000 },
        { id: 'finish', name: 'Finish', distanceM: 42_195 },
      ],
    };
    const many: Participant[] = Array.from({ length: 13 }, (_, k) => ({
      bib: `R${k}`,
      firstName: 'R',
      lastName: `${k}`,
      gender: 'M',
      status: 'registered',
    }));
    // 12 runners ran half → 25 km 10 % slower than an even pace: a hot day, seen early.
    const ahead = many
      .slice(0, 12)
      .flatMap((p, k) => [
        at(p.bib, 'half', 80 + k),
        at(p.bib, '25k', (80 + k) * (1 + (3902.5 / 21_097.5) * 1.1)),
      ]);
    const results = computeResults(marathon, many, [...ahead, at('R12', 'half', 100)]);
    const { shift, weight } = liveShift(results, 0);
    expect(weight).toBe(12);
    expect(shift).toBeGreaterThan(0);
    // The hot day moves the prediction of the runner behind, who has no one of their pace ahead.
    const alone = computeResults(marathon, many, [at('R12', 'half', 100)]);
    expect(predict(results, 12)!.finishNetMs).toBeGreaterThan(predict(alone, 12)!.finishNetMs);
  });

  it('with nobody ahead, the 80 % interval is the prior’s doubt: 10 % faster to 13 % slower on the time still to run (issues 27, 41)', () => {
    const marathon: RaceDefinition = {
      ...race,
      id: 'm',
      points: [
        { id: 'half', name: 'Half', distanceM: 21_097.5 },
        { id: 'finish', name: 'Finish', distanceM: 42_195 },
      ],
    };
    const results = computeResults(marathon, runners, [at('A', 'half', 100)]);
    const p = predict(results, 0)!;
    const toRun = p.finishNetMs - 100 * MIN;
    expect(toRun).toBeGreaterThan(100 * MIN);
    const [low, high] = p.finishRange!;
    expect(Math.abs(low - (p.finishNetMs - 0.1 * toRun))).toBeLessThanOrEqual(1);
    expect(Math.abs(high - (p.finishNetMs + 0.13 * toRun))).toBeLessThanOrEqual(1);
  });

  it('once runners ahead have run the whole way, their spread sets the interval, not the prior (issue 27)', () => {
    const marathon: RaceDefinition = {
      ...race,
      id: 'm',
      points: [
        { id: 'half', name: 'Half', distanceM: 21_097.5 },
        { id: 'finish', name: 'Finish', distanceM: 42_195 },
      ],
    };
    const many: Participant[] = Array.from({ length: 121 }, (_, k) => ({
      bib: `R${k}`,
      firstName: 'R',
      lastName: `${k}`,
      gender: 'F',
      status: 'registered',
    }));
    // 120 runners ahead, all finishing within ±1 % of the same second-half ratio: a narrow spread.
    const ahead = many
      .slice(0, 120)
      .flatMap((p, k) => [
        at(p.bib, 'half', 80 + k / 12),
        at(p.bib, 'finish', (80 + k / 12) * (2.1 + (k % 5) * 0.005)),
      ]);
    const results = computeResults(marathon, many, [...ahead, at('R120', 'half', 100)]);
    const p = predict(results, 120)!;
    const [low, high] = p.finishRange!;
    const toRun = p.finishNetMs - 100 * MIN;
    expect(low).toBeLessThanOrEqual(p.finishNetMs);
    expect(high).toBeGreaterThanOrEqual(p.finishNetMs);
    // Far narrower than the prior's 23 % of the time still to run.
    expect(high - low).toBeLessThan(0.1 * toRun);
  });

  it('the spread of fewer than 100 runners ahead does not set the interval: its percentiles would rest on a handful of leaders (issue 41)', () => {
    const marathon: RaceDefinition = {
      ...race,
      id: 'm',
      points: [
        { id: 'half', name: 'Half', distanceM: 21_097.5 },
        { id: 'finish', name: 'Finish', distanceM: 42_195 },
      ],
    };
    const many: Participant[] = Array.from({ length: 41 }, (_, k) => ({
      bib: `R${k}`,
      firstName: 'R',
      lastName: `${k}`,
      gender: 'F',
      status: 'registered',
    }));
    // 40 leaders as even as the 120 above: the 10th and 90th percentiles rest on 4 runners each.
    const ahead = many
      .slice(0, 40)
      .flatMap((p, k) => [
        at(p.bib, 'half', 80 + k / 4),
        at(p.bib, 'finish', (80 + k / 4) * (2.1 + (k % 5) * 0.005)),
      ]);
    const results = computeResults(marathon, many, [...ahead, at('R40', 'half', 100)]);
    const p = predict(results, 40)!;
    const [low, high] = p.finishRange!;
    const toRun = p.finishNetMs - 100 * MIN;
    // The prior's doubt stands: 10 % faster to 13 % slower on the time still to run.
    expect(Math.abs(low - (p.finishNetMs - 0.1 * toRun))).toBeLessThanOrEqual(1);
    expect(Math.abs(high - (p.finishNetMs + 0.13 * toRun))).toBeLessThanOrEqual(1);
  });

  it('weighs the last segment again: slowing on it predicts a later finish than slowing before it', () => {
    const marathon: RaceDefinition = {
      ...race,
      id: 'm',
      points: [
        { id: '15k', name: '15 km', distanceM: 15_000 },
        { id: '20k', name: '20 km', distanceM: 20_000 },
        { id: 'half', name: 'Half', distanceM: 21_097.5 },
        { id: 'finish', name: 'Finish', distanceM: 42_195 },
      ],
    };
    // Same 15 km and half times: only where between them the runner lost time differs.
    const results = computeResults(marathon, runners, [
      at('A', '15k', 75),
      at('A', '20k', 101),
      at('A', 'half', 107),
      at('B', '15k', 75),
      at('B', '20k', 100),
      at('B', 'half', 107),
      at('C', '15k', 75),
      at('C', '20k', 100),
      at('C', 'half', 105.5),
    ]);
    const earlier = predict(results, 0)!.finishNetMs;
    const onTheLast = predict(results, 1)!.finishNetMs;
    expect(onTheLast).toBeGreaterThan(earlier);
  });
});
