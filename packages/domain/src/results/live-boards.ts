import { type Millis, shownGap } from '../time-format.ts';
import { predict } from './prediction.ts';
import { gapAt, lastPointOf, rankAt, rankingOrder, statusOf } from './queries.ts';
import { netTimeOf, type RaceResults, rankKeyOf } from './results-model.ts';

/**
 * The maths of the live boards (issue 19 "logic once"): the leaders board, the time-trial board
 * and the clocks they show, computed here for the server (`live-views.ts`) and the web pages
 * (`leaders-page.tsx`, `clm-page.tsx`) alike. Gaps are differences of the times as shown: a time
 * cell truncates (spec §5, `formatDuration`), so 28:41.9 behind 28:32.3 shows 28:41 and 28:32,
 * and its gap must read +9, not the +8 of the raw 8.6 s truncated.
 */

/**
 * The race's clock at wall time `wallMs`: the wall clock for a live race; for a replay (clock
 * rate above 1, the demo's) gun + (wall − gun) × rate, the time its reads are stamped in.
 */
export function raceClock(gunMs: number | null, clockRate: number, wallMs: number): number {
  if (gunMs === null || clockRate === 1 || wallMs <= gunMs) return wallMs;
  return gunMs + (wallMs - gunMs) * clockRate;
}

/**
 * The wall time at which the race clock shows `raceMs` (the inverse of `raceClock`). A replay's
 * reads are stamped in race time, ahead of the wall clock: shown as such, a spectator would see
 * times of day still to come; shown at the wall moment they were replayed, never.
 */
export function wallClock(gunMs: number | null, clockRate: number, raceMs: number): number {
  if (gunMs === null || clockRate === 1 || raceMs <= gunMs) return raceMs;
  return gunMs + (raceMs - gunMs) / clockRate;
}

/**
 * The race clock `wallNow` on a page that fetched a board made at race time `boardNow` when its
 * wall clock read `fetchedAt`: it ticks on at the race's rate, never backwards.
 */
export function tickRaceClock(
  boardNow: number,
  fetchedAt: number,
  wallNow: number,
  clockRate: number,
): number {
  return boardNow + Math.max(0, wallNow - fetchedAt) * clockRate;
}

/** Time to a start, rounded up to the second (a countdown shows −0:05 until the fifth second passes). */
export function countdownMs(startAt: number, now: number): Millis | null {
  return startAt > now ? Math.ceil((startAt - now) / 1000) * 1000 : null;
}

/** One row of a board: participant index, rank (ties share), net time and gap to the first. */
export interface BoardRow {
  readonly i: number;
  readonly rank: number;
  readonly netMs: Millis;
  readonly gapMs: Millis;
}

/**
 * The first `count` runners at ranked point p, in rank order: equal times share a rank (1, 2, 2,
 * 4), the gap is to the leader as shown (`shownGap`), so a tie has no gap.
 */
export function leadersAt(results: RaceResults, p: number, count: number): BoardRow[] {
  const order = rankingOrder(results, p);
  const rows: BoardRow[] = [];
  // Ranks and gaps come from the time the race ranks by (gun or net, `rankKeyOf`): under gun
  // ranking two runners at the same gun time share a rank even when their chip times differ, and
  // no gap is negative (a property test found "2nd, −0:01" behind a leader with a later chip start).
  const leader = order.length ? rankKeyOf(results, order[0]!, p) : 0;
  let previousKey = Number.NaN;
  for (let k = 0; k < Math.min(count, order.length); k++) {
    const i = order[k]!;
    const key = rankKeyOf(results, i, p);
    const rank = k > 0 && key === previousKey ? rows[k - 1]!.rank : k + 1;
    previousKey = key;
    rows.push({ i, rank, netMs: netTimeOf(results, i, p), gapMs: shownGap(key, leader) });
  }
  return rows;
}

