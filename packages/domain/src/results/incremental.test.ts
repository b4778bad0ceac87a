import { describe, expect, it } from 'vitest';
import { computeResults } from './compute.ts';
import { applyPassing, createResultsState } from './incremental.ts';
import { gapAt, rankAt } from './queries.ts';
import type { Participant, Passing, RaceDefinition } from './types.ts';

const GUN = Date.UTC(2026, 4, 31, 8, 0, 0);
const race: RaceDefinition = {
  id: '5k',
  name: '5 km',
  date: '2026-05-31',
  startType: 'mass',
  gunTime: GUN,
  points: [{ id: 'finish', name: 'Finish', distanceM: 5000 }],
  categories: [],
};
const runners: Participant[] = ['1', '2', '3', '4'].map((bib) => ({
  bib,
  firstName: bib,
  lastName: bib,
  gender: 'F',
  status: 'registered',
}));
const finish = (id: string, bib: string, seconds: number, deleted = false): Passing => ({
  id,
  bib,
  pointId: 'finish',
  timeMs: GUN + seconds * 1000,
  source: 'decoder',
  ...(deleted ? { deleted } : {}),
});

describe('applyPassing (incremental results)', () => {
  const start = () =>
    createResultsState(computeResults(race, runners, [finish('a', '1', 1000), finish('b', '2', 1100)]));

  it('lists the runner and everyone it overtook, and leaves the full recompute untouched', () => {
    const full = computeResults(race, runners, [finish('a', '1', 1000), finish('b', '2', 1100)]);
    const state = createResultsState(full);
    const change = applyPassing(state, finish('c', '3', 1050));
    expect(change.outcome).toBe('applied');
    expect([...change.changed].sort()).toEqual([1, 2]);
    expect(rankAt(state, 1, 0)).toBe(3);
    expect(rankAt(full, 1, 0)).toBe(2);
  });

  it('lists the whole field when the leader changes, as every gap moves', () => {
    const state = start();
    expect([...applyPassing(state, finish('c', '3', 900)).changed].sort()).toEqual([0, 1, 2]);
  });

  it('tells duplicates, re-reads and unknown runners apart', () => {
    const state = start();
    expect(applyPassing(state, finish('a', '1', 1000)).outcome).toBe('duplicate');
    expect(applyPassing(state, finish('a2', '1', 1003))).toMatchObject({
      outcome: 'stored',
      changed: new Int32Array(0),
    });
    expect(applyPassing(state, finish('x', '99', 1000)).outcome).toBe('unmatched');
    expect(applyPassing(state, finish('x', '99', 1000)).outcome).toBe('duplicate');
    expect(state.unmatched.map((p) => p.id)).toEqual(['x']);
  });

  it('applies a correction: the deleted read stops counting, the next read takes over', () => {
    const state = start();
    applyPassing(state, finish('a2', '1', 1200));
    const change = applyPassing(state, finish('a', '1', 1000, true));
    expect(change.outcome).toBe('applied');
    expect(rankAt(state, 0, 0)).toBe(2);
    expect(applyPassing(state, finish('a', '1', 1000)).outcome).toBe('duplicate');
    expect(rankAt(state, 0, 0)).toBe(2);
  });

  it('lists a whole gender when its leader changes, as every gap in its list moves (issue 27)', () => {
    // Bib 4 is a man, first overall: the women's first (bib 1) is not the overall leader.
    const field = runners.map((r) => (r.bib === '4' ? { ...r, gender: 'M' as const } : r));
    const reads = [
      finish('m', '4', 900),
      finish('a', '1', 1000),
      finish('a2', '1', 1003),
      finish('b', '2', 1100),
    ];
    const state = createResultsState(computeResults(race, field, reads));
    expect(gapAt(state, 1, 0, 'gender')).toBe(100_000);
    const change = applyPassing(state, finish('a', '1', 1000, true));
    expect(gapAt(state, 1, 0, 'gender')).toBe(97_000);
    expect([...change.changed]).toContain(1);
    expect(gapAt(state, 1, 0)).toBe(200_000);
  });
});
