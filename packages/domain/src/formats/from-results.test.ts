import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeResults } from '../results/compute.ts';
import { applyPassing, createResultsState } from '../results/incremental.ts';
import type { Participant, Passing, RaceDefinition } from '../results/types.ts';
import { passingsOfResults } from './from-results.ts';
import { computeLapRace, type LapRaceDefinition } from './laps.ts';

const START = Date.UTC(2026, 5, 6, 10, 0, 0);
const road: RaceDefinition = {
  id: 'crit',
  name: 'Criterium',
  date: '2026-06-06',
  startType: 'mass',
  gunTime: START,
  points: [{ id: 'line', name: 'Line', distanceM: 1200 }],
  categories: [],
};
const laps: LapRaceDefinition = {
  startMs: START,
  lapPointId: 'line',
  minLapMs: 60_000,
  lapLengthM: 1200,
  targetLaps: 5,
};

describe('passingsOfResults: a live road-race state feeds the formats', () => {
  it('gives the lap race the same results as the passings themselves, from a recompute or applied one by one', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(
          fc.record({
            who: fc.nat(7),
            s: fc.integer({ min: 0, max: 900 }),
            chip: fc.boolean(),
            del: fc.nat(9),
          }),
          {
            maxLength: 50,
          },
        ),
        fc.nat(50),
        (n, reads, cut) => {
          const participants: Participant[] = Array.from({ length: n }, (_, i) => ({
            bib: String(i + 1),
            chips: [`C${i + 1}`],
            firstName: '',
            lastName: '',
            gender: 'M',
            status: 'registered',
          }));
          const passings: Passing[] = reads.map((r, k) => ({
            id: `r${k}`,
            ...(r.chip ? { chip: `C${r.who + 1}` } : { bib: String(r.who + 1) }),
            pointId: 'line',
            timeMs: START + r.s * 1000,
            source: 'decoder',
            ...(r.del === 0 ? { deleted: true } : {}),
          }));
          const direct = computeLapRace(laps, participants, passings);
          const strip = (x: typeof direct) => x.rows.map((r) => [r.laps, r.lapTimesMs, r.rank, r.status]);
          const full = computeResults(road, participants, passings);
          expect(strip(computeLapRace(laps, participants, passingsOfResults(full)))).toEqual(strip(direct));
          const state = createResultsState(computeResults(road, participants, passings.slice(0, cut)));
          for (const p of passings.slice(cut)) applyPassing(state, p);
          expect(strip(computeLapRace(laps, participants, passingsOfResults(state)))).toEqual(strip(direct));
        },
      ),
      { numRuns: 300 },
    );
  });
});
