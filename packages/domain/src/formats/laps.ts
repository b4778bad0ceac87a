import type { Bib, Participant, Passing, ResultStatus } from '../results/types.ts';
import type { Millis } from '../time-format.ts';
import { competitionRanks } from './ranking.ts';
import { bookReads, type ReadRef } from './reads.ts';

/**
 * A race on a loop: the same mat crossed again and again (issue 31).
 * - **criterium** (`targetLaps`): the leader's `targetLaps`-th crossing ends the race; every other
 *   rider finishes on their first crossing from then on, with the laps they have (lapped riders
 *   fewer). Ranked by laps, then by the time of their last crossing.
 * - **time-limited** (`limitMs`, 6/12/24 h): crossings after the limit never count; ranked by
 *   distance (laps × `lapLengthM`, plus a measured final partial lap when `partialLap` allows),
 *   then by who got there first.
 * - **backyard** (`backyardIntervalMs`): lap k starts for everyone at start + (k − 1) × interval and
 *   counts only when done within that interval; a runner's race ends at their first lap not done.
 *   Ranked by laps, then by the sum of lap times; the last one standing alone finishes, every
 *   other runner is DNF (the format's rule).
 * In every kind a crossing within `minLapMs` of the previous counted one (or of the start) is a
 * re-read and never a lap.
 */
export interface LapRaceDefinition {
  readonly startMs: Millis;
  /** The mat on the loop: its reads are the laps. */
  readonly lapPointId: string;
  /** Shortest possible lap: reads closer than this to the last counted crossing are re-reads. */
  readonly minLapMs: number;
  /** Length of one lap, for distances and speeds. */
  readonly lapLengthM?: number;
  readonly targetLaps?: number;
  readonly limitMs?: number;
  readonly backyardIntervalMs?: number;
  /** Time-limited races: whether a final partial lap measured by the desk adds to the distance. */
  readonly partialLap?: 'none' | 'measured';
}

/** Everything a lap race computes for one participant. */
export interface LapRow {
  readonly index: number;
  readonly bib: Bib;
  readonly status: ResultStatus;
  readonly laps: number;
  /** The counted crossings, in time order: crossing k ends lap k + 1. */
  readonly crossings: readonly ReadRef[];
  readonly lapTimesMs: readonly number[];
  readonly lastLapMs?: number;
  readonly bestLapMs?: number;
  /** 1-based number of the best lap (the first of equal bests). */
  readonly bestLapNo?: number;
  /** Time from the runner's start to their last counted crossing. */
  readonly elapsedMs?: number;
  /** Sum of lap times (backyard: the race time its results show). */
  readonly totalLapMs: number;
  readonly distanceM: number;
  /** Time-limited races before the limit: the distance at the current pace at the limit. */
  readonly projectedDistanceM?: number;
  /** Criterium: laps the rider still has to ride (0 once finished). */
  readonly lapsToGo?: number;
  /** Laps behind the leader (lapped riders: 1 or more). */
  readonly lapsDown: number;
  readonly rank?: number;
}

export interface LapRaceResults {
  readonly rows: readonly LapRow[];
  /** Ranked participants, best first. */
  readonly order: readonly number[];
  readonly leaderLaps: number;
  /** Criterium: when the leader finished. */
  readonly leaderFinishMs?: number;
  /** Criterium: laps the leader still has to ride. */
  readonly lapsToGo?: number;
  readonly unmatched: readonly ReadRef[];
}

export interface LapRaceOptions {
  /** The moment results are computed for (live projections); defaults to no projection. */
  readonly nowMs?: number;
  /** Final partial lap in metres per bib, measured by the desk at the limit. */
  readonly partialLapM?: Readonly<Record<string, number>>;
}

function countCrossings(
  reads: readonly ReadRef[],
  start: number,
  minLapMs: number,
  endMs: number,
): ReadRef[] {
  const out: ReadRef[] = [];
  let last = start;
  for (const r of reads) {
    if (r.timeMs <= start) continue;
    if (r.timeMs > endMs) break;
    if (r.timeMs - last >= minLapMs) {
      out.push(r);
      last = r.timeMs;
    }
  }
  return out;
}

function backyardCrossings(
  reads: readonly ReadRef[],
  start: number,
  intervalMs: number,
  minLapMs: number,
): ReadRef[] {
  const out: ReadRef[] = [];
  let k = 0;
  let j = 0;
  for (;;) {
    const lapStart = start + k * intervalMs;
    const lapEnd = lapStart + intervalMs;
    while (j < reads.length && reads[j]!.timeMs - lapStart < minLapMs) j++;
    const r = reads[j];
    if (!r || r.timeMs > lapEnd) return out;
    out.push(r);
    k++;
  }
}

const isOut = (s: Participant['status']) => s === 'DNS' || s === 'DSQ';

