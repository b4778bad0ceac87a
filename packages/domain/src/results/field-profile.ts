import { fadeRatioBetween, GENDER_FADE } from './fade-model.ts';
import type { RaceResults } from './results-model.ts';
import { createSortedKeys, insertKey, removeKey, type SortedKeys } from './sorted-index.ts';

/**
 * What the field has run so far, for predictions: the net times at the first ranked point, and
 * per segment k (point k → k + 1) the ratios T(k+1) / T(k) of every runner who has both. Ratios
 * of the same runners, not the medians of cumulative times, because mid-race only the fast have
 * reached the far points: their median would make everyone look fast. Kept sorted so that a
 * passing updates a median with one insert, and the median is read in O(1).
 */
export interface FieldProfile {
  readonly first: SortedKeys;
  readonly segments: readonly SortedKeys[];
  /**
   * Per pair of points k < j (index k × pointCount + j): the sum of the runners' shifts from the
   * general fade prior over k → j, T(j)/T(k) minus the prior's ratio for their pace at k (bounded),
   * over `shiftCount` runners. The day and the course (heat, a downhill first half) move every pace
   * band's ratio by about the same amount, so a shift seen on the runners ahead carries over to
   * the ones behind, where a factor on the prior's fade would not. Sums, so a passing moves them in
   * O(points²); the prediction shrinks their mean towards 0 (the prior).
   */
  readonly shiftSum: Float64Array;
  readonly shiftCount: Int32Array;
  /**
   * The model's residuals per pair k < j, as a histogram (index (k × pointCount + j) × SHIFT_BINS
   * + bin, `shiftBin`): each runner's shift over k → j divided by the prior's slowdown for them
   * over k → j (its ratio less an even pace's) — the spread of a fade grows with the fade. Their
   * spread among the runners ahead is the prediction's uncertainty (issue 27, `liveSpread`);
   * `residualSum` their sum. O(1) a passing, unlike a sorted list of 26,000 shifts per pair.
   */
  readonly shiftHistogram: Int32Array;
  readonly residualSum: Float64Array;
  /**
   * Per segment q (point q → q + 1) and pace band at q (`paceBand`, index q × PACE_BANDS + band):
   * the sum of the runners' log ratios T(q+1)/T(q) and their count — how runners of a pace slow
   * on each segment, for the own-trend comparison with comparable runners.
   */
  readonly bandLogSum: Float64Array;
  readonly bandCount: Int32Array;
  /**
   * Per point k and pace band at k (index k × PACE_BANDS + band, the band of T(k), the end of the
   * window): the sum of the runners' slowdown over the window before k (`trendStart` → k) against
   * the general prior's for their pace and gender, log T(k)/T(m) less the log of its ratio
   * (bounded), and their count. Keyed by the pace at k, not at m: when a runner reaches k, every
   * runner as fast as them at k has reached it too, so the bands up to the runner's own pace are
   * not missing their slower members (`paceSlowdown`, issue 41).
   */
  readonly slowSum: Float64Array;
  readonly slowCount: Int32Array;
  /** Per participant: the factor on the general prior's slowdown (`GENDER_FADE`). */
  readonly fadeScale: Float64Array;
}

/** Ratio of runner times at two consecutive points, or NaN when it tells nothing. */
function ratio(before: number, after: number): number {
  return before > 0 && after > 0 ? after / before : Number.NaN;
}

function netTimes(r: RaceResults, i: number, out: Float64Array): Float64Array {
  const { pointCount } = r.index;
  const start = r.netStart[i]!;
  for (let p = 0; p < pointCount; p++) out[p] = r.at[i * pointCount + p]! - start;
  return out;
}

function sortedFrom(values: Float64Array, count: number): SortedKeys {
  const index = createSortedKeys(count);
  const sorted = values.subarray(0, count).sort();
  index.keys.set(sorted);
  index.size = count;
  return index;
}

