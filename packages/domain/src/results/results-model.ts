import type { FieldProfile } from './field-profile.ts';
import type { RaceIndex } from './race-index.ts';
import { type ReadLike, selectRead, selectTime } from './read-selection.ts';
import type { SortedIndex, SortedKeys } from './sorted-index.ts';
import type { Passing } from './types.ts';

/**
 * The rankings at one timing point: overall (who and when), and the times per gender (`GENDERS`
 * order) and per category, which is all a rank in a group needs. The group rankings are an index
 * for single-rank queries, built from the overall order on first use (`groupRankingsOf`) and kept
 * current from then on: a full report takes its ranks from one sweep (`ranksAt`) instead, so a
 * recompute does not pay for them, and a live race builds them a point at a time (≈ 0.5 ms).
 */
export interface PointRankings {
  readonly overall: SortedIndex;
  gender: SortedKeys[] | undefined;
  category: SortedKeys[] | undefined;
}

/**
 * Results of a race, column-wise: a 26,000-runner race is a few typed arrays rather than 260,000
 * row objects, so a full recompute fits its budget and a report row is built only when asked for
 * (`getResultRow`). Participant i is `index.participants[i]`; ranked point p is `race.points[p]`.
 * Read it through the functions of `queries.ts`; the fields are the engine's storage. Two caches
 * fill on first use (group rankings, the field profile); nothing else changes after creation.
 */
export interface RaceResults {
  readonly index: RaceIndex;
  /** The passings computed from, grouped per (participant, slot) bucket by the two arrays below. */
  readonly passings: readonly Passing[];
  /** Bucket b = i × slotCount + slot holds `passings[bucketOrder[k]]` for k in [start[b], start[b+1]). */
  readonly bucketStart: Int32Array;
  readonly bucketOrder: Int32Array;
  /** Time of each passing in bucket order, and 1 where it is a deletion (empty when none is). */
  readonly bucketTimes: Float64Array;
  readonly bucketDeleted: Uint8Array;
  /** Selected start-mat read per participant, NaN when none. */
  readonly startRead: Float64Array;
  /** Net start: the start-mat read, else the scheduled start (a missed start read costs the gun). */
  readonly netStart: Float64Array;
  /** Time of day at ranked point p: `at[i × pointCount + p]`, NaN when not reached. */
  readonly at: Float64Array;
  /** Rankings per ranked point. */
  readonly rankings: readonly PointRankings[];
  /** Passings naming an unknown bib, chip or point, once per id. */
  readonly unmatched: Passing[];
  /** Typical segment ratios of the field, built on the first prediction (`field-profile.ts`). */
  profile: FieldProfile | undefined;
}

/** Reads of one bucket when an incremental state has touched it. */
export type BucketOverlay = ReadonlyMap<number, readonly ReadLike[]>;

/** Gun start of participant i: the scheduled start, else the net start. */
export function gunStartOf(r: RaceResults, i: number): number {
  const scheduled = r.index.scheduledStart[i]!;
  return Number.isNaN(scheduled) ? r.netStart[i]! : scheduled;
}

/** Net (chip) time at ranked point p, NaN when not reached. */
export function netTimeOf(r: RaceResults, i: number, p: number): number {
  return r.at[i * r.index.pointCount + p]! - r.netStart[i]!;
}

/** Gun time at ranked point p, NaN when not reached. */
export function gunTimeOf(r: RaceResults, i: number, p: number): number {
  return r.at[i * r.index.pointCount + p]! - gunStartOf(r, i);
}

/** The time ranks are made of at point p under the race's rules (net or gun). */
export function rankKeyOf(r: RaceResults, i: number, p: number): number {
  return r.index.rules.rankBy === 'gun' ? gunTimeOf(r, i, p) : netTimeOf(r, i, p);
}

function selectSlot(
  r: RaceResults,
  i: number,
  slot: number,
  minTime: number,
  strict: boolean,
  overlay: BucketOverlay | undefined,
): number {
  const { index } = r;
  const b = i * index.slotCount + slot;
  const takeLast = index.takesLastRead[slot] === 1;
  const windowMs = index.rules.rereadWindowMs;
  const touched = overlay?.get(b);
  if (touched) return selectRead(touched, null, 0, touched.length, takeLast, windowMs, minTime, strict);
  const from = r.bucketStart[b]!;
  const to = r.bucketStart[b + 1]!;
  if (r.bucketDeleted.length > 0) {
    for (let k = from; k < to; k++) {
      if (r.bucketDeleted[k] === 1) {
        return selectRead(r.passings, r.bucketOrder, from, to, takeLast, windowMs, minTime, strict);
      }
    }
  }
  return selectTime(r.bucketTimes, from, to, takeLast, windowMs, minTime, strict);
}

/**
 * Recomputes participant i's times from its reads: the start first, as reads at the other mats
 * only count after the runner's net start (a test read before the race never becomes a split).
 * With `onlySlot`, only that ranked slot is redone (its reads cannot move the start).
 */
export function recomputeRow(r: RaceResults, i: number, overlay?: BucketOverlay, onlySlot?: number): void {
  const { pointCount, slotCount } = r.index;
  if (onlySlot === undefined || onlySlot === 0) {
    const scheduled = r.index.scheduledStart[i]!;
    const start = selectSlot(r, i, 0, scheduled, false, overlay);
    r.startRead[i] = start;
    r.netStart[i] = Number.isNaN(start) ? scheduled : start;
  }
  const minTime = r.netStart[i]!;
  const base = i * pointCount - 1;
  if (onlySlot !== undefined && onlySlot !== 0) {
    r.at[base + onlySlot] = selectSlot(r, i, onlySlot, minTime, true, overlay);
    return;
  }
  for (let slot = 1; slot < slotCount; slot++)
    r.at[base + slot] = selectSlot(r, i, slot, minTime, true, overlay);
}
