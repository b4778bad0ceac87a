import type { Millis } from '../time-format.ts';
import { type FadePrior, fadeRatioBetween, fadeRatioPrior } from './fade-model.ts';
import { fieldProfile, median, PACE_BANDS, SHIFT_BINS, shiftOfBin, trendStart } from './field-profile.ts';
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
  /**
   * The finish's 80 % interval (`INTERVAL_COVERAGE`), net ms, low ≤ finishNetMs ≤ high: where the
   * runners ahead's spread around the model says 80 % of such runners finish (issue 27). Null
   * without a split of the runner's own.
   */
  readonly finishRange: readonly [Millis, Millis] | null;
  /** Every ranked point not reached yet, in course order; the finish is the last. */
  readonly points: readonly PointPrediction[];
}

/** How many runners ahead the prior counts as when their shift from it corrects it. */
const PRIOR_WEIGHT = 2;
/** How many runners must have run k → j for point j to speak. */
const MIN_AHEAD = 10;
/**
 * How many runners must have run k → j for their spread to speak (`liveSpread`): its 10th and
 * 90th percentiles then each rest on at least 10 runners beyond them. Read from `MIN_AHEAD` (the
 * mean's threshold) the percentiles rested on one runner each, the few fastest of the day: their
 * spread swung the interval's coverage at the half from 74 % (London 2015, whose leaders ran
 * unusually even) to 85 % (issue 41). A statistical threshold, not fitted on an edition.
 */
const MIN_SPREAD = 100;
/**
 * A shift seen over a part of k → finish grows to the finish as the distance to the power
 * `STRETCH`: the fade quickens late in a marathon (the wall, Boston's hills after 25 km). Measured,
 * not tuned: on the odd half of Boston 2017 the spread of the runners' T(j)/T(half) grows as
 * (distance past the half)^1.27 (1.06 from 30 km); a linear stretch left predictions at the half
 * ≈ 0.5 min too fast.
 */
const STRETCH = 1.25;

/**
 * The shift of today's field from the general prior over k → finish, as the runners ahead show
 * it: for each point j past k, the mean shift over k → j of the runners who ran it, stretched to
 * the finish (`STRETCH`: a downhill start, heat, a fade that grows along the course). The
 * furthest point with enough runners speaks. Returns the raw estimate and its weight — the
 * runners, not discounted for the stretch: a runner's excess over a part of the course is about
 * as spread, relative to its stretch, as over the whole (the spread grows with the distance, see
 * `STRETCH`), so n runners at 30 km tell as much as n finishers. (Discounting by the stretch
 * squared, as before, left the fast runners at the half on the prior alone: 2 min too fast.)
 * NaN / 0 when nobody is ahead.
 */
export function liveShift(
  results: RaceResults,
  k: number,
): { shift: number; weight: number; j: number; covered: number } {
  const { pointCount, distanceM } = results.index;
  const { shiftSum, shiftCount } = fieldProfile(results);
  const finish = pointCount - 1;
  const span = distanceM[finish]! - distanceM[k]!;
  for (let j = finish; j > k; j--) {
    const n = shiftCount[k * pointCount + j]!;
    if (n === 0) continue;
    const covered = (distanceM[j]! - distanceM[k]!) / span;
    if (n >= MIN_AHEAD || j === k + 1)
      return { shift: shiftSum[k * pointCount + j]! / n / covered ** STRETCH, weight: n, j, covered };
  }
  return { shift: Number.NaN, weight: 0, j: -1, covered: 0 };
}

/** The share of finishes the prediction's interval is meant to hold (issue 27). */
export const INTERVAL_COVERAGE = 0.8;
/**
 * Before `MIN_SPREAD` runners have run on from point k, the interval is the prior's doubt: the
 * time still to run, 10 % faster to 13 % slower. It stands for the part of the course nobody has
 * run yet (`predictionInterval`). A generic share of the time still to run, not a per-edition
 * constant: on Boston 2017 the 10th and 90th percentiles of (finish − prediction) / (prediction −
 * time run) stay within −0.06…−0.14 and +0.06…+0.15 from 5 km to 40 km, whatever the point. The
 * pair was calibrated on the odd half of the field and is reported on the even half (the bench).
 * Issue 41 checked it on Berlin and London 2014–2017 (the calibration set, then Chicago and Boston
 * as the check): with the spread read from `MIN_SPREAD` runners, 13 % leaves 7–13 % of their
 * finishes above the interval (16 %, widened before `MIN_SPREAD` to make up for the spread of a
 * handful of leaders, left 4–10 %).
 */