/** Builds the profile from scratch: one sort per point, ≈ 25 ms at Boston scale, done lazily. */
export function buildFieldProfile(r: RaceResults): FieldProfile {
  const { n, pointCount } = r.index;
  const times = new Float64Array(pointCount);
  const columns = Array.from({ length: pointCount }, () => new Float64Array(n));
  const counts = new Int32Array(pointCount);
  for (let i = 0; i < n; i++) {
    netTimes(r, i, times);
    if (times[0]! > 0) columns[0]![counts[0]!++] = times[0]!;
    for (let k = 0; k + 1 < pointCount; k++) {
      const q = ratio(times[k]!, times[k + 1]!);
      if (!Number.isNaN(q)) columns[k + 1]![counts[k + 1]!++] = q;
    }
  }
  const sorted = columns.map((values, c) => sortedFrom(values, counts[c]!));
  const fadeScale = new Float64Array(n);
  for (let i = 0; i < n; i++) fadeScale[i] = GENDER_FADE[r.index.genderOf[i]!] ?? 1;
  const profile: FieldProfile = {
    fadeScale,
    first: sorted[0] ?? createSortedKeys(0),
    segments: sorted.slice(1),
    shiftSum: new Float64Array(pointCount * pointCount),
    shiftCount: new Int32Array(pointCount * pointCount),
    shiftHistogram: new Int32Array(pointCount * pointCount * SHIFT_BINS),
    residualSum: new Float64Array(pointCount * pointCount),
    bandLogSum: new Float64Array(pointCount * PACE_BANDS),
    bandCount: new Int32Array(pointCount * PACE_BANDS),
    slowSum: new Float64Array(pointCount * PACE_BANDS),
    slowCount: new Int32Array(pointCount * PACE_BANDS),
  };
  for (let i = 0; i < n; i++) addFade(r, profile, netTimes(r, i, times), i, 1);
  return profile;
}

/**
 * A runner's time ratio over `from` → `to` and the general prior's for their pace at `from`; null
 * when either tells nothing (a time missing or out of order, no prior).
 */
function againstPrior(
  distanceM: ArrayLike<number>,
  times: ArrayLike<number>,
  from: number,
  to: number,
  fadeScale: number,
): { ratio: number; prior: number } | null {
  const tFrom = times[from]!;
  const tTo = times[to]!;
  if (!(tFrom > 0 && tTo > tFrom)) return null;
  const prior = fadeRatioBetween(distanceM, from, to, tFrom, undefined, fadeScale);
  return prior > 0 ? { ratio: tTo / tFrom, prior } : null;
}

/**
 * A runner's shift from the prior over k → j (see `FieldProfile.shiftSum`), NaN when it tells
 * nothing. Bounded: one runner walking in (or sprinting) tells little about the field.
 */
export function shiftFromPrior(
  distanceM: ArrayLike<number>,
  times: ArrayLike<number>,
  k: number,
  j: number,
  fadeScale = 1,
): number {
  const r = againstPrior(distanceM, times, k, j, fadeScale);
  if (!r) return Number.NaN;
  const even = distanceM[j]! / distanceM[k]!;
  return Math.min(0.2 * even, Math.max(-0.05 * even, r.ratio - r.prior));
}

/**
 * Bins of the residuals' histogram (`FieldProfile.shiftHistogram`): a shift in units of the
 * prior's slowdown, from −4 to 12 (bounded there) in steps of 0.04.
 */
export const SHIFT_BINS = 400;
const RESIDUAL_LOW = -4;
const RESIDUAL_HIGH = 12;
const SHIFT_STEP = (RESIDUAL_HIGH - RESIDUAL_LOW) / SHIFT_BINS;

/** The histogram bin of a residual. */
export function shiftBin(residual: number): number {
  return Math.min(SHIFT_BINS - 1, Math.max(0, Math.floor((residual - RESIDUAL_LOW) / SHIFT_STEP)));
}

/** The residual at the middle of a bin. */
export function shiftOfBin(bin: number): number {
  return RESIDUAL_LOW + (bin + 0.5) * SHIFT_STEP;
}

/** Pace bands of 10 s/km, from 0 to 20 min/km (the last band holds anything slower). */
export const PACE_BANDS = 120;

/** The pace band of a runner who took `tMs` to `distanceM`, −1 when unknown. */
export function paceBand(tMs: number, distanceM: number): number {
  if (!(tMs > 0 && distanceM > 0)) return -1;
  return Math.min(PACE_BANDS - 1, Math.floor(tMs / distanceM / 10));
}

/** A runner's recent trend looks back over at least this distance (15 km → half at the half). */
export const TREND_M = 4000;

/** The point a window ending at k starts from: the nearest at least `TREND_M` before k (or 0). */
export function trendStart(distanceM: ArrayLike<number>, k: number): number {
  let m = k - 1;
  while (m > 0 && distanceM[k]! - distanceM[m]! < TREND_M) m--;
  return m;
}

/**
 * A runner's slowdown over m → k against the general prior's for their pace at m and gender
 * (`FieldProfile.slowSum`), log units, bounded to ±5 %: NaN when it tells nothing.
 */
