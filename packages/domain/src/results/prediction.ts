import type { Millis } from '../time-format.ts';
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
export function predict(results: RaceResults, i: number): Prediction | null {
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
  for (let q = Math.max(0, last + 1); q < index.pointCount; q++) {
    const netMs = Math.round(scale * profile[q]!);
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
