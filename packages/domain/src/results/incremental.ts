import { captureNetTimes, updateFieldProfile } from './field-profile.ts';
import { isRankedAt, participantOfPassing } from './race-index.ts';
import { moveInRankings } from './rank-update.ts';
import type { ReadLike } from './read-selection.ts';
import { type RaceResults, rankKeyOf, recomputeRow } from './results-model.ts';
import { cloneSortedIndex, cloneSortedKeys } from './sorted-index.ts';
import type { Passing } from './types.ts';

/**
 * Results kept current one passing at a time. Mutable and owned by one caller (the server's
 * results service of one race): at 0.2 ms a passing there is no room to copy 26,000 rows.
 */
export interface ResultsState extends RaceResults {
  /** Reads of the buckets touched since the full recompute (the rest are in `bucketOrder`). */
  readonly overlay: Map<number, ReadLike[]>;
  readonly unmatchedIds: Set<string>;
  /** Per participant, the stamp of the last change that listed it: de-duplicates `changed`. */
  readonly marks: Uint32Array;
  readonly changedBuffer: Int32Array;
  stamp: number;
}

/** What one passing did. */
export interface ResultsChange {
  /**
   * applied: stored and changed results; stored: kept but changed nothing (a re-read, a read
   * outside the window); duplicate: already known; unmatched: unknown bib, chip or point.
   */
  readonly outcome: 'applied' | 'stored' | 'duplicate' | 'unmatched';
  /**
   * Participants whose row changed: times, status, ranks or gaps at any point, including every
   * runner whose rank moved because this one passed or overtook them. No repeats, any order.
   * Predictions are not rows: they move with the whole field and are computed on request.
   */
  readonly changed: Int32Array;
}

const NOTHING = new Int32Array(0);

/** A state that starts from a full recompute and never writes into it. */
export function createResultsState(results: RaceResults): ResultsState {
  const { n } = results.index;
  return {
    ...results,
    startRead: results.startRead.slice(),
    netStart: results.netStart.slice(),
    at: results.at.slice(),
    rankings: results.rankings.map((r) => ({
      overall: cloneSortedIndex(r.overall),
      gender: r.gender?.map(cloneSortedKeys),
      category: r.category?.map(cloneSortedKeys),
    })),
    unmatched: [...results.unmatched],
    profile: undefined,
    overlay: new Map(),
    unmatchedIds: new Set(results.unmatched.map((p) => p.id)),
    marks: new Uint32Array(n),
    changedBuffer: new Int32Array(n),
    stamp: 0,
  };
}

function bucketReads(state: ResultsState, b: number): ReadLike[] {
  let reads = state.overlay.get(b);
  if (!reads) {
    reads = [];
    for (let k = state.bucketStart[b]!; k < state.bucketStart[b + 1]!; k++) {
      reads.push(state.passings[state.bucketOrder[k]!]!);
    }
    state.overlay.set(b, reads);
  }
  return reads;
}

/** Already there: the same id with the same time and deletion flag. */
function isDuplicate(reads: readonly ReadLike[], passing: Passing): boolean {
  const deleted = passing.deleted === true;
  return reads.some(
    (r) => r.id === passing.id && r.timeMs === passing.timeMs && (r.deleted === true) === deleted,
  );
}

const same = (a: number, b: number) => a === b || (Number.isNaN(a) && Number.isNaN(b));

/**
 * Applies one passing to the state in place and says which rows changed. Equal to a full
 * recompute over all passings applied so far, in any order. Cost: O(log n) to place the read,
 * plus one memmove per ranking the runner moves in, plus the runners whose rank moved.
 */
export function applyPassing(state: ResultsState, passing: Passing): ResultsChange {
  const { index } = state;
  const slot = index.slotByPointId.get(passing.pointId);
  const i = slot === undefined ? -1 : participantOfPassing(index, passing.bib, passing.chip);
  if (slot === undefined || i < 0) {
    if (state.unmatchedIds.has(passing.id)) return { outcome: 'duplicate', changed: NOTHING };
    state.unmatchedIds.add(passing.id);
    state.unmatched.push(passing);
    return { outcome: 'unmatched', changed: NOTHING };
  }
  const reads = bucketReads(state, i * index.slotCount + slot);
  if (isDuplicate(reads, passing)) return { outcome: 'duplicate', changed: NOTHING };
  reads.push(passing);
  const { pointCount } = index;
  const oldKeys = new Float64Array(pointCount);
  for (let p = 0; p < pointCount; p++) oldKeys[p] = rankKeyOf(state, i, p);
  const oldAt = state.at.slice(i * pointCount, (i + 1) * pointCount);
  const oldNet = state.profile ? captureNetTimes(state, i) : undefined;
  const oldStart = state.netStart[i]!;
  const oldStartRead = state.startRead[i]!;
  recomputeRow(state, i, state.overlay, slot);
  let rowChanged = !same(oldStart, state.netStart[i]!) || !same(oldStartRead, state.startRead[i]!);
  for (let p = 0; p < pointCount && !rowChanged; p++)
    rowChanged = !same(oldAt[p]!, state.at[i * pointCount + p]!);
  if (!rowChanged) return { outcome: 'stored', changed: NOTHING };
  if (oldNet) updateFieldProfile(state, i, oldNet);
  state.stamp++;
  let count = 0;
  const add = (j: number) => {
    if (state.marks[j] === state.stamp) return;
    state.marks[j] = state.stamp;
    state.changedBuffer[count++] = j;
  };
  add(i);
  for (let p = 0; p < pointCount; p++) {
    const now = rankKeyOf(state, i, p);
    if (same(oldKeys[p]!, now) || !isRankedAt(index, i, p)) continue;
    moveInRankings(state, i, p, oldKeys[p]!, now, add);
  }
  return { outcome: 'applied', changed: state.changedBuffer.slice(0, count) };
}