export function slowdownFromPrior(
  distanceM: ArrayLike<number>,
  times: ArrayLike<number>,
  m: number,
  k: number,
  fadeScale = 1,
): number {
  if (!(m < k)) return Number.NaN;
  const r = againstPrior(distanceM, times, m, k, fadeScale);
  if (!r) return Number.NaN;
  return Math.min(0.05, Math.max(-0.05, Math.log(r.ratio / r.prior)));
}

/** Adds (sign 1) or removes (sign −1) participant i's shifts, given their net times. */
function addFade(r: RaceResults, profile: FieldProfile, times: Float64Array, i: number, sign: 1 | -1): void {
  const { pointCount, distanceM } = r.index;
  const fadeScale = profile.fadeScale[i]!;
  for (let k = 1; k < pointCount; k++) {
    const slow = slowdownFromPrior(distanceM, times, trendStart(distanceM, k), k, fadeScale);
    if (Number.isNaN(slow)) continue;
    const band = paceBand(times[k]!, distanceM[k]!);
    profile.slowSum[k * PACE_BANDS + band]! += sign * slow;
    profile.slowCount[k * PACE_BANDS + band]! += sign;
  }
  for (let k = 0; k + 1 < pointCount; k++) {
    if (!(times[k]! > 0)) continue;
    const band = paceBand(times[k]!, distanceM[k]!);
    if (band >= 0 && times[k + 1]! > times[k]!) {
      const even = Math.log(distanceM[k + 1]! / distanceM[k]!);
      const log = Math.min(even + 0.3, Math.max(even - 0.05, Math.log(times[k + 1]! / times[k]!)));
      profile.bandLogSum[k * PACE_BANDS + band]! += sign * log;
      profile.bandCount[k * PACE_BANDS + band]! += sign;
    }
    for (let j = k + 1; j < pointCount; j++) {
      const shift = shiftFromPrior(distanceM, times, k, j, fadeScale);
      if (Number.isNaN(shift)) continue;
      profile.shiftSum[k * pointCount + j]! += sign * shift;
      profile.shiftCount[k * pointCount + j]! += sign;
      const fade =
        fadeRatioBetween(distanceM, k, j, times[k]!, undefined, fadeScale) - distanceM[j]! / distanceM[k]!;
      if (!(fade > 0)) continue;
      const residual = Math.min(RESIDUAL_HIGH, Math.max(RESIDUAL_LOW, shift / Math.sqrt(fade)));
      profile.residualSum[k * pointCount + j]! += sign * residual;
      profile.shiftHistogram[(k * pointCount + j) * SHIFT_BINS + shiftBin(residual)]! += sign;
    }
  }
}

/** The field profile of the results, built on first use and then kept current incrementally. */
export function fieldProfile(r: RaceResults): FieldProfile {
  r.profile ??= buildFieldProfile(r);
  return r.profile;
}

/** Median of a sorted index, NaN when empty. */
export function median(values: SortedKeys): number {
  const { size, keys } = values;
  if (size === 0) return Number.NaN;
  const mid = size >>> 1;
  return size % 2 === 1 ? keys[mid]! : (keys[mid - 1]! + keys[mid]!) / 2;
}

/** Snapshot of participant i's net times, to diff a row before and after a change. */
export function captureNetTimes(r: RaceResults, i: number): Float64Array {
  return netTimes(r, i, new Float64Array(r.index.pointCount));
}

/**
 * Moves participant i's contributions from its old net times to its current ones. The median
 * depends on the multiset only, and the float removed is the one inserted, as both come from
 * `ratio` on the same times.
 */
export function updateFieldProfile(r: RaceResults, i: number, before: Float64Array): void {
  const profile = r.profile;
  if (!profile) return;
  const after = captureNetTimes(r, i);
  const replace = (values: SortedKeys, old: number, now: number) => {
    if (old === now || (Number.isNaN(old) && Number.isNaN(now))) return;
    if (!Number.isNaN(old)) removeKey(values, old);
    if (!Number.isNaN(now)) insertKey(values, now);
  };
  const firstOf = (t: Float64Array) => (t[0]! > 0 ? t[0]! : Number.NaN);
  replace(profile.first, firstOf(before), firstOf(after));
  profile.segments.forEach((values, k) => {
    replace(values, ratio(before[k]!, before[k + 1]!), ratio(after[k]!, after[k + 1]!));
  });
  addFade(r, profile, before, i, -1);
  addFade(r, profile, after, i, 1);
}