/** A rider on course on the time-trial board. */
export interface OnCourseRow {
  readonly i: number;
  readonly startMs: number;
  /** Index of the last ranked point reached, -1 before the first. */
  readonly lastPoint: number;
  readonly netMs: Millis | null;
  readonly rank: number | null;
  readonly gapMs: Millis | null;
  /** Never less than the time already ridden at the board's time (issue 27: no finish predicted in the past). */
  readonly predictedFinishNetMs: Millis | null;
}

/** What the time-trial board shows, as participant indices. */
export interface TimeTrialSelection {
  /** The finish standings (the first is the hot seat). */
  readonly standings: BoardRow[];
  /** How many riders finished: the standings' count, of which `standings` are the first (issue 27). */
  readonly finishers: number;
  /** Every rider on course, the furthest first, at the same point the better placed. */
  readonly onCourse: OnCourseRow[];
  /** Finishers, the latest first. */
  readonly latest: { i: number; rank: number | null; netMs: Millis; finishedAt: number }[];
  /** Riders still to start, the next first. */
  readonly next: { i: number; startAt: number }[];
}

/**
 * The time-trial board at race time `now`: `size` standings, the riders on course (a rider past
 * their start time with no read yet counts as on course: a time trial rarely has a start mat, the
 * start list is the start), the 5 latest finishers and `size` next starters.
 */
export function timeTrialAt(results: RaceResults, now: number, size = 10): TimeTrialSelection {
  const { n, pointCount, scheduledStart } = results.index;
  const finish = pointCount - 1;
  const standings = finish >= 0 ? leadersAt(results, finish, size) : [];
  const onCourse: OnCourseRow[] = [];
  const finished: number[] = [];
  const waiting: number[] = [];
  for (let i = 0; i < n; i++) {
    const status = statusOf(results, i);
    const scheduled = scheduledStart[i]!;
    const startedBySchedule = status === 'notStarted' && !Number.isNaN(scheduled) && scheduled <= now;
    if (status === 'finished') finished.push(i);
    else if (status === 'onCourse' || startedBySchedule) {
      const last = lastPointOf(results, i);
      const startMs = Number.isNaN(results.netStart[i]!) ? scheduled : results.netStart[i]!;
      const predicted = predict(results, i)?.finishNetMs ?? null;
      onCourse.push({
        i,
        startMs,
        lastPoint: last,
        netMs: last >= 0 ? netTimeOf(results, i, last) : null,
        rank: last >= 0 ? rankAt(results, i, last) : null,
        gapMs: last >= 0 ? gapAt(results, i, last) : null,
        // A rider slower than predicted has not finished yet: the finish is at least now (issue 27:
        // "elapsed 45:27" beside "predicted 45:12").
        predictedFinishNetMs: predicted === null ? null : Math.max(predicted, now - startMs),
      });
    } else if (status === 'notStarted' && !Number.isNaN(scheduled)) waiting.push(i);
  }
  onCourse.sort(
    (a, b) => b.lastPoint - a.lastPoint || (a.gapMs ?? 0) - (b.gapMs ?? 0) || a.startMs - b.startMs,
  );
  const finishedAt = (i: number) => results.at[i * pointCount + finish]!;
  finished.sort((a, b) => finishedAt(b) - finishedAt(a));
  waiting.sort((a, b) => scheduledStart[a]! - scheduledStart[b]!);
  return {
    standings,
    finishers: finished.length,
    onCourse,
    latest: finished.slice(0, 5).map((i) => ({
      i,
      rank: rankAt(results, i, finish),
      netMs: netTimeOf(results, i, finish),
      finishedAt: finishedAt(i),
    })),
    next: waiting.slice(0, size).map((i) => ({ i, startAt: scheduledStart[i]! })),
  };
}

/**
 * The predicted finish shown beside the time ridden so far: the board's prediction, never before
 * the time already ridden as the page's clock ticks on between refreshes (issue 27: elapsed 45:27
 * beside a predicted finish of 45:12). Null without a prediction.
 */
export function predictedFinishShown(predicted: Millis | null, elapsed: number | null): Millis | null {
  if (predicted === null) return null;
  return elapsed === null ? predicted : (Math.max(predicted, elapsed) as Millis);
}