/** Computes a lap, time-limited or backyard race from its reads. Pure; order of passings is irrelevant. */
export function computeLapRace(
  race: LapRaceDefinition,
  participants: readonly Participant[],
  passings: readonly Passing[],
  options: LapRaceOptions = {},
): LapRaceResults {
  const book = bookReads(participants, passings);
  const startOf = (p: Participant) => p.startTime ?? race.startMs;
  const endMs = race.limitMs !== undefined ? race.startMs + race.limitMs : Number.POSITIVE_INFINITY;
  let crossings = participants.map((p, i) => {
    const reads = book.byOwner[i]!.get(race.lapPointId) ?? [];
    return race.backyardIntervalMs !== undefined
      ? backyardCrossings(reads, startOf(p), race.backyardIntervalMs, race.minLapMs)
      : countCrossings(reads, startOf(p), race.minLapMs, endMs);
  });
  let leaderFinishMs: number | undefined;
  if (race.targetLaps !== undefined) {
    const target = race.targetLaps;
    for (const [i, c] of crossings.entries()) {
      const t = c[target - 1]?.timeMs;
      if (
        t !== undefined &&
        !isOut(participants[i]!.status) &&
        (leaderFinishMs === undefined || t < leaderFinishMs)
      )
        leaderFinishMs = t;
    }
    const finish = leaderFinishMs;
    if (finish !== undefined) {
      crossings = crossings.map((c) => {
        const k = c.findIndex((r) => r.timeMs >= finish);
        return k < 0 ? c : c.slice(0, Math.min(k + 1, target));
      });
    }
    // Nobody does more than the race's laps, even when no ranked runner has finished (a
    // disqualified runner's reads, say: the property tests found 5 laps of 4).
    crossings = crossings.map((c) => (c.length > target ? c.slice(0, target) : c));
  }
  const L = race.lapLengthM ?? 0;
  const now = options.nowMs;
  const partial = (bib: string) =>
    race.partialLap === 'measured' && now !== undefined && now >= endMs
      ? (options.partialLapM?.[bib] ?? 0)
      : 0;
  const base = participants.map((p, i) => {
    const c = crossings[i]!;
    const start = startOf(p);
    const lapTimesMs = c.map((r, k) =>
      race.backyardIntervalMs !== undefined
        ? r.timeMs - (start + k * race.backyardIntervalMs)
        : r.timeMs - (k === 0 ? start : c[k - 1]!.timeMs),
    );
    let bestLapMs: number | undefined;
    let bestLapNo: number | undefined;
    lapTimesMs.forEach((t, k) => {
      if (bestLapMs === undefined || t < bestLapMs) {
        bestLapMs = t;
        bestLapNo = k + 1;
      }
    });
    const last = c.at(-1);
    const laps = c.length;
    const distanceM = laps * L + partial(p.bib);
    let projectedDistanceM: number | undefined;
    if (race.limitMs !== undefined && now !== undefined && last && now < endMs) {
      const rate = (laps * L) / (last.timeMs - start);
      projectedDistanceM = laps * L + rate * (endMs - last.timeMs);
    }
    return {
      index: i,
      bib: p.bib,
      laps,
      crossings: c,
      lapTimesMs,
      lastLapMs: lapTimesMs.at(-1),
      bestLapMs,
      bestLapNo,
      elapsedMs: last ? last.timeMs - start : undefined,
      totalLapMs: lapTimesMs.reduce((a, b) => a + b, 0),
      distanceM,
      projectedDistanceM,
    };
  });
  const backyard = race.backyardIntervalMs !== undefined;
  const rankable = base.flatMap((r) => {
    const s = participants[r.index]!.status;
    if (isOut(s) || r.laps === 0) return [];
    if (s === 'DNF' && race.targetLaps !== undefined) return [];
    return [r.index];
  });
  const better = (a: number, b: number) => {
    const ra = base[a]!;
    const rb = base[b]!;
    if (race.limitMs !== undefined && !backyard && ra.distanceM !== rb.distanceM)
      return rb.distanceM - ra.distanceM;
    if (ra.laps !== rb.laps) return rb.laps - ra.laps;
    if (backyard) return ra.totalLapMs - rb.totalLapMs;
    return (ra.crossings.at(-1)?.timeMs ?? 0) - (rb.crossings.at(-1)?.timeMs ?? 0);
  };
  const { order, rank } = competitionRanks(rankable, better, (i) => participants[i]!.bib);
  const ranked = new Set(rankable);
  const leaderLaps = base.reduce((m, r) => (ranked.has(r.index) ? Math.max(m, r.laps) : m), 0);
  // Backyard: the race is over once no one can still be running a lap; the one runner with the
  // most laps alone finishes.
  const backyardOver =
    backyard &&
    now !== undefined &&
    base.every((r) => now > startOf(participants[r.index]!) + (r.laps + 1) * race.backyardIntervalMs!);
  const winners = base.filter((r) => ranked.has(r.index) && r.laps === leaderLaps);
  const rows: LapRow[] = base.map((r) => {
    const p = participants[r.index]!;
    let status: ResultStatus;
    if (p.status === 'DNS' || p.status === 'DSQ' || p.status === 'DNF') status = p.status;
    else if (r.laps === 0) status = now !== undefined && now >= endMs ? 'DNS' : 'notStarted';
    else if (race.targetLaps !== undefined)
      status =
        leaderFinishMs !== undefined && (r.crossings.at(-1)?.timeMs ?? 0) >= leaderFinishMs
          ? 'finished'
          : 'onCourse';
    else if (backyard) {
      const stillIn = now === undefined || now <= startOf(p) + (r.laps + 1) * race.backyardIntervalMs!;
      status = stillIn
        ? 'onCourse'
        : backyardOver && winners.length === 1 && winners[0] === r
          ? 'finished'
          : 'DNF';
    } else status = now !== undefined && now >= endMs ? 'finished' : 'onCourse';
    return {
      ...r,
      status,
      lapsDown: Math.max(0, leaderLaps - r.laps),
      lapsToGo:
        race.targetLaps !== undefined
          ? status === 'finished'
            ? 0
            : Math.max(0, race.targetLaps - r.laps)
          : undefined,
      rank: rank.get(r.index),
    };
  });
  return {
    rows,
    order,
    leaderLaps,
    leaderFinishMs,
    lapsToGo: race.targetLaps !== undefined ? Math.max(0, race.targetLaps - leaderLaps) : undefined,
    unmatched: book.unmatched,
  };
}
