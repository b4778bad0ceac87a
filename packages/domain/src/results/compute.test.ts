import { describe, expect, it } from 'vitest';
import { computeResults } from './compute.ts';
import { gapAt, participantIndexOf, rankAt, rankingOrder, statusOf } from './queries.ts';
import { getResultRow } from './result-row.ts';
import { defaultRules, type Participant, type Passing, type RaceDefinition } from './types.ts';

const GUN = Date.UTC(2026, 4, 31, 8, 0, 0);
const S = 1000;
const MIN = 60 * S;
const race: RaceDefinition = {
  id: '10k',
  name: '10 km',
  date: '2026-05-31',
  startType: 'mass',
  gunTime: GUN,
  startPoint: { id: 'start', name: 'Start', distanceM: 0 },
  points: [
    { id: '5k', name: '5 km', distanceM: 5000 },
    { id: 'finish', name: 'Finish', distanceM: 10_000 },
  ],
  categories: [
    { id: 'F40', name: 'F 40+', gender: 'F', minAge: 40 },
    { id: 'open', name: 'Open' },
  ],
};
const person = (
  bib: string,
  gender: 'M' | 'F',
  age: number,
  extra: Partial<Participant> = {},
): Participant => ({
  bib,
  firstName: bib,
  lastName: bib,
  gender,
  age,
  status: 'registered',
  ...extra,
});
const participants = [
  person('1', 'M', 30),
  person('2', 'F', 45, { chips: ['chip-2'] }),
  person('F3', 'F', 35),
  person('4', 'M', 50, { status: 'DSQ' }),
  person('5', 'M', 25, { status: 'DNF' }),
  person('6', 'M', 20),
  person('7', 'M', 40),
];
let nextId = 0;
const read = (who: { bib?: string; chip?: string }, pointId: string, at: number): Passing => ({
  id: `p${nextId++}`,
  ...who,
  pointId,
  timeMs: GUN + at,
  source: 'decoder',
});
const passings: Passing[] = [
  // Bib 1 stands on the mat before the gun and leaves at +2 s: the last read of the burst.
  read({ bib: '1' }, 'start', -30 * S),
  read({ bib: '1' }, 'start', 1 * S),
  read({ bib: '1' }, 'start', 2 * S),
  read({ bib: '1' }, '5k', 20 * MIN + 2 * S),
  read({ bib: '1' }, 'finish', 40 * MIN + 2 * S),
  read({ bib: '1' }, 'finish', 40 * MIN + 3 * S),
  read({ chip: 'chip-2' }, 'start', 10 * S),
  read({ chip: 'chip-2' }, '5k', 19 * MIN + 10 * S),
  read({ chip: 'chip-2' }, 'finish', 40 * MIN + 10 * S),
  read({ bib: 'F3' }, 'start', 5 * S),
  read({ bib: 'F3' }, 'finish', 39 * MIN + 5 * S),
  read({ bib: '4' }, 'finish', 30 * MIN),
  read({ bib: '5' }, 'start', 3 * S),
  read({ bib: '5' }, '5k', 18 * MIN + 3 * S),
  read({ bib: '5' }, 'finish', 35 * MIN),
  read({ bib: '7' }, 'finish', 41 * MIN),
  read({ bib: '999' }, 'finish', 41 * MIN),
  read({ bib: '1' }, 'mystery-mat', 41 * MIN),
];
const results = computeResults(race, participants, passings);
const at = (bib: string) => participantIndexOf(results, bib);
const FINISH = 1;

