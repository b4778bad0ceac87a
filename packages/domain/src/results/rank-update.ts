import { groupRankingsOf } from './rankings-build.ts';
import type { RaceResults } from './results-model.ts';
import {
  insertEntry,
  insertKey,
  removeEntry,
  removeKey,
  type SortedKeys,
  upperBound,
} from './sorted-index.ts';

const firstKey = (ranking: SortedKeys): number => (ranking.size > 0 ? ranking.keys[0]! : Number.NaN);

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
 * and category moves are subsets of it. A new leader changes every gap at the point; a new
 * leader of a gender or category changes the gaps of that group (gaps are measured from the
 * list's own leader, issue 27).
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
  // Group rankings are built from the overall order before it moves, so their leaders are known.
  const gender = groupRankingsOf(r, p, 'gender')[r.index.genderOf[i]!]!;
  const c = r.index.categoryOf[i]!;
  const category = c >= 0 ? groupRankingsOf(r, p, 'category')[c]! : undefined;
  const genderLeader = firstKey(gender);
  const categoryLeader = category ? firstKey(category) : Number.NaN;
  if (!Number.isNaN(before)) removeEntry(overall, before, i);
  if (!Number.isNaN(after)) insertEntry(overall, after, i);
  moveKey(gender, before, after);
  if (category) moveKey(category, before, after);
  const leaderAfter = overall.size > 0 ? overall.keys[0]! : Number.NaN;
  const ids = overall.ids;
  const newGenderLeader = !Object.is(genderLeader, firstKey(gender));
  const newCategoryLeader = category !== undefined && !Object.is(categoryLeader, firstKey(category));
  if (newGenderLeader || newCategoryLeader) {
    const genderOf = r.index.genderOf;
    const categoryOf = r.index.categoryOf;
    const g = genderOf[i]!;
    for (let k = 0; k < overall.size; k++) {
      const j = ids[k]!;
      if ((newGenderLeader && genderOf[j] === g) || (newCategoryLeader && categoryOf[j] === c)) touch(j);
    }
  }
  const low = Number.isNaN(before) ? after : Number.isNaN(after) ? before : Math.min(before, after);
  const high =
    Number.isNaN(before) || Number.isNaN(after) ? Number.POSITIVE_INFINITY : Math.max(before, after);
  const newLeader = !(leaderBefore === leaderAfter);
  const from = newLeader ? 0 : upperBound(overall, low);
  const to = newLeader || high === Number.POSITIVE_INFINITY ? overall.size : upperBound(overall, high);
  for (let k = from; k < to; k++) touch(ids[k]!);
}
