import type { Millis } from '../time-format.ts';
import { type FadePrior, fadeRatioPrior } from './fade-model.ts';
import { fieldProfile, median } from './field-profile.ts';
import { lastPointOf, statusOf } from './queries.ts';
import { netTimeOf, type RaceResults } from './results-model.ts';

/** Predicted arrival at one point still ahead. */
export interface PointPrediction {
  readonly pointId: string;
  readonly netMs: Millis;
  /** Net start + predicted net time, null without a start time. */
  readonly timeOfDay: Millis | null;
}

/**
 * A runner's predicted times. `basis` says what it is anchored on: the runner's own last split,
 * the field's median at the first point (no split yet), or an even pace (the field has none).
 */
export interface Prediction {
  readonly basis: 'athlete' | 'field' | 'evenPace';
  readonly finishNetMs: Millis;
  readonly finishTimeOfDay: Millis | null;
  /** Every ranked point not reached yet, in course order; the finish is the last. */
  readonly points: readonly PointPrediction[];
}

/** How many finishers the prior counts as when the field's finishers correct it. */
const PRIOR_WEIGHT = 25;

/**
 * The finish of a runner who took `ownTime` to point k, by the fade model (issue 19): an even
 * pace from k plus a slowdown. The general marathon model gives the slowdown for the runner's
 * pace (`fadeRatioPrior`: a marathon fades, the slower the more); the race's own prior (its
 * previous editions), when given, scales it; the finishers so far at that point scale it too —
 * the day's heat, the course — each counting as one against the prior's `PRIOR_WEIGHT`. Early
 * finishers are the even-paced fast runners: the slowdown scales with pace from the prior, so the
 * mid-pack's larger fade is not missed as a plain field profile misses it (biased fast).
 */
function fadedFinish(results: RaceResults, k: number, ownTime: number, prior?: FadePrior): number {
  const { distanceM, pointCount } = results.index;
  if (k < 0 || k >= pointCount - 1) return Number.NaN;
  const even = distanceM[pointCount - 1]! / distanceM[k]!;
  const general = fadeRatioPrior(distanceM, k, ownTime);
  if (!(general > even)) return Number.NaN;
  const scale = prior ? (fadeRatioPrior(distanceM, k, ownTime, prior) - even) / (general - even) : 1;
  const { fadeLogSum: excessSum, fadeCount } = fieldProfile(results);
  const excess =
    (PRIOR_WEIGHT * (Number.isFinite(scale) ? scale : 1) + excessSum[k]!) / (PRIOR_WEIGHT + fadeCount[k]!);
  return ownTime * (even + (general - even) * excess);
}

/**
 * How much more (or less) runner i slowed on their last segment than the field did (1: as the
 * field's median ratio T(k)/T(k−1)): a runner already fading more than the others goes on fading
 * (tuned on one half of Boston 2017, see the bench). Bounded to ±15 %.
 */
function ownTrend(results: RaceResults, i: number, k: number): number {
  if (k < 1) return 1;
  const own = netTimeOf(results, i, k) / netTimeOf(results, i, k - 1);
  const typical = median(fieldProfile(results).segments[k - 1]!);
  if (!(own > 1 && typical > 1)) return 1;
  return Math.min(1.15, Math.max(0.85, (own - 1) / (typical - 1)));
}

/** Options of `predict`. */
export interface PredictOptions {
  /** Apply the fade by pace (default true); false: the field's profile alone. */
  readonly fade?: boolean;
  /** The race's own fade prior (e.g. `priorFromEditions` of its previous editions). */
  readonly prior?: FadePrior;
}

/**
 * The field's cumulative profile relative to the first point: typical T(q) / T(0). A segment
 * nobody has run yet is assumed at the pace of the one before it (ratio of distances).
 */
function cumulativeProfile(results: RaceResults): Float64Array {
  const { pointCount, distanceM } = results.index;
  const { segments } = fieldProfile(results);
  const profile = new Float64Array(pointCount);
  profile[0] = 1;
  for (let q = 0; q + 1 < pointCount; q++) {
    const typical = median(segments[q]!);
    const from = distanceM[q]!;
    const evenPace = from > 0 ? distanceM[q + 1]! / from : 1;
    profile[q + 1] = profile[q]! * (Number.isNaN(typical) ? evenPace : typical);
  }
  return profile;
}

/**
 * Predicts participant i's finish and arrival at each point ahead by scaling the field's typical
 * profile to the runner's pace so far: T(q) = T(k) × profile(q) / profile(k), k the last point
 * reached. This keeps the runner's own speed and the course's shape (hills, the field's fade).
 * Without a split yet it takes the field's median at the first point; without any field data an
 * even pace of `rules.fallbackPaceMsPerKm`. Null for finished, DNS, DNF and DSQ runners.
 * Predictions move with the field, so they are computed when asked, not stored in rows.
 */
export function predict(results: RaceResults, i: number, options: PredictOptions = {}): Prediction | null {
  const { index } = results;
  const status = statusOf(results, i);
  if (status !== 'onCourse' && status !== 'notStarted') return null;
  const profile = cumulativeProfile(results);
  const last = lastPointOf(results, i);
  const ownTime = last >= 0 ? netTimeOf(results, i, last) : Number.NaN;
  let basis: Prediction['basis'] = 'athlete';
  let scale = ownTime / profile[Math.max(0, last)]!;
  if (!(ownTime > 0)) {
    const fieldFirst = median(fieldProfile(results).first);
    basis = Number.isNaN(fieldFirst) ? 'evenPace' : 'field';
    scale = basis === 'field' ? fieldFirst : (index.distanceM[0]! * index.rules.fallbackPaceMsPerKm) / 1000;
  }
  const start = results.netStart[i]!;
  const points: PointPrediction[] = [];
  const finishIdx = index.pointCount - 1;
  // The finish by the fade model; the points between keep the profile's shape, stretched to it.
  const faded =
    basis === 'athlete' && options.fade !== false
      ? ownTime + (fadedFinish(results, last, ownTime, options.prior) - ownTime) * ownTrend(results, i, last)
      : Number.NaN;
  const stretch = Number.isNaN(faded)
    ? Number.NaN
    : (faded - ownTime) / (scale * profile[finishIdx]! - ownTime);
  for (let q = Math.max(0, last + 1); q < index.pointCount; q++) {
    const byProfile = scale * profile[q]!;
    const netMs = Math.round(
      Number.isFinite(stretch) && stretch > 0 ? ownTime + (byProfile - ownTime) * stretch : byProfile,
    );
    points.push({
      pointId: index.pointIds[q]!,
      netMs,
      timeOfDay: Number.isNaN(start) ? null : start + netMs,
    });
  }
  const finish = points[points.length - 1];
  if (!finish) return null;
  return { basis, finishNetMs: finish.netMs, finishTimeOfDay: finish.timeOfDay, points };
}
