import fc from 'fast-check';
import { getResultRow } from '../result-row.ts';
import type { RaceResults } from '../results-model.ts';
import type {
  Gender,
  Participant,
  Passing,
  RaceDefinition,
  RegistrationStatus,
  ResultRules,
  StartType,
} from '../types.ts';

/** A random small race with its passings, for property tests of the results engine. */
export interface RaceScenario {
  readonly race: RaceDefinition;
  readonly participants: Participant[];
  readonly passings: Passing[];
  readonly rules: ResultRules;
}

const GUN = Date.UTC(2026, 4, 31, 8, 0, 0);
const SECOND = 1000;

const participantArb = fc.record({
  gender: fc.constantFrom<Gender>('M', 'F', 'X'),
  age: fc.option(fc.integer({ min: 10, max: 85 }), { nil: undefined }),
  status: fc.constantFrom<RegistrationStatus>('registered', 'registered', 'registered', 'DNF', 'DSQ', 'DNS'),
  wave: fc.constantFrom('w1', 'w2'),
  startOffset: fc.integer({ min: 0, max: 5 }),
  explicitCategory: fc.boolean(),
  hasChip: fc.boolean(),
});

/**
 * Reads land on a coarse grid of seconds so that equal times (ties) and re-reads within the
 * window are frequent; some name an unknown bib or point, some are corrections (deleted).
 */
const readArb = (maxPeople: number) =>
  fc.record({
    who: fc.integer({ min: 0, max: maxPeople + 1 }),
    byChip: fc.boolean(),
    slot: fc.integer({ min: -1, max: 3 }),
    second: fc.integer({ min: -2, max: 40 }),
    deleteLater: fc.integer({ min: 0, max: 9 }),
  });

const rulesArb: fc.Arbitrary<ResultRules> = fc.record({
  rankBy: fc.constantFrom<'net' | 'gun'>('net', 'gun'),
  startRead: fc.constantFrom<'first' | 'last'>('first', 'last'),
  pointRead: fc.constantFrom<'first' | 'last'>('first', 'last'),
  rereadWindowMs: fc.constantFrom(0, 2 * SECOND, 5 * SECOND),
  fallbackPaceMsPerKm: fc.constant(300 * SECOND),
});

/**
 * Random race, participants (1 to `maxPeople`), passings (up to `maxReads`, with re-reads, ties,
 * unknown bibs and points, deletions) and rules.
 */
export function raceScenarioOf(maxPeople: number, maxReads: number): fc.Arbitrary<RaceScenario> {
  return fc
    .record({
      startType: fc.constantFrom<StartType>('mass', 'waves', 'individual'),
      hasStartMat: fc.boolean(),
      pointCount: fc.integer({ min: 1, max: 3 }),
      people: fc.array(participantArb, { minLength: 1, maxLength: maxPeople }),
      reads: fc.array(readArb(maxPeople), { maxLength: maxReads }),
      rules: rulesArb,
    })
    .map(({ startType, hasStartMat, pointCount, people, reads, rules }) => {
      const points = Array.from({ length: pointCount }, (_, p) => ({
        id: `p${p}`,
        name: `P${p}`,
        distanceM: 1000 * (p + 1),
      }));
      const race: RaceDefinition = {
        id: 'r',
        name: 'Race',
        date: '2026-05-31',
        startType,
        gunTime: GUN,
        waves: [
          { id: 'w1', startTime: GUN },
          { id: 'w2', startTime: GUN + 3 * SECOND },
        ],
        ...(hasStartMat ? { startPoint: { id: 'start', name: 'Start', distanceM: 0 } } : {}),
        points,
        categories: [
          { id: 'elite', name: 'Elite', minAge: 200 },
          { id: 'young', name: 'Young', maxAge: 39 },
          { id: 'F40', name: 'F 40+', gender: 'F', minAge: 40 },
          { id: 'M40', name: 'M 40+', gender: 'M', minAge: 40 },
        ],
      };
      const participants: Participant[] = people.map((p, i) => ({
        bib: i % 3 === 2 ? `F${i}` : String(i + 1),
        ...(p.hasChip ? { chips: [`chip-${i}`] } : {}),
        firstName: `First${i}`,
        lastName: `Last${i}`,
        gender: p.gender,
        ...(p.age === undefined ? { birthDate: `${1990 - i}-05-31` } : { age: p.age }),
        wave: p.wave,
        startTime: GUN + p.startOffset * SECOND,
        status: p.status,
        ...(p.explicitCategory ? { category: 'elite' } : {}),
      }));
      const passings: Passing[] = [];
      reads.forEach((read, k) => {
        const person = participants[read.who];
        const pointId =
          read.slot < 0 ? (hasStartMat ? 'start' : 'nowhere') : (points[read.slot]?.id ?? 'nowhere');
        const who = !person
          ? { bib: '999' }
          : read.byChip && person.chips
            ? { chip: person.chips[0]! }
            : { bib: person.bib };
        const passing: Passing = {
          id: `r${k}`,
          ...who,
          pointId,
          timeMs: GUN + read.second * SECOND,
          source: 'decoder',
        };
        passings.push(passing);
        if (read.deleteLater === 0) passings.push({ ...passing, deleted: true });
      });
      return { race, participants, passings, rules };
    });
}

/** Small races: every corner case within a few runners and a few dozen reads. */
export const raceScenario = raceScenarioOf(8, 40);

/** Everything the results say about every participant, as plain data to compare. */
export function snapshotResults(results: RaceResults) {
  return {
    rows: results.index.participants.map((_, i) => getResultRow(results, i)),
    order: results.rankings.map((r) => Array.from(r.overall.ids.subarray(0, r.overall.size))),
    unmatched: results.unmatched.map((p) => p.id).sort(),
  };
}

/** A permutation of `items` driven by `keys` (fast-check shrinks keys, not the permutation). */
export function permute<T>(items: readonly T[], keys: readonly number[]): T[] {
  return items
    .map((item, k) => ({ item, key: keys[k % Math.max(1, keys.length)] ?? 0, k }))
    .sort((a, b) => a.key - b.key || a.k - b.k)
    .map((x) => x.item);
}
