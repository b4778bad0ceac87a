import type { Bib, Participant, Passing } from '../results/types.ts';
import { bookReads, type ReadRef } from './reads.ts';
import type { Anomaly, ReviewPoint } from './review.ts';

/**
 * What the review finds by looking at the whole field and the whole context (issue 43: "a review
 * that catches what a timer would"), beside the per-runner checks of `reviewReads`:
 * - `tooSlow`: a finish slower than the cut-off pace (when given) or than `slowFactor` times the
 *   field's median finish time (bib 3's 13:46:42 over 10 km);
 * - `aheadOfField`: a finish faster than every other finisher by more than `aheadMargin` (a cut
 *   course, a chip carried in a car);
 * - `unknownRead`: a read at one of the race's points naming no bib or chip of the context;
 * - `dnfCandidate`: a runner read somewhere but never at the finish, not marked DNF, DNS or DSQ;
 * - `dnsCandidate`: an entrant without any read, not marked DNS;
 * - `beforeStart`: a read on the course before the runner's start (gun, wave or own start);
 * - `sharedChip`: a read of a chip two runners carry (who it counts for is a guess);
 * - `otherCourse`: a runner read at a point of the context that is not on their race's course.
 * Pure; the anomalies come per runner in entry order, then the unknown reads.
 */
export interface FieldReviewInput {
  /** The race's points in course order, the finish last (no start mat). */
  readonly points: readonly ReviewPoint[];
  readonly participants: readonly Participant[];
  /** The race's reads (`passingsOfResults`). */
  readonly passings: readonly Passing[];
  /** Start per participant (gun, wave or individual). */
  readonly startOf: (participant: Participant) => number;
  /** Reads at the race's points naming nobody of the context. */
  readonly unknownReads?: readonly (ReadRef & { readonly bib?: string; readonly chip?: string })[];
  /** The race's runners' reads at points off its course (by bib). */
  readonly offCourse?: readonly { readonly bib: Bib; readonly read: ReadRef }[];
  /** The race's runners' reads of a chip another runner of the context carries too (by bib). */
  readonly sharedChipReads?: readonly { readonly bib: Bib; readonly read: ReadRef }[];
  /**
   * Slower than this pace at the finish is implausible (the race's cut-off), ms per km; when set
   * it replaces the multiple of the median.
   */
  readonly slowestPaceMsPerKm?: number;
  /** Without a cut-off, a finish slower than this many times the median is implausible (default 3). */
  readonly slowFactor?: number;
  /** A winner ahead of the next finisher by more than this share is implausible (default 0.15). */
  readonly aheadMargin?: number;
}

const STOPPED = new Set(['DNS', 'DNF', 'DSQ']);

/** The field's anomalies (see `FieldReviewInput`). */
export function reviewField(input: FieldReviewInput): Anomaly[] {
  const { points, participants, passings, startOf } = input;
  const finish = points.at(-1);
  const book = bookReads(participants, passings);
  const out: Anomaly[] = [];
  // Finish times (from each runner's own start) for the field's medians.
  const finishes: { index: number; netMs: number; read: ReadRef }[] = [];
  participants.forEach((p, index) => {
    const read = finish ? book.byOwner[index]!.get(finish.id)?.[0] : undefined;
    const start = startOf(p);
    if (read && Number.isFinite(start) && p.status !== 'DSQ')
      finishes.push({ index, netMs: read.timeMs - start, read });
  });
  const sorted = finishes.map((f) => f.netMs).sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : Number.NaN;
  const km = finish ? finish.distanceM / 1000 : 0;
  const slowFactor = input.slowFactor ?? 3;
  const perRunner = new Map<number, Anomaly[]>();
  const push = (a: Anomaly) => {
    const list = perRunner.get(a.index);
    if (list) list.push(a);
    else perRunner.set(a.index, [a]);
  };
  for (const f of finishes) {
    const p = participants[f.index]!;
    const pace = km > 0 ? f.netMs / km : Number.NaN;
    const overCutoff = input.slowestPaceMsPerKm !== undefined && pace > input.slowestPaceMsPerKm;
    // The race's cut-off when it has one (issue 43), else the median (which says little of a
    // field of two).
    const overMedian =
      input.slowestPaceMsPerKm === undefined && sorted.length >= 3 && f.netMs > slowFactor * median;
    if (overCutoff || overMedian)
      push({
        kind: 'tooSlow',
        bib: p.bib,
        index: f.index,
        pointId: finish!.id,
        reads: [f.read],
        paceMsPerKm: pace,
      });
  }
  if (sorted.length >= 3) {
    const [first, second] = sorted;
    const winner = finishes.find((f) => f.netMs === first)!;
    if (first! < second! * (1 - (input.aheadMargin ?? 0.15)))
      push({
        kind: 'aheadOfField',
        bib: participants[winner.index]!.bib,
        index: winner.index,
        pointId: finish!.id,
        reads: [winner.read],
        paceMsPerKm: km > 0 ? winner.netMs / km : Number.NaN,
      });
  }
  const onCourse = new Set(points.map((p) => p.id));
  const byBib = new Map(participants.map((p, i) => [p.bib, i]));
  participants.forEach((p, index) => {
    const reads = book.byOwner[index]!;
    const all = [...reads.values()].flat();
    const start = startOf(p);
    if (all.length === 0) {
      if (p.status === 'registered') push({ kind: 'dnsCandidate', bib: p.bib, index, reads: [] });
    } else if (finish && !reads.get(finish.id)?.length && !STOPPED.has(p.status)) {
      push({ kind: 'dnfCandidate', bib: p.bib, index, reads: all.slice(-1) });
    }
    const early = all.filter((r) => onCourse.has(r.pointId) && Number.isFinite(start) && r.timeMs < start);
    if (early.length)
      push({ kind: 'beforeStart', bib: p.bib, index, pointId: early[0]!.pointId, reads: early });
  });
  const shared = new Map<number, ReadRef[]>();
  for (const { bib, read } of input.sharedChipReads ?? []) {
    const index = byBib.get(bib);
    if (index !== undefined) shared.set(index, [...(shared.get(index) ?? []), read]);
  }
  for (const [index, reads] of shared)
    push({ kind: 'sharedChip', bib: participants[index]!.bib, index, pointId: reads[0]!.pointId, reads });
  for (const { bib, read } of input.offCourse ?? []) {
    const index = byBib.get(bib);
    if (index !== undefined) push({ kind: 'otherCourse', bib, index, pointId: read.pointId, reads: [read] });
  }
  for (const index of [...perRunner.keys()].sort((a, b) => a - b)) out.push(...perRunner.get(index)!);
  for (const r of input.unknownReads ?? [])
    out.push({
      kind: 'unknownRead',
      bib: r.bib ?? r.chip ?? '',
      index: -1,
      pointId: r.pointId,
      reads: [{ id: r.id, pointId: r.pointId, timeMs: r.timeMs }],
    });
  return out;
}