const NO_FIELD_SPREAD: readonly [number, number] = [-0.1, 0.13];
/**
 * Calibration of the live spread (`liveSpread`), fast and slow side: the runners ahead are the
 * faster, not the runners behind them (in a mass start nobody of a runner's own pace is ever
 * ahead), and the centre's late bias depends on the pace. Calibrated with `NO_FIELD_SPREAD` on the
 * odd half of Boston 2017 (1 runner in 8, then checked on the whole odd half: 35 km held 83.4 %
 * with 0.7 on the slow side, 81–82 % with 0.6), reported on the even half, held back. Without
 * them 35 km held 84 % and 40 km 80 % with 17 % of finishes below the interval. The slow side
 * widened to 0.85 and the fast side to 1.15 on other marathons (issue 41, `NO_FIELD_SPREAD`).
 */
const LIVE_CALIBRATION: readonly [number, number] = [1.15, 0.85];

/**
 * The spread of the runners ahead around the model over k → finish, as a pair of offsets (low,
 * high) on T(finish)/T(k): the 10th and 90th percentiles of their shifts from the prior over the
 * furthest point j at least `MIN_SPREAD` of them have reached, less their mean, stretched to the
 * finish as the mean is (the spread grows with the distance as the fade does, see `STRETCH`).
 * Computed from the live field only: no constant fitted on any edition. Undefined when fewer than
 * `MIN_SPREAD` runners have run on.
 */
export function liveSpread(
  results: RaceResults,
  i: number,
  k: number,
  ownTime: number,
): { low: number; high: number; covered: number } | undefined {
  const { pointCount, distanceM } = results.index;
  const { shiftHistogram, residualSum, fadeScale, shiftCount } = fieldProfile(results);
  let j = pointCount - 1;
  while (j > k && shiftCount[k * pointCount + j]! < MIN_SPREAD) j--;
  if (j <= k) return undefined;
  const covered = (distanceM[j]! - distanceM[k]!) / (distanceM[pointCount - 1]! - distanceM[k]!);
  const pair = k * pointCount + j;
  let n = 0;
  for (let b = 0; b < SHIFT_BINS; b++) n += shiftHistogram[pair * SHIFT_BINS + b]!;
  if (n < MIN_SPREAD) return undefined;
  const tail = (1 - INTERVAL_COVERAGE) / 2;
  const quantile = (q: number) => {
    let seen = 0;
    for (let b = 0; b < SHIFT_BINS; b++) {
      seen += shiftHistogram[pair * SHIFT_BINS + b]!;
      if (seen >= q * n) return shiftOfBin(b);
    }
    return shiftOfBin(SHIFT_BINS - 1);
  };
  const mean = residualSum[pair]! / n;
  // The residuals are in units of each runner's expected slowdown over k → j: back to time
  // ratios with this runner's own.
  const ownFade =
    fadeRatioBetween(distanceM, k, j, ownTime, undefined, fadeScale[i]) - distanceM[j]! / distanceM[k]!;
  if (!(ownFade > 0)) return undefined;
  const stretch = covered ** STRETCH / Math.sqrt(ownFade);
  return {
    low: Math.min(0, (quantile(tail) - mean) / stretch),
    high: Math.max(0, (quantile(1 - tail) - mean) / stretch),
    covered,
  };
}

/**
 * The finish's interval for a runner who took `ownTime` to point k and is predicted `finish`
 * (`Prediction.finishRange`): the live spread (`liveSpread`) on the time so far, else the prior's
 * doubt on the time still to run. `spreadScale` scales both: the mid-pack's slowdown factor
 * (`slowdownFactor`, ≤ 1), since the spread of a fade grows with the fade (`liveSpread` reads it
 * in units of the expected one); without it Berlin 2014 held 85.2 % (issue 41). Always low ≤
 * finish ≤ high, ms.
 */
