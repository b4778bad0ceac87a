import type { Millis } from '../time-format.ts';
import { paceMsPerKm, speedKmh } from './pace.ts';
import { gapAt, lastPointOf, rankAt, statusOf } from './queries.ts';
import { gunStartOf, gunTimeOf, netTimeOf, type RaceResults } from './results-model.ts';
import type { Bib, ResultStatus } from './types.ts';

/** Ranks at one point; null where the runner takes no rank. */
export interface PointRanks {
  readonly overall: number | null;
  readonly gender: number | null;
  readonly category: number | null;
}

/** One participant at one ranked timing point. Times are null where the point was not reached. */
export interface PointResult {
  readonly pointId: string;
  /** Time of day of the counted read (UTC epoch ms). */
  readonly timeOfDay: Millis | null;
  readonly gunMs: Millis | null;
  readonly netMs: Millis | null;
  /** Net time of the segment from the previous point (or the start), null if either is missing. */
  readonly splitMs: Millis | null;
  readonly rank: PointRanks;
  /** Behind the overall leader at this point, on the ranking time. */
  readonly gapMs: Millis | null;
  /** Behind the first of the runner's gender, and of their category (issue 27: each list's own leader). */
  readonly gapGenderMs: Millis | null;
  readonly gapCategoryMs: Millis | null;
  /** Average net pace and speed from the start. */
  readonly paceMsPerKm: number | null;
  readonly speedKmh: number | null;
}

/** Everything a report row shows about one participant (product.md "Results"). */
export interface ResultRow {
  readonly index: number;
  readonly bib: Bib;
  readonly status: ResultStatus;
  /** Id of the furthest ranked point reached, or null. */
  readonly lastPointId: string | null;
  /** Category id, or null. */
  readonly categoryId: string | null;
  /** Net start (start-mat read, else scheduled start) and gun start, as times of day. */
  readonly netStart: Millis | null;
  readonly gunStart: Millis | null;
  readonly points: readonly PointResult[];
}

const orNull = (x: number): number | null => (Number.isNaN(x) ? null : x);

/**
 * Builds the row of participant i: O(points × log n), from the columns of the results. Report
 * builders call it for the rows they show, or for the rows an incremental change names.
 */
export function getResultRow(results: RaceResults, i: number): ResultRow {
  const { index } = results;
  const base = i * index.pointCount;
  const points: PointResult[] = [];
  for (let p = 0; p < index.pointCount; p++) {
    const net = netTimeOf(results, i, p);
    const previous = p === 0 ? 0 : netTimeOf(results, i, p - 1);
    const distance = index.distanceM[p]!;
    points.push({
      pointId: index.pointIds[p]!,
      timeOfDay: orNull(results.at[base + p]!),
      gunMs: orNull(gunTimeOf(results, i, p)),
      netMs: orNull(net),
      splitMs: orNull(net - previous),
      rank: {
        overall: rankAt(results, i, p, 'overall'),
        gender: rankAt(results, i, p, 'gender'),
        category: rankAt(results, i, p, 'category'),
      },
      gapMs: gapAt(results, i, p),
      gapGenderMs: gapAt(results, i, p, 'gender'),
      gapCategoryMs: gapAt(results, i, p, 'category'),
      paceMsPerKm: Number.isNaN(net) ? null : paceMsPerKm(net, distance),
      speedKmh: Number.isNaN(net) ? null : speedKmh(net, distance),
    });
  }
  const last = lastPointOf(results, i);
  const c = index.categoryOf[i]!;
  return {
    index: i,
    bib: index.participants[i]!.bib,
    status: statusOf(results, i),
    lastPointId: last < 0 ? null : index.pointIds[last]!,
    categoryId: c < 0 ? null : index.race.categories[c]!.id,
    netStart: orNull(results.netStart[i]!),
    gunStart: orNull(gunStartOf(results, i)),
    points,
  };
}
