import type { RaceResults } from './results-model.ts';
import {
  insertEntry,
  insertKey,
  removeEntry,
  removeKey,
  type SortedKeys,
  upperBound,
} from './sorted-index.ts';

function moveKey(ranking: SortedKeys, before: number, after: number): void {
  if (!Number.isNaN(before)) removeKey(ranking, before);
  if (!Number.isNaN(after)) insertKey(ranking, after);
}

/**
 * Moves participant i at ranked point p from ranking time `before` to `after` (NaN: absent) in
 * the overall, gender and category rankings, and reports through `touch` every participant whose
 * rank or gap changed. A rank is 1 + the number strictly faster, so runner j's rank moves exactly
 * when i's time crosses j's: j's time lies in (min(before, after), max(before, after)], with an
 * absent time counting as +∞. That is one contiguous run of the overall order, and the gender
 * and category moves are subsets of it. A new leader changes every gap at the point.
 */
export function moveInRankings(
  r: RaceResults,
  i: number,
  p: number,
  before: number,
  after: number,
  touch: (j: number) => void,
): void {
  const rankings = r.rankings[p]!;
  const overall = rankings.overall;
  const leaderBefore = overall.size > 0 ? overall.keys[0]! : Number.NaN;
  if (!Number.isNaN(before)) removeEntry(overall, before, i);
  if (!Number.isNaN(after)) insertEntry(overall, after, i);
  // Group rankings not built yet will be split from the up-to-date overall order when asked for.
  if (rankings.gender) moveKey(rankings.gender[r.index.genderOf[i]!]!, before, after);
  const c = r.index.categoryOf[i]!;
  if (rankings.category && c >= 0) moveKey(rankings.category[c]!, before, after);
  const leaderAfter = overall.size > 0 ? overall.keys[0]! : Number.NaN;
  const low = Number.isNaN(before) ? after : Number.isNaN(after) ? before : Math.min(before, after);
  const high =
    Number.isNaN(before) || Number.isNaN(after) ? Number.POSITIVE_INFINITY : Math.max(before, after);
  const newLeader = !(leaderBefore === leaderAfter);
  const from = newLeader ? 0 : upperBound(overall, low);
  const to = newLeader || high === Number.POSITIVE_INFINITY ? overall.size : upperBound(overall, high);
  const ids = overall.ids;
  for (let k = from; k < to; k++) touch(ids[k]!);
}