export function predictionInterval(
  results: RaceResults,
  i: number,
  k: number,
  ownTime: number,
  finish: number,
  spreadScale = 1,
): readonly [Millis, Millis] {
  const live = liveSpread(results, i, k, ownTime);
  const toRun = finish - ownTime;
  const doubt = [toRun * NO_FIELD_SPREAD[0] * spreadScale, toRun * NO_FIELD_SPREAD[1] * spreadScale] as const;
  // The runners ahead speak for the part of the course still to run they have covered; the rest is
  // an extrapolation, for which the prior's doubt stands.
  const w = live ? live.covered : 0;
  const low =
    finish + w * ownTime * (live?.low ?? 0) * spreadScale * LIVE_CALIBRATION[0] + (1 - w) * doubt[0];
  const high =
    finish + w * ownTime * (live?.high ?? 0) * spreadScale * LIVE_CALIBRATION[1] + (1 - w) * doubt[1];
  return [Math.round(Math.min(finish, Math.max(ownTime, low))), Math.round(Math.max(finish, high))];
}

/**
 * The finish of runner i, who took `ownTime` to point k, by the fade model (issue 19): an even
 * pace from k plus a slowdown. The prior gives the slowdown for the runner's pace — the race's
 * previous editions when given, else the general marathon model (`fadeRatioPrior`: a marathon
 * fades, the slower the more; men more than women, `GENDER_FADE`). The runners ahead correct it
 * as they pass the points beyond k (`liveShift`), shrunk towards the prior by their number (the
 * prior counts as `PRIOR_WEIGHT`). Early finishers are the even-paced fast runners: what they
 * carry over is a shift from the prior for their own pace and gender, not their small fade, so
 * the mid-pack's larger fade is not missed. Previous editions' bands are of the whole field, so
 * they are taken as they are (no gender factor).
 */
function fadedFinish(results: RaceResults, i: number, k: number, ownTime: number, prior?: FadePrior): number {
  const { distanceM, pointCount } = results.index;
  if (k < 0 || k >= pointCount - 1) return Number.NaN;
  const general = fadeRatioPrior(distanceM, k, ownTime, undefined, fieldProfile(results).fadeScale[i]);
  if (!(general > 0)) return Number.NaN;
  const own = prior ? fadeRatioPrior(distanceM, k, ownTime, prior) : general;
  const start = Number.isFinite(own) ? own : general;
  const { shift, weight } = liveShift(results, k);
  if (!(weight > 0)) return ownTime * start;
  const share = weight / (weight + PRIOR_WEIGHT);
  return ownTime * ((1 - share) * start + share * (general + shift));
}

/** The own trend's factor on the time still to run stays within ±15 %. */
const TREND_BOUND = 0.15;
/**
 * The last segment alone counts again, to this power: the runner's current pace says more than
 * the 4 km before it (a median regression on the odd half of Boston 2017 gives the 20 km → half
 * segment 2 to 7 times the weight the 15 km → half window lends it, the most for the fastest).
 * Tuned on that half: 0.3 (0.5: no better at the half, worse at 30 km).
 */
const LAST_SEGMENT = 0.3;
/** Comparable runners: pace bands (10 s/km) either side of the runner's own at each point. */
const SPREAD = 2;
/**
 * How many runners the field's median counts as against the comparable runners on a segment
 * (`ownTrend`), and the drift gap's shrinkage towards 0 (`driftGap`): n / (n + `MIN_BAND`).
 */
const MIN_BAND = 10;

/**
 * How much more (or less) runner i slowed over their last ≥ 4 km than comparable runners did on
 * the same segments (1: as they did): runners of the same pace (±20 s/km) at each point, mean log
 * ratio T(q+1)/T(q) (`bandMean`), shrunk towards the field's median by their number (the median
 * counts as `MIN_BAND` runners; it stood in alone below `MIN_BAND`, which made a runner a little
 * slower than another predicted faster, issue 41). A runner already
 * fading more than their peers goes on fading: a factor on the time still to run, times the same
 * comparison on the last segment alone to the power `LAST_SEGMENT`, bounded to ±15 %. Comparing with the whole field instead leans on whoever has run the segment so far (the
 * faster, who slow less) and biases the factor up. Tuned on one half of Boston 2017 (see the
 * bench's variants in the README).
 */
