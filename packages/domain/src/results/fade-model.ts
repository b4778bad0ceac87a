/**
 * The fade of a marathon's second half, by pace band (issue 19). A runner's finish predicted at
 * half-way is half × ratio, the ratio (finish / half, 2.0 at an even pace) depending on how fast
 * the runner is: the fast run near even splits, the mid-pack and the slow fade more. A prior gives
 * each band's ratio before anyone finishes — the course's previous editions when the organiser
 * provides them, else a general marathon model — and the live field refines it as comparable
 * runners (same band) finish: a shrinkage estimate, the prior counting as `priorWeight` runners.
 * Early finishers are the even-paced fast runners; without bands their small fade would be lent to
 * the whole field and predictions would be biased fast.
 */

/** Finish/half ratio of an even pace. */
export const EVEN_PACE_RATIO = 2;

/** A prior: the expected finish/half ratio of a runner whose half took `halfMs`. */
export type FadePrior = (halfMs: number) => number;

const MIN = 60_000;

/**
 * A general marathon fade model: the second half slower than the first by ≈ 2 % for a 1:05 half,
 * rising with the half time to ≈ 16 % at 2:45 and beyond (published split analyses of big city
 * marathons: positive splits grow with finish time). Not fitted on the race it predicts.
 */
export const generalMarathonFade: FadePrior = (halfMs) => {
  const h = halfMs / MIN;
  const slowdown = 0.02 + 0.14 * Math.min(1, Math.max(0, (h - 65) / 100));
  return EVEN_PACE_RATIO * (1 + slowdown / 2) + (h > 165 ? 0.02 : 0);
};

/**
 * What a course's previous editions say of its fade, small enough to store with the race: per
 * band of half times (`band` × `bandMs` to the next band), the median finish/half ratio of its
 * finishers and how many they were. Bands of fewer than 5 finishers are left out.
 */
export interface EditionBands {
  readonly bandMs: number;
  readonly bands: readonly { readonly band: number; readonly ratio: number; readonly runners: number }[];
}

/** The bands of previous editions' finishers (half and finish net times); see `EditionBands`. */
export function editionBands(
  runners: readonly { halfMs: number; finishMs: number }[],
  bandMs = 5 * MIN,
): EditionBands {
  const byBand = new Map<number, number[]>();
  for (const { halfMs, finishMs } of runners) {
    if (!(halfMs > 0 && finishMs > halfMs && Number.isFinite(finishMs))) continue;
    const band = Math.floor(halfMs / bandMs);
    const list = byBand.get(band) ?? [];
    list.push(finishMs / halfMs);
    byBand.set(band, list);
  }
  const bands = [...byBand]
    .filter(([, list]) => list.length >= 5)
    .sort((a, b) => a[0] - b[0])
    .map(([band, list]) => {
      list.sort((x, y) => x - y);
      return { band, ratio: list[Math.floor(list.length / 2)]!, runners: list.length };
    });
  return { bandMs, bands };
}

/**
 * The prior of stored edition bands: a band's median ratio (never faster than even pace), the
 * fallback (the general model) for a half time no band holds.
 */
export function priorFromBands(bands: EditionBands, fallback: FadePrior = generalMarathonFade): FadePrior {
  const ratios = new Map(bands.bands.map((b) => [b.band, b.ratio]));
  return (halfMs) => {
    const ratio = bands.bandMs > 0 ? ratios.get(Math.floor(halfMs / bands.bandMs)) : undefined;
    return ratio !== undefined && Number.isFinite(ratio)
      ? Math.max(EVEN_PACE_RATIO, ratio)
      : fallback(halfMs);
  };
}

/** A prior from a course's previous editions: per band, the ratios of its finishers (median). */
export function priorFromEditions(
  runners: readonly { halfMs: number; finishMs: number }[],
  bandMs = 5 * MIN,
  fallback: FadePrior = generalMarathonFade,
): FadePrior {
  return priorFromBands(editionBands(runners, bandMs), fallback);
}

/**
 * Previous editions' runners from a CSV text: one runner a line, their half and finish net times
 * (`h:mm:ss` or `mm:ss`) in the columns named like "half" and "finish" / "official" / "time"
 * (any order, `,` or `;`), else the first two columns. Lines without both times are skipped.
 */
export function editionRunnersFromCsv(text: string): { halfMs: number; finishMs: number }[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length === 0) return [];
  const split = (line: string) => line.split(/[,;\t]/).map((c) => c.trim().replace(/^"|"$/g, ''));
  const header = split(lines[0]!).map((h) => h.toLowerCase());
  const halfCol = header.findIndex((h) => /half|semi|21/.test(h));
  const finishCol = header.findIndex(
    (h, k) => k !== halfCol && /finish|official|arriv|net|time|temps/.test(h),
  );
  const named = halfCol >= 0 && finishCol >= 0;
  const runners: { halfMs: number; finishMs: number }[] = [];
  for (const line of named ? lines.slice(1) : lines) {
    const cells = split(line);
    const halfMs = parseDuration(cells[named ? halfCol : 0] ?? '');
    const finishMs = parseDuration(cells[named ? finishCol : 1] ?? '');
    if (halfMs > 0 && finishMs > halfMs) runners.push({ halfMs, finishMs });
  }
  return runners;
}

/** `h:mm:ss`, `mm:ss` (optionally with a fraction of a second) to ms, NaN otherwise. */
function parseDuration(text: string): number {
  const m = /^(?:(\d+):)?(\d{1,2}):(\d{2})(?:[.,](\d+))?$/.exec(text);
  if (!m) return Number.NaN;
  const fraction = m[4] ? Number(`0.${m[4]}`) : 0;
  return Math.round(((Number(m[1] ?? 0) * 60 + Number(m[2])) * 60 + Number(m[3]) + fraction) * 1000);
}

