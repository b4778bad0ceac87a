import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeResults } from './compute.ts';
import { applyPassing, createResultsState } from './incremental.ts';
import { predict } from './prediction.ts';
import { getResultRow } from './result-row.ts';
import { raceScenario } from './testing/race-arbitraries.ts';

/** Every number in `value` (deeply), with its path. */
function numbers(value: unknown, path = '', out: [string, number][] = []): [string, number][] {
  if (typeof value === 'number') out.push([path, value]);
  else if (Array.isArray(value)) {
    for (const [k, v] of value.entries()) numbers(v, `${path}[${k}]`, out);
  } else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) numbers(v, `${path}.${k}`, out);
  return out;
}

/** Races as an organiser may leave them (issue 13): no gun time, no wave or scheduled starts. */
const withoutStarts = raceScenario.map(({ race, participants, passings, rules }) => {
  const { gunTime: _gun, waves: _waves, ...bare } = race;
  return {
    race: bare,
    participants: participants.map(({ startTime: _start, wave: _wave, ...p }) => p),
    passings,
    rules,
  };
});

describe('results engine: never NaN (issue 13, races without gun time, runners without start reads)', () => {
  it('every number of every result row and prediction is finite', () => {
    fc.assert(
      fc.property(withoutStarts, ({ race, participants, passings, rules }) => {
        const results = computeResults(race, participants, passings, rules);
        participants.forEach((_, i) => {
          const bad = numbers({ row: getResultRow(results, i), prediction: predict(results, i) }).filter(
            ([, v]) => !Number.isFinite(v),
          );
          expect(bad).toEqual([]);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('the same holds when the passings arrive one at a time', () => {
    fc.assert(
      fc.property(withoutStarts, ({ race, participants, passings, rules }) => {
        const state = createResultsState(computeResults(race, participants, [], rules));
        for (const passing of passings) applyPassing(state, passing);
        participants.forEach((_, i) => {
          expect(numbers(getResultRow(state, i)).filter(([, v]) => !Number.isFinite(v))).toEqual([]);
        });
      }),
      { numRuns: 200 },
    );
  });
});
