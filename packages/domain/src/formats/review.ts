import type { Bib, Participant, Passing } from '../results/types.ts';
import type { Millis } from '../time-format.ts';
import { bookReads, type ReadRef } from './reads.ts';

/** A point of a point-to-point course, for the review. */
export interface ReviewPoint {
  readonly id: string;
  readonly distanceM: number;
}

/**
 * What a timekeeper checks before results become official (issue 31):
 * - `missingRead`: no read at a mat although the runner has reads at a later one;
 * - `tooFast`: a segment run faster than `fastestPaceMsPerKm` (a cut course or a swapped chip);
 * - `outOfOrder`: the first read at a mat later than the first read at a mat after it;
 * - `readAfterStop`: reads of a runner who is DNS, or after the moment they were stopped
 *   (DNF at the desk, cut-off).
 * Each anomaly carries the reads behind it, for the desk's corrections.
 */
export type AnomalyKind =
  | 'missingRead'
  | 'tooFast'
  | 'outOfOrder'
  | 'readAfterStop'
  // The field's and the context's (issue 43, ./review-field.ts).
  | 'tooSlow'
  | 'aheadOfField'
  | 'unknownRead'
  | 'dnfCandidate'
  | 'dnsCandidate'
  | 'beforeStart'
  | 'sharedChip'
  | 'otherCourse';

export interface Anomaly {
  readonly kind: AnomalyKind;
  readonly bib: Bib;
  readonly index: number;
  /** The point the anomaly is about (the missing mat, the segment's end, the late mat). */
  readonly pointId?: string;
  readonly reads: readonly ReadRef[];
  /** `tooFast`: the segment's pace in ms per km. */
  readonly paceMsPerKm?: number;
}

export interface ReviewOptions {
  /** Segments faster than this pace are implausible (e.g. 150,000 ms/km for a road run). */
  readonly fastestPaceMsPerKm: number;
  /** Start per participant (gun, wave or individual). */
  readonly startOf: (participant: Participant) => number;
  /** When a runner was stopped (DNF given at the desk, cut-off), by bib. */
  readonly stoppedAtMs?: Readonly<Record<string, Millis>>;
}

/** Lists the anomalies of a point-to-point race, runner by runner, in course order. Pure. */
export function reviewReads(
  points: readonly ReviewPoint[],
  participants: readonly Participant[],
  passings: readonly Passing[],
  options: ReviewOptions,
): Anomaly[] {
  const book = bookReads(participants, passings);
  const out: Anomaly[] = [];
  participants.forEach((p, index) => {
    const reads = book.byOwner[index]!;
    const first = points.map((pt) => reads.get(pt.id)?.[0]);
    const all = points.flatMap((pt) => reads.get(pt.id) ?? []);
    const stopped = p.status === 'DNS' ? Number.NEGATIVE_INFINITY : options.stoppedAtMs?.[p.bib];
    if (stopped !== undefined) {
      const after = all.filter((r) => r.timeMs > stopped);
      if (after.length) out.push({ kind: 'readAfterStop', bib: p.bib, index, reads: after });
    } else if (p.status === 'DNF' && points.length && first.at(-1)) {
      // A DNF with a finish read: either the DNF or the read is wrong.
      out.push({
        kind: 'readAfterStop',
        bib: p.bib,
        index,
        pointId: points.at(-1)!.id,
        reads: [first.at(-1)!],
      });
    }
    const lastRead = first.findLastIndex(Boolean);
    points.forEach((pt, k) => {
      if (!first[k] && k < lastRead) {
        const before = first.slice(0, k).findLast(Boolean);
        const next = first.slice(k + 1).find(Boolean)!;
        out.push({
          kind: 'missingRead',
          bib: p.bib,
          index,
          pointId: pt.id,
          reads: before ? [before, next] : [next],
        });
      }
    });
    // Segments between consecutive reads (from the start for the first one).
    let prevT = options.startOf(p);
    let prevD = 0;
    let prevRead: ReadRef | undefined;
    points.forEach((pt, k) => {
      const r = first[k];
      if (!r) return;
      if (prevRead && r.timeMs < prevRead.timeMs) {
        out.push({ kind: 'outOfOrder', bib: p.bib, index, pointId: pt.id, reads: [prevRead, r] });
        return;
      }
      const km = (pt.distanceM - prevD) / 1000;
      if (km > 0) {
        const pace = (r.timeMs - prevT) / km;
        // A read before the start is no pace at all: `beforeStart` lists it (review-field.ts).
        if (pace < options.fastestPaceMsPerKm && pace > 0)
          out.push({
            kind: 'tooFast',
            bib: p.bib,
            index,
            pointId: pt.id,
            reads: prevRead ? [prevRead, r] : [r],
            paceMsPerKm: pace,
          });
      }
      prevT = r.timeMs;
      prevD = pt.distanceM;
      prevRead = r;
    });
  });
  return out;
}

/**
 * Where results stand (issue 31): provisional until the timekeeper publishes them, then open to
 * protests for `protestWindowMs` (when set), then official. Spectators see which.
 */
export interface Publication {
  readonly publishedAtMs?: Millis;
  readonly protestWindowMs?: number;
}

export interface PublicationStatus {
  readonly state: 'provisional' | 'protestOpen' | 'official';
  readonly protestEndsMs?: number;
}

/** The publication state of results at `nowMs`. */
export function publicationStatus(publication: Publication, nowMs: number): PublicationStatus {
  if (publication.publishedAtMs === undefined || nowMs < publication.publishedAtMs)
    return { state: 'provisional' };
  const window = publication.protestWindowMs ?? 0;
  const protestEndsMs = publication.publishedAtMs + window;
  return window > 0 && nowMs < protestEndsMs
    ? { state: 'protestOpen', protestEndsMs }
    : { state: 'official' };
}