/** Options of a fade model. */
export interface FadeModelOptions {
  /** Width of a pace band (by half time). */
  bandMs?: number;
  /** How many runners the prior counts as in a band. */
  priorWeight?: number;
}

/**
 * A live fade model. Each finisher tells two things: how much more (or less) than the prior the
 * field fades today — heat, wind: the excess fade of any band, a factor on the prior's slowdown,
 * learnt from the first finishers on — and their own band's ratio, which takes over as the band
 * fills up.
 */
export class FadeModel {
  private readonly sums = new Map<number, { n: number; sum: number }>();
  private excessSum = 0;
  private excessN = 0;
  private readonly bandMs: number;
  private readonly priorWeight: number;

  constructor(
    private readonly prior: FadePrior = generalMarathonFade,
    options: FadeModelOptions = {},
  ) {
    this.bandMs = options.bandMs ?? 5 * MIN;
    this.priorWeight = options.priorWeight ?? 25;
  }

  private band(halfMs: number): number {
    return Math.floor(halfMs / this.bandMs);
  }

  /** A runner of the race finished: their ratio joins their band. */
  observe(halfMs: number, finishMs: number): void {
    if (!(halfMs > 0 && finishMs > halfMs)) return;
    const key = this.band(halfMs);
    const entry = this.sums.get(key) ?? { n: 0, sum: 0 };
    entry.n++;
    entry.sum += finishMs / halfMs;
    this.sums.set(key, entry);
    const expected = this.prior(halfMs) - EVEN_PACE_RATIO;
    if (expected > 0) {
      // Bounded: one runner walking in (or sprinting) tells little about the field.
      this.excessSum += Math.min(4, Math.max(-1, (finishMs / halfMs - EVEN_PACE_RATIO) / expected));
      this.excessN++;
    }
  }

  /** Today's slowdown relative to the prior's (1 until someone finishes). */
  excess(): number {
    return (this.priorWeight + this.excessSum) / (this.priorWeight + this.excessN);
  }

  /** The expected finish/half ratio at this half time. */
  ratio(halfMs: number): number {
    const prior = EVEN_PACE_RATIO + (this.prior(halfMs) - EVEN_PACE_RATIO) * this.excess();
    const entry = this.sums.get(this.band(halfMs));
    if (!entry) return prior;
    return (prior * this.priorWeight + entry.sum) / (this.priorWeight + entry.n);
  }

  /** The predicted finish (net ms) of a runner whose half took `halfMs`. */
  predictFinish(halfMs: number): number {
    return Math.round(halfMs * this.ratio(halfMs));
  }
}

const MARATHON_M = 42_195;

/**
 * How much a runner's fade differs from the general model's by gender (`GENDERS` order: M, F, X),
 * a factor on the slowdown (ratio − 2): men slow more than women of the same pace (Deaner et al.
 * 2015, Med Sci Sports Exerc, 14 US marathons; March et al. 2011, J Strength Cond Res). Women's
 * slowdown taken as ¾ of men's, the pair centred on the mixed field the general model describes
 * (≈ 55 % men): 1.12 and 0.84. On the odd half of Boston 2017 women of a given half time slowed by
 * 0.65–0.75 of the men's; the factor cut the median absolute error at the half by ≈ 0.2 min and at
 * 30 km by ≈ 0.2 min there. X and an unknown gender keep the mixed field's 1.
 */
export const GENDER_FADE: readonly number[] = [1.12, 0.84, 1];

/**
 * The prior's finish/T(k) ratio for a runner who took `tK` to point k (issue 19), for any point
 * and race distance. The prior speaks of the half (`FadePrior`): spread over the race as a pace
 * drifting linearly with distance, pace(d) = p₀(1 + a·d/D), whose finish/half ratio is
 * 2(1 + a/2)/(1 + a/4) — so a = (ρ − 2)/(1 − ρ/4) for the prior's ρ, and T(D)/T(fD) =
 * (1 + a/2)/(f + a·f²/2). The runner's half for the prior is their pace so far, even (D/2 at the
 * pace of T(k)). A shorter race fades less: the drift is scaled by D / marathon (no more than 1).
 * `fadeScale` multiplies the prior's slowdown (ρ − 2) for one runner (`GENDER_FADE`).
 * NaN when distances are missing.
 */
export function fadeRatioPrior(
  distanceM: ArrayLike<number>,
  k: number,
  tK: number,
  prior: FadePrior = generalMarathonFade,
  fadeScale = 1,
): number {
  return fadeRatioBetween(distanceM, k, distanceM.length - 1, tK, prior, fadeScale);
}

/**
 * The prior's T(j)/T(k) for a runner who took `tK` to point k, j > k (the finish: `fadeRatioPrior`):
 * with the pace drifting linearly with distance, T(fD) ∝ f + a·f²/2. NaN when distances are missing.
 */
export function fadeRatioBetween(
  distanceM: ArrayLike<number>,
  k: number,
  j: number,
  tK: number,
  prior: FadePrior = generalMarathonFade,
  fadeScale = 1,
): number {
  const total = distanceM[distanceM.length - 1]!;
  const at = distanceM[k]!;
  const to = distanceM[j]!;
  if (!(total > 0 && at > 0 && at < to && to <= total && tK > 0)) return Number.NaN;
  const f = at / total;
  const g = to / total;
  const rho = EVEN_PACE_RATIO + (prior((tK * 0.5) / f) - EVEN_PACE_RATIO) * fadeScale;
  const a = Math.max(0, ((rho - EVEN_PACE_RATIO) / (1 - rho / 4)) * Math.min(1, total / MARATHON_M));
  return (g + (a * g * g) / 2) / (f + (a * f * f) / 2);
}
