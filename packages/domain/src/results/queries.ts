import { type Millis, shownGap } from '../time-format.ts';
import { isRankedAt } from './race-index.ts';
import { groupRankingsOf } from './rankings-build.ts';
import { type RaceResults, rankKeyOf } from './results-model.ts';
import { rankOf, type SortedKeys } from './sorted-index.ts';
import { lookupString } from './string-table.ts';
import type { Bib, RankScope, ResultStatus } from './types.ts';

/** Index of the participant wearing `bib`, or -1. */
export function participantIndexOf(results: RaceResults, bib: Bib): number {
  return lookupString(results.index.byBib, bib);
}

/**
 * The ranking participant i belongs to at ranked point p for `scope`, or undefined when the
 * participant has no category.
 */
export function rankingFor(
  results: RaceResults,
  i: number,
  p: number,
  scope: RankScope,
): SortedKeys | undefined {
  const rankings = results.rankings[p];
  if (!rankings) return undefined;
  if (scope === 'overall') return rankings.overall;
  if (scope === 'gender') return groupRankingsOf(results, p, 'gender')[results.index.genderOf[i]!];
  const c = results.index.categoryOf[i]!;
  return c < 0 ? undefined : groupRankingsOf(results, p, 'category')[c];
}

/**
 * Rank of participant i at ranked point p: 1 + the number of runners of the same ranking with a
 * strictly better time, so equal times share a rank and the next one skips (1, 2, 2, 4). A binary
 * search, O(log n). Null when the runner has no time there or takes no rank (DNS, DSQ, DNF at
 * the finish).
 */
export function rankAt(
  results: RaceResults,
  i: number,
  p: number,
  scope: RankScope = 'overall',
): number | null {
  if (!isRankedAt(results.index, i, p)) return null;
  const key = rankKeyOf(results, i, p);
  const ranking = rankingFor(results, i, p, scope);
  if (Number.isNaN(key) || !ranking) return null;
  return rankOf(ranking, key);
}

/**
 * Time behind the leader of the runner's list at ranked point p (net or gun, as ranked): the
 * overall leader, or the first of the runner's gender or category for those lists (issue 27:
 * the women's winner is 0 behind in the women's list, not 12:15 behind the first man). Null when
 * the runner takes no rank there: a disqualified runner is behind nobody. The difference of the
 * two times as shown (whole seconds, truncated: `shownGap`), so that a gap read on screen is the
 * difference of the times on screen (issue 19: 28:41 behind 28:32 is +9, not +8).
 */
export function gapAt(
  results: RaceResults,
  i: number,
  p: number,
  scope: RankScope = 'overall',
): Millis | null {
  const key = rankKeyOf(results, i, p);
  if (Number.isNaN(key) || !isRankedAt(results.index, i, p)) return null;
  const ranking = rankingFor(results, i, p, scope);
  if (!ranking || ranking.size === 0) return null;
  return shownGap(key, ranking.keys[0]!);
}

/**
 * Participant indices in rank order at ranked point p: overall (a view on live storage: copy it
 * to keep it), or of one gender / category group (index into `GENDERS` / `race.categories`),
 * picked from the overall order in O(n): a leaders board asks for it, not every passing.
 */
export function rankingOrder(
  results: RaceResults,
  p: number,
  scope: RankScope = 'overall',
  group = 0,
): Int32Array {
  const overall = results.rankings[p]?.overall;
  if (!overall) return new Int32Array(0);
  const order = overall.ids.subarray(0, overall.size);
  if (scope === 'overall') return order;
  const groupOf = scope === 'gender' ? results.index.genderOf : results.index.categoryOf;
  return order.filter((i) => groupOf[i] === group);
}

/** Highest ranked point participant i has reached, or -1. */
export function lastPointOf(results: RaceResults, i: number): number {
  const { pointCount } = results.index;
  for (let p = pointCount - 1; p >= 0; p--) {
    if (!Number.isNaN(results.at[i * pointCount + p]!)) return p;
  }
  return -1;
}

/**
 * Status of participant i: a DNS, DNF or DSQ set by the organiser stands; otherwise finished with
 * a finish time, on course with any read, not started without one. "Now" is not an input of a
 * pure engine, so a mass-start runner with no read yet stays "not started" until a mat sees them.
 */
export function statusOf(results: RaceResults, i: number): ResultStatus {
  const registered = results.index.participants[i]!.status;
  if (registered !== 'registered') return registered;
  const last = lastPointOf(results, i);
  if (last >= 0 && last === results.index.pointCount - 1) return 'finished';
  return last >= 0 || !Number.isNaN(results.startRead[i]!) ? 'onCourse' : 'notStarted';
}
