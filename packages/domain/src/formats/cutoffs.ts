import type { Bib } from '../results/types.ts';
import type { Millis } from '../time-format.ts';

/**
 * A cut-off at a timing point (issue 31): a runner must pass it by a time of day (`atMs`) or
 * within an elapsed time from their own start (`elapsedMs`); when both are set the earlier
 * deadline holds. Past it they are out: DNF, or "over time" where the race still lists them.
 */
export interface Cutoff {
  readonly pointId: string;
  readonly atMs?: Millis;
  readonly elapsedMs?: number;
  readonly outcome?: 'DNF' | 'overTime';
}

/** Where a runner is: their start and first crossing of each point (absolute ms). */
export interface CutoffRunner {
  readonly bib: Bib;
  readonly startMs: number;
  readonly times: Readonly<Record<string, number | undefined>>;
}

/** A desk decision that undoes a cut-off for one runner at one point. */
export interface CutoffOverride {
  readonly bib: Bib;
  readonly pointId: string;
}

export interface CutoffDecision {
  readonly bib: Bib;
  readonly pointId: string;
  readonly outcome: 'DNF' | 'overTime';
  /** `late`: read after the deadline; `notReached`: no read and the deadline has passed. */
  readonly reason: 'late' | 'notReached';
  readonly deadlineMs: number;
  readonly readMs?: number;
  /** The desk reinstated the runner: the decision is shown, not applied. */
  readonly overridden: boolean;
}

/** The deadline a cut-off sets for a runner who started at `startMs`. */
export function cutoffDeadline(cutoff: Cutoff, startMs: number): number {
  const byElapsed = cutoff.elapsedMs !== undefined ? startMs + cutoff.elapsedMs : Number.POSITIVE_INFINITY;
  return Math.min(cutoff.atMs ?? Number.POSITIVE_INFINITY, byElapsed);
}

/**
 * The cut-off decisions at `nowMs`, one per runner at most (their first cut-off missed, in the
 * order of `pointOrder`). A runner who crossed a later point before its own deadline is not cut
 * for a missing read alone (a missed read is a review anomaly, not a cut-off). Monotone: a later
 * `nowMs` never removes a decision, a looser cut-off never adds one. Overrides keep the decision
 * visible with `overridden: true`, and the runner is then judged at the next cut-off.
 */
export function applyCutoffs(
  cutoffs: readonly Cutoff[],
  pointOrder: readonly string[],
  runners: readonly CutoffRunner[],
  nowMs: number,
  overrides: readonly CutoffOverride[] = [],
): CutoffDecision[] {
  const overridden = new Set(overrides.map((o) => `${o.bib}\u0000${o.pointId}`));
  const position = new Map(pointOrder.map((id, k) => [id, k]));
  const ordered = [...cutoffs].sort(
    (a, b) =>
      (position.get(a.pointId) ?? Number.MAX_SAFE_INTEGER) -
      (position.get(b.pointId) ?? Number.MAX_SAFE_INTEGER),
  );
  const out: CutoffDecision[] = [];
  for (const runner of runners) {
    for (const cutoff of ordered) {
      const deadlineMs = cutoffDeadline(cutoff, runner.startMs);
      const readMs = runner.times[cutoff.pointId];
      let reason: CutoffDecision['reason'] | undefined;
      if (readMs !== undefined) {
        if (readMs > deadlineMs) reason = 'late';
      } else if (nowMs > deadlineMs) {
        const k = position.get(cutoff.pointId) ?? -1;
        const passedLater = pointOrder.slice(k + 1).some((id) => {
          const t = runner.times[id];
          return t !== undefined && t <= deadlineMs;
        });
        if (!passedLater) reason = 'notReached';
      }
      if (!reason) continue;
      const isOverridden = overridden.has(`${runner.bib}\u0000${cutoff.pointId}`);
      out.push({
        bib: runner.bib,
        pointId: cutoff.pointId,
        outcome: cutoff.outcome ?? 'DNF',
        reason,
        deadlineMs,
        readMs,
        overridden: isOverridden,
      });
      if (!isOverridden) break;
    }
  }
  return out;
}
