import { bucketPassings } from './bucketing.ts';
import { indexRace, type RaceIndex } from './race-index.ts';
import { buildRankings } from './rankings-build.ts';
import { type RaceResults, recomputeRow } from './results-model.ts';
import {
  defaultRules,
  type Participant,
  type Passing,
  type RaceDefinition,
  type ResultRules,
} from './types.ts';

/**
 * A race, its participants and rules resolved once (bib and chip tables, categories, starts):
 * they change far less often than passings arrive, so a server may keep one and recompute from
 * it (`computeResultsFrom`). Rebuild it whenever the race, a participant or a rule changes.
 */
export type PreparedRace = RaceIndex;

/** Prepares a race for `computeResultsFrom`. Inputs are only read and must not change afterwards. */
export function prepareRace(
  race: RaceDefinition,
  participants: readonly Participant[],
  rules: ResultRules = defaultRules,
): PreparedRace {
  return indexRace(race, participants, rules);
}

/**
 * Computes the results of a race from scratch (product.md "Results": computed, never typed in).
 * Pure: the inputs are only read. The outcome depends on the set of passings only, never on
 * their order or on duplicates. Budget: Boston 2017 (26,410 runners × 10 points) in ≤ 30 ms.
 */
export function computeResults(
  race: RaceDefinition,
  participants: readonly Participant[],
  passings: readonly Passing[],
  rules: ResultRules = defaultRules,
): RaceResults {
  return computeResultsFrom(prepareRace(race, participants, rules), passings);
}

/** A loop alone in its function: see `radix-sort.ts` on V8's on-stack replacement. */
function recomputeRows(results: RaceResults): void {
  for (let i = 0; i < results.index.n; i++) recomputeRow(results, i);
}

/** `computeResults` on a prepared race: the part of the work that passings drive. */
export function computeResultsFrom(prepared: PreparedRace, passings: readonly Passing[]): RaceResults {
  const index = prepared;
  const buckets = bucketPassings(index, passings);
  const { n, pointCount } = index;
  const results: RaceResults = {
    index,
    passings,
    ...buckets,
    startRead: new Float64Array(n),
    netStart: new Float64Array(n),
    at: new Float64Array(n * pointCount),
    rankings: [],
    profile: undefined,
  };
  recomputeRows(results);
  return { ...results, rankings: buildRankings(results) };
}