export function ownTrend(results: RaceResults, i: number, k: number): number {
  if (k < 1) return 1;
  const { distanceM } = results.index;
  const m = trendStart(distanceM, k);
  const own = netTimeOf(results, i, k) / netTimeOf(results, i, m);
  const profile = fieldProfile(results);
  let typical = 1;
  let lastTypical = 1;
  for (let q = m; q < k; q++) {
    const { mean, n } = bandMean(
      results,
      q,
      Math.min(PACE_BANDS, netTimeOf(results, i, q) / distanceM[q]! / 10),
    );
    const field = Math.log(median(profile.segments[q]!));
    // Shrunk towards the field's median by the runners it rests on: continuous in the pace.
    lastTypical = n > 0 ? Math.exp((n * mean + MIN_BAND * field) / (n + MIN_BAND)) : Math.exp(field);
    typical *= lastTypical;
  }
  if (!(own > 1 && typical > 1)) return 1;
  const lastOwn = netTimeOf(results, i, k) / netTimeOf(results, i, k - 1);
  // Bounded before the power: one short segment (a shoe to tie) tells little on its own.
  const last =
    lastOwn > 1 && lastTypical > 1
      ? Math.min(3, Math.max(1 / 3, (lastOwn - 1) / (lastTypical - 1))) ** LAST_SEGMENT
      : 1;
  const factor = ((own - 1) / (typical - 1)) * last;
  return Math.min(1 + TREND_BOUND, Math.max(1 - TREND_BOUND, factor));
}

/**
 * The drift gap's weight (`driftGap`): the time still to run × exp(`GAP_WEIGHT` × gap). Chosen on
 * Berlin and London 2014–2017 (`fixtures/marathon-splits/`) at the half, then checked on Chicago
 * 2014–2017 and 2023 and Boston 2017 (`npm run bench -- prediction-editions`): 4 (3 left London
 * 2014/2017 at −0.8 / −1.6 min, 6 put Berlin and London at +1 to +2).
 */
const GAP_WEIGHT = 4;
/** The runners the drift gap compares with: a pace 15 % faster (the runners ahead in a mass start). */
const FASTER = 0.85;

/**
 * How much more the runners of this runner's pace have slowed over the second half of the course
 * so far (point m at half of point k's distance → k) than runners 15 % faster did on the same
 * segments (log units, the even pace's ratio removed from both): what the day does to the field's
 * mid-pack beyond what it does to the runners ahead, whose shift `liveShift` carries to everyone.
 * On a warm day the slower runners already slow more in the first half (Chicago 2017, London
 * 2014/2017, Boston 2017): the runners ahead's shift alone left their finish 3–7 min too fast at
 * the half, against ±1 on cool Berlin editions (issue 41). Read from the field's pace bands at
 * each point (`bandDrift`), shrunk towards 0 by how many runners it rests on (`bandWeight`): it
 * varies continuously with the pace, so a runner a little slower than another is never predicted
 * faster because their pace's bands hold a few runners fewer (it dropped to 0 below `MIN_BAND`:
 * 3:12 at the half predicted 4:48:41, 1 % slower 4:46:52). Not a constant of any edition: a
 * course with a downhill start moves both paces alike.
 */
export function driftGap(results: RaceResults, i: number, k: number): number {
  if (k < 1) return 0;
  const { distanceM } = results.index;
  let m = k - 1;
  while (m > 0 && distanceM[m]! > distanceM[k]! / 2) m--;
  const pace = netTimeOf(results, i, m) / distanceM[m]!;
  const own = bandDrift(results, m, k, pace);
  const faster = bandDrift(results, m, k, pace * FASTER);
  const gap = (own.drift - faster.drift) * Math.min(own.weight, faster.weight);
  return Number.isFinite(gap) ? gap : 0;
}