describe('computeResults (product.md "Results")', () => {
  it('ranks ties equally and skips after them: 1, 2, 2, 4', () => {
    const ranks = ['F3', '1', '2', '7'].map((bib) => rankAt(results, at(bib), FINISH));
    expect(ranks).toEqual([1, 2, 2, 4]);
    expect(Array.from(rankingOrder(results, FINISH)).map((i) => participants[i]!.bib)).toEqual([
      'F3',
      '1',
      '2',
      '7',
    ]);
  });

  it('ranks by gender and category among their own', () => {
    expect(rankAt(results, at('1'), FINISH, 'gender')).toBe(1);
    expect(rankAt(results, at('7'), FINISH, 'gender')).toBe(2);
    expect(rankAt(results, at('2'), FINISH, 'gender')).toBe(2);
    expect(rankAt(results, at('2'), FINISH, 'category')).toBe(1);
    expect(rankAt(results, at('F3'), FINISH, 'category')).toBe(1);
    expect(rankAt(results, at('7'), FINISH, 'category')).toBe(3);
  });

  it('computes gun, net, split, gap, pace and speed from the counted reads', () => {
    const row = getResultRow(results, at('1'));
    expect(row.netStart).toBe(GUN + 2 * S);
    expect(row.points[0]).toMatchObject({
      gunMs: 20 * MIN + 2 * S,
      netMs: 20 * MIN,
      splitMs: 20 * MIN,
      gapMs: 2 * MIN,
    });
    expect(row.points[1]).toMatchObject({
      gunMs: 40 * MIN + 2 * S,
      netMs: 40 * MIN,
      splitMs: 20 * MIN,
      gapMs: 60 * S,
    });
    expect(row.points[1]!.paceMsPerKm).toBe(4 * MIN);
    expect(row.points[1]!.speedKmh).toBe(15);
    expect(row).toMatchObject({ status: 'finished', lastPointId: 'finish', categoryId: 'open' });
  });

  it('keeps DSQ runners out of every ranking and DNF runners out of the finish ranking', () => {
    expect(rankAt(results, at('4'), FINISH)).toBeNull();
    expect(gapAt(results, at('4'), FINISH)).toBeNull();
    expect(statusOf(results, at('4'))).toBe('DSQ');
    expect(rankAt(results, at('5'), 0)).toBe(1);
    expect(rankAt(results, at('5'), FINISH)).toBeNull();
    expect(statusOf(results, at('5'))).toBe('DNF');
  });

  it('tells not started, on course and unmatched passings apart', () => {
    expect(getResultRow(results, at('6'))).toMatchObject({ status: 'notStarted', lastPointId: null });
    expect(statusOf(results, at('F3'))).toBe('finished');
    expect(results.unmatched.map((p) => p.bib)).toEqual(['999', '1']);
  });

  it('ranks on gun time when the rules say so; a missed start read costs the gun', () => {
    const gun = computeResults(race, participants, passings, { ...defaultRules, rankBy: 'gun' });
    expect(['F3', '1', '2', '7'].map((bib) => rankAt(gun, at(bib), FINISH))).toEqual([1, 2, 3, 4]);
    expect(getResultRow(gun, at('7')).points[1]).toMatchObject({ gunMs: 41 * MIN, netMs: 41 * MIN });
  });

  it('starts each wave and each time-trial rider at its own time', () => {
    const waves: RaceDefinition = {
      ...race,
      startType: 'waves',
      waves: [
        { id: 'a', startTime: GUN },
        { id: 'b', startTime: GUN + 10 * MIN },
      ],
    };
    const two = [person('1', 'M', 30, { wave: 'a' }), person('2', 'M', 30, { wave: 'b' })];
    const reads = [read({ bib: '1' }, 'finish', 40 * MIN), read({ bib: '2' }, 'finish', 45 * MIN)];
    const byWave = computeResults(waves, two, reads);
    expect(getResultRow(byWave, 1).points[1]!.gunMs).toBe(35 * MIN);
    expect(rankAt(byWave, 1, FINISH)).toBe(1);
    const trial = computeResults(
      { ...race, startType: 'individual' },
      [person('1', 'M', 30, { startTime: GUN + MIN }), person('2', 'M', 30)],
      reads,
    );
    expect(getResultRow(trial, 0).points[1]!.netMs).toBe(39 * MIN);
    expect(getResultRow(trial, 1).points[1]!.netMs).toBe(45 * MIN);
  });
});
