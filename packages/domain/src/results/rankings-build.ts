import { createSortScratch, sortByKey } from './radix-sort.ts';
import { gunStartOf, type PointRankings, type RaceResults } from './results-model.ts';
import type { SortedIndex, SortedKeys } from './sorted-index.ts';

/** Gathers the ranked times per point into columns `p × n + k`; returns the count per point. */
function gatherKeys(r: RaceResults, keys: Float64Array, ids: Int32Array): Int32Array {
  const { index } = r;
  const { n, pointCount } = index;
  const counts = new Int32Array(pointCount);
  const gun = index.rules.rankBy === 'gun';
  for (let i = 0; i < n; i++) {
    const level = index.rankLevel[i]!;
    if (level === 0) continue;
    const base = gun ? gunStartOf(r, i) : r.netStart[i]!;
    const points = level === 2 ? pointCount : pointCount - 1;
    for (let p = 0; p < points; p++) {
      const key = r.at[i * pointCount + p]! - base;
      if (Number.isNaN(key)) continue;
      const at = p * n + counts[p]!++;
      keys[at] = key;
      ids[at] = i;
    }
  }
  return counts;
}

/** Start of each group's region in a column where groups lie one after the other. */
function offsets(sizes: Int32Array): Int32Array {
  const starts = new Int32Array(sizes.length);
  for (let g = 1; g < sizes.length; g++) starts[g] = starts[g - 1]! + sizes[g - 1]!;
  return starts;
}

/**
 * Builds the overall rankings: one pass over the rows gathers the ranked times per point, one
 * radix sort per point orders them. They are views into two buffers: allocation costs here too.
 */
export function buildRankings(r: RaceResults): PointRankings[] {
  const { index } = r;
  const { n, pointCount } = index;
  const size = n * pointCount;
  const keys = new Float64Array(size);
  const ids = new Int32Array(size);
  const counts = gatherKeys(r, keys, ids);
  const scratch = createSortScratch(n);
  return Array.from({ length: pointCount }, (_, p) => {
    const from = p * n;
    const to = from + n;
    const overall = { keys: keys.subarray(from, to), ids: ids.subarray(from, to), size: counts[p]! };
    sortByKey(overall.keys, overall.ids, overall.size, scratch);
    return { overall, gender: undefined, category: undefined };
  });
}

/** Appends each entry's key to its group's region (a loop alone: see `radix-sort.ts`). */
function fill(overall: SortedIndex, groupOf: Int32Array, cursor: Int32Array, column: Float64Array): void {
  for (let k = 0; k < overall.size; k++) {
    const g = groupOf[overall.ids[k]!]!;
    if (g >= 0) column[cursor[g]!++] = overall.keys[k]!;
  }
}

/**
 * Splits the sorted overall order of one point into its groups' rankings: each group owns a
 * region of `column` sized for all its members, filled in order through typed-array cursors
 * (no object fields in the loop: it runs once per runner), then viewed as rankings.
 */
function splitIntoGroups(overall: SortedIndex, groupOf: Int32Array, sizes: Int32Array, column: Float64Array) {
  const starts = offsets(sizes);
  const cursor = starts.slice();
  fill(overall, groupOf, cursor, column);
  return Array.from(
    starts,
    (start, g): SortedKeys => ({ keys: column.subarray(start, start + sizes[g]!), size: cursor[g]! - start }),
  );
}

/**
 * The gender or category rankings of ranked point p, split from the overall order (which is
 * sorted, so the groups come out sorted) the first time they are asked for.
 */
export function groupRankingsOf(r: RaceResults, p: number, scope: 'gender' | 'category'): SortedKeys[] {
  const rankings = r.rankings[p]!;
  const { index } = r;
  if (scope === 'gender') {
    rankings.gender ??= splitIntoGroups(
      rankings.overall,
      index.genderOf,
      index.genderSizes,
      new Float64Array(index.n),
    );
    return rankings.gender;
  }
  rankings.category ??= splitIntoGroups(
    rankings.overall,
    index.categoryOf,
    index.categorySizes,
    new Float64Array(index.n),
  );
  return rankings.category;
}