/**
 * The half-width of the comparable runners' paces (`bandMean`), a share of the pace: ±15 %, the
 * drift gap's step (`FASTER`). Narrower (±20 s/km, ±10 %), the mean of a sparse field's bands
 * still turned so fast with the pace that a runner 0.1 % slower was predicted up to 46 s earlier
 * (the property with 100–130 finishers ahead, 3,000 runs); from ±15 % none in 3,000.
 */
const KERNEL = 0.15;

/**
 * The pace bands' mean log ratio on segment q around a continuous band position `x` (pace in
 * 10 s/km units), and the runners it rests on (weighed): each band weighs 1 − its distance to x /
 * the half-width (`KERNEL` × x, at least `SPREAD` + 1 bands), a triangle, so that the mean and the
 * count move continuously with the pace (a band entering or leaving a flat window made them jump).
 */
function bandMean(results: RaceResults, q: number, x: number): { mean: number; n: number } {
  const profile = fieldProfile(results);
  let sum = 0;
  let n = 0;
  const half = Math.max(SPREAD + 1, x * KERNEL);
  for (let b = Math.floor(x - half); b <= Math.ceil(x + half); b++) {
    if (b < 0 || b >= PACE_BANDS) continue;
    const w = 1 - Math.abs(b + 0.5 - x) / half;
    if (!(w > 0)) continue;
    sum += w * profile.bandLogSum[q * PACE_BANDS + b]!;
    n += w * profile.bandCount[q * PACE_BANDS + b]!;
  }
  return { mean: n > 0 ? sum / n : Number.NaN, n };
}

/**
 * The mean log of T(k)/T(m) less an even pace's, of the runners at pace `paceMsPerM` (ms a metre)
 * at m, followed segment by segment (`bandMean`), and its weight: n / (n + `MIN_BAND`) for the
 * fewest runners n (weighed) on a segment. NaN and 0 when nobody of that pace ran a segment.
 */
function bandDrift(
  results: RaceResults,
  m: number,
  k: number,
  paceMsPerM: number,
): { drift: number; weight: number } {
  const { distanceM } = results.index;
  let total = 0;
  let fewest = Number.POSITIVE_INFINITY;
  let pace = paceMsPerM;
  for (let q = m; q < k; q++) {
    const { mean, n } = bandMean(results, q, Math.min(PACE_BANDS, pace / 10));
    if (!(n > 0)) return { drift: Number.NaN, weight: 0 };
    fewest = Math.min(fewest, n);
    total += mean;
    pace = (pace * distanceM[q]! * Math.exp(mean)) / distanceM[q + 1]!;
  }
  return { drift: total - Math.log(distanceM[k]! / distanceM[m]!), weight: fewest / (fewest + MIN_BAND) };
}

/**
 * The mid-pack's slowdown (`paceSlowdown`) weighs on the time still to run as
 * exp(`SLOW_WEIGHT` × (slowdown − `SLOW_NEUTRAL`) × n / (n + `MIN_BAND`)), only when below
 * `SLOW_NEUTRAL` (`slowdownFactor`). Chosen leaving each edition out in turn (`fixtures/marathon-
 * splits/` and Boston 2017, grid 0.25–3 × −1.2…−0.5 %, least median absolute plus signed error
 * with a penalty beyond ±1 min): every one of the 14 held out picked 3 and −0.6 % (results README,
 * "Sixth pass").
 */
const SLOW_WEIGHT = 3;
const SLOW_NEUTRAL = -0.006;
/** The runners `paceSlowdown` reads: those at k at a pace up to 30 % faster than the runner's. */
const SLOW_KERNEL = 0.3;

/**
 * How much the runners who reached point k at paces up to `SLOW_KERNEL` faster than runner i
 * slowed over the window before k (`trendStart` → k, 15 km → half at the half) against the
 * general prior for their pace and gender (log units; the field profile's `slowSum`, bands keyed
 * by the pace at k), and the runners it rests on (weighed). Each band weighs 4u(1 − u), u its
 * place between the fastest pace read (0) and the runner's own (1): nothing at either end, so the
 * mean moves continuously with the pace and neither the runner nor those just ahead of them
 * weigh. Keyed by the pace at k and read up to the runner's own pace, it is not censored: every
 * runner of those paces has reached k when runner i does (in a mass start). NaN and 0 for nobody.
 */
