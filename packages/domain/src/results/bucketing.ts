import { participantOfPassing, type RaceIndex } from './race-index.ts';
import type { Passing } from './types.ts';

/** Passings grouped per (participant, slot); see `RaceResults`. */
export interface Buckets {
  bucketStart: Int32Array;
  bucketOrder: Int32Array;
  bucketTimes: Float64Array;
  bucketDeleted: Uint8Array;
  unmatched: Passing[];
}

/**
 * Groups passings per (participant, slot) with a counting sort: two linear passes and no
 * per-runner arrays, as a full recompute sees every passing of the race (≈ 290,000 at Boston).
 * Passing objects are visited in array order, never by bucket (loaded from a database they are
 * scattered in the heap, and a random visit is a cache miss); their times and deletion flags are
 * copied into typed arrays in bucket order for the read selection that follows.
 */
export function bucketPassings(index: RaceIndex, passings: readonly Passing[]): Buckets {
  const { slotCount, slotByPointId } = index;
  const m = passings.length;
  const bucketOf = new Int32Array(m);
  const bucketStart = new Int32Array(index.n * slotCount + 1);
  const unmatched: Passing[] = [];
  const unmatchedIds = new Set<string>();
  let anyDeleted = false;
  // Decoders send runs of reads from one mat, and re-read a chip several times as it crosses:
  // remember the last point and the last runner before looking them up.
  let lastPointId: string | undefined;
  let lastSlot: number | undefined;
  let lastBib: string | undefined;
  let lastChip: string | undefined;
  let lastI = -1;
  for (let k = 0; k < passings.length; k++) {
    const passing = passings[k]!;
    if (passing.pointId !== lastPointId) {
      lastPointId = passing.pointId;
      lastSlot = slotByPointId.get(lastPointId);
    }
    if (passing.bib !== lastBib || passing.chip !== lastChip || lastI < 0) {
      lastBib = passing.bib;
      lastChip = passing.chip;
      lastI = participantOfPassing(index, lastBib, lastChip);
    }
    const i = lastSlot === undefined ? -1 : lastI;
    if (lastSlot === undefined || i < 0) {
      bucketOf[k] = -1;
      if (!unmatchedIds.has(passing.id)) unmatched.push(passing);
      unmatchedIds.add(passing.id);
      continue;
    }
    const b = i * slotCount + lastSlot;
    bucketOf[k] = b;
    if (passing.deleted) anyDeleted = true;
    bucketStart[b]!++;
  }
  // Counts become bucket ends; placing passings from the last one back turns them into starts
  // and keeps each bucket in input order.
  for (let b = 1; b < bucketStart.length; b++) bucketStart[b]! += bucketStart[b - 1]!;
  const matched = bucketStart[bucketStart.length - 1]!;
  const bucketOrder = new Int32Array(matched);
  const bucketTimes = new Float64Array(matched);
  // Deletions are rare: without any, the flags take no memory (each MB costs here, see bench).
  const bucketDeleted = new Uint8Array(anyDeleted ? matched : 0);
  for (let k = m - 1; k >= 0; k--) {
    const b = bucketOf[k]!;
    if (b < 0) continue;
    const at = --bucketStart[b]!;
    bucketOrder[at] = k;
    const passing = passings[k]!;
    bucketTimes[at] = passing.timeMs;
    if (anyDeleted && passing.deleted) bucketDeleted[at] = 1;
  }
  return { bucketStart, bucketOrder, bucketTimes, bucketDeleted, unmatched };
}
