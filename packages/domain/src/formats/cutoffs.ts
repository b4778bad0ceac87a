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

/**
 * A cut-off on a lap race (issue 31): lap `laps` done by a time of day (`atMs`) and/or within an
 * elapsed time of the rider's own start (`elapsedMs`), the earlier holding. A rider who completes
 * it later, or has not completed it once the deadline passed, is DNF (or over time) — a criterium
 * pulls riders who fall too far behind this way. A rider whose race ended before the deadline
 * (finished, or a time-limited race's limit) is never cut for laps not ridden.
 */
export interface LapCutoff {
  readonly laps: number;
  readonly atMs?: Millis;
  readonly elapsedMs?: number;
  readonly outcome?: 'DNF' | 'overTime';
}

/** A rider of a lap race: their start, counted crossings (crossing k ends lap k + 1) and end. */
export interface LapCutoffRunner {
  readonly bib: Bib;
  readonly startMs: number;
  readonly crossingsMs: readonly number[];
  /** When the rider's race ended (finished, or the limit); their clock for cut-offs stops there. */
  readonly doneMs?: number;
}

/** The point id a lap cut-off has in decisions and desk overrides: `lap:3`. */
export const lapCutoffPointId = (laps: number) => `lap:${laps}`;

/**
 * The cut-off decisions of a lap race at `nowMs` ({@link applyCutoffs} with one point per lap cut
 * off, `lap:k`): monotone like it — a later deadline or an earlier `nowMs` never adds one.
 */
export function applyLapCutoffs(
  cutoffs: readonly LapCutoff[],
  runners: readonly LapCutoffRunner[],
  nowMs: number,
  overrides: readonly CutoffOverride[] = [],
): CutoffDecision[] {
  const defs: Cutoff[] = cutoffs.map((c) => ({
    pointId: lapCutoffPointId(c.laps),
    atMs: c.atMs,
    elapsedMs: c.elapsedMs,
    outcome: c.outcome,
  }));
  const order = [...new Set(cutoffs.map((c) => c.laps))].sort((a, b) => a - b).map(lapCutoffPointId);
  return runners.flatMap((r) => {
    const times = Object.fromEntries(
      cutoffs.map((c) => [lapCutoffPointId(c.laps), r.crossingsMs[c.laps - 1]] as const),
    );
    const clock = r.doneMs === undefined ? nowMs : Math.min(nowMs, r.doneMs);
    return applyCutoffs(defs, order, [{ bib: r.bib, startMs: r.startMs, times }], clock, overrides);
  });
}

/**
 * The lap chart (issue 31): each rider's position after each lap — among the riders who completed
 * that lap, by the time they completed it (ties by bib) — `null` for laps not ridden. Pure.
 */
export function lapPositions(
  riders: readonly { readonly bib: Bib; readonly crossingsMs: readonly number[] }[],
): (number | null)[][] {
  const out = riders.map((r) => r.crossingsMs.map((): number | null => null));
  const maxLaps = riders.reduce((m, r) => Math.max(m, r.crossingsMs.length), 0);
  for (let k = 0; k < maxLaps; k++) {
    const done = riders.flatMap((r, i) => (r.crossingsMs[k] === undefined ? [] : [i]));
    done.sort(
      (a, b) =>
        riders[a]!.crossingsMs[k]! - riders[b]!.crossingsMs[k]! ||
        (riders[a]!.bib < riders[b]!.bib ? -1 : riders[a]!.bib > riders[b]!.bib ? 1 : 0),
    );
    done.forEach((i, p) => {
      out[i]![k] = p + 1;
    });
  }
  return out;
}