export function paceSlowdown(results: RaceResults, i: number, k: number): { slowdown: number; n: number } {
  const none = { slowdown: Number.NaN, n: 0 };
  if (k < 1) return none;
  const { distanceM } = results.index;
  const profile = fieldProfile(results);
  const x = netTimeOf(results, i, k) / distanceM[k]! / 10;
  const lo = x * (1 - SLOW_KERNEL);
  if (!(x > 0 && Number.isFinite(x))) return none;
  let sum = 0;
  let n = 0;
  for (let b = Math.max(0, Math.floor(lo)); b <= Math.min(PACE_BANDS - 1, Math.floor(x)); b++) {
    const u = (b + 0.5 - lo) / (x - lo);
    const w = 4 * u * (1 - u);
    if (!(w > 0)) continue;
    sum += w * profile.slowSum[k * PACE_BANDS + b]!;
    n += w * profile.slowCount[k * PACE_BANDS + b]!;
  }
  return n > 0 ? { slowdown: sum / n, n } : none;
}

/**
 * The factor on runner i's time still to run from the mid-pack's slowdown (`paceSlowdown`), ≤ 1:
 * a field of the runner's pace that slowed less than the prior says from 15 km to the half (a
 * cool day, a flat course: Berlin 2014–2017 −1.0…−1.1 %, the others −0.3…−0.9 %, Boston +0.1 %)
 * slows less after it. Issue 41: Berlin was predicted 0.7–1.6 min too slow, and Berlin 2017 out
 * of bounds. One-sided: a field slowing more than `SLOW_NEUTRAL` is what the drift gap
 * (`driftGap`) reads against the runners ahead, and read both ways the term moved Boston (whose
 * downhill start shows as +0.1 %) later and its median absolute error from 5.21 to 5.25–5.43 min
 * without bringing Chicago 2017 in (results README, "Sixth pass"). 1 without runners to read.
 */
export function slowdownFactor(results: RaceResults, i: number, k: number): number {
  const { slowdown, n } = paceSlowdown(results, i, k);
  if (!(n > 0)) return 1;
  return Math.exp(Math.min(0, SLOW_WEIGHT * (slowdown - SLOW_NEUTRAL) * (n / (n + MIN_BAND))));
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
  const fading = basis === 'athlete' && options.fade !== false;
  const slower = fading ? slowdownFactor(results, i, last) : 1;
  const faded = fading
    ? ownTime +
      (fadedFinish(results, i, last, ownTime, options.prior) - ownTime) *
        ownTrend(results, i, last) *
        Math.exp(GAP_WEIGHT * driftGap(results, i, last)) *
        slower
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
  const finishRange =
    basis === 'athlete' ? predictionInterval(results, i, last, ownTime, finish.netMs, slower) : null;
  return { basis, finishNetMs: finish.netMs, finishTimeOfDay: finish.timeOfDay, finishRange, points };
}

/**
 * Each finisher's net time at the point nearest half the race distance and at the finish, from a
 * race's results, to serve as a later edition's prior (`editionBands`); none when no point lies
 * within 5 % of half-way.
 */
export function editionRunnersOf(results: RaceResults): { halfMs: number; finishMs: number }[] {
  const { distanceM, pointCount, n } = results.index;
  const finish = pointCount - 1;
  const total = distanceM[finish]!;
  let half = -1;
  for (let p = 0; p < finish; p++)
    if (half < 0 || Math.abs(distanceM[p]! - total / 2) < Math.abs(distanceM[half]! - total / 2)) half = p;
  if (half < 0 || !(Math.abs(distanceM[half]! - total / 2) <= total * 0.05)) return [];
  // The prior speaks of the half: a split a little before or after it is brought to half-way.
  const toHalf = total / 2 / distanceM[half]!;
  const out: { halfMs: number; finishMs: number }[] = [];
  for (let i = 0; i < n; i++) {
    const h = netTimeOf(results, i, half);
    const f = netTimeOf(results, i, finish);
    if (h > 0 && f > h) out.push({ halfMs: h * toHalf, finishMs: f });
  }
  return out;
}
