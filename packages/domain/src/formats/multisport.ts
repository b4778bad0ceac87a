import { categoryIndexOf } from '../results/categories.ts';
import type {
  Bib,
  CategoryDef,
  Participant,
  Passing,
  RaceDefinition,
  ResultStatus,
  Wave,
} from '../results/types.ts';
import type { Millis } from '../time-format.ts';
import { competitionRanks, ranksOfTimes } from './ranking.ts';
import { bookReads, firstReadFrom, type ReadRef } from './reads.ts';

/** One leg of a multisport race: a discipline or a transition, ending at a timing point. */
export interface MultisportLeg {
  readonly id: string;
  readonly name: string;
  readonly nameFr?: string;
  readonly kind: 'discipline' | 'transition';
  /** The mat that ends the leg (swim exit, T1 out, bike in, T2 out, finish). */
  readonly endPointId: string;
  readonly distanceM?: number;
}

/**
 * A triathlon, duathlon, aquathlon or swimrun (issue 31): legs in race order, each from the end
 * of the one before (the first from the runner's start) to its own mat; the last leg ends at the
 * finish. Categories (age groups, wetsuit / no wetsuit) are today's categories.
 */
export interface MultisportDefinition extends Pick<RaceDefinition, 'date' | 'categories' | 'ageBasis'> {
  readonly startMs: Millis;
  readonly waves?: readonly Wave[];
  readonly legs: readonly MultisportLeg[];
}

/** Ranks of one time in each ranking a result list shows. */
export interface ScopedRanks {
  readonly overall?: number;
  readonly gender?: number;
  readonly category?: number;
}

export interface MultisportRow {
  readonly index: number;
  readonly bib: Bib;
  readonly status: ResultStatus;
  readonly category?: CategoryDef;
  /** Per leg: the read that ended it. */
  readonly legEnds: readonly (ReadRef | undefined)[];
  /** Per leg: its time, when both of its ends were read. */
  readonly legTimesMs: readonly (number | undefined)[];
  readonly legRanks: readonly ScopedRanks[];
  /** Per leg: time from the start to the leg's end (the split). */
  readonly splitTimesMs: readonly (number | undefined)[];
  readonly splitRanks: readonly ScopedRanks[];
  readonly totalMs?: number;
  readonly ranks: ScopedRanks;
  /** Index of the leg the athlete is on (onCourse only). */
  readonly currentLeg?: number;
}

export interface MultisportResults {
  readonly rows: readonly MultisportRow[];
  /** Finishers, best first. */
  readonly order: readonly number[];
  readonly unmatched: readonly ReadRef[];
}

const isOut = (s: Participant['status']) => s === 'DNS' || s === 'DSQ';

/**
 * Ranks of `values` (smaller is better) overall, by gender and by category; entries whose
 * participant is DNS or DSQ, or whose value is missing, take no rank.
 */
export function scopedRanks(
  participants: readonly Participant[],
  categories: readonly number[],
  values: readonly (number | undefined)[],
): ScopedRanks[] {
  const tie = (i: number) => participants[i]!.bib;
  const eligible = values.map((v, i) => (isOut(participants[i]!.status) ? undefined : v));
  const overall = ranksOfTimes(eligible, tie).rank;
  const groupRank = (key: (i: number) => string | undefined) => {
    const groups = new Map<string, number[]>();
    eligible.forEach((v, i) => {
      const k = key(i);
      if (v === undefined || !Number.isFinite(v) || k === undefined) return;
      const g = groups.get(k);
      if (g) g.push(i);
      else groups.set(k, [i]);
    });
    const out = new Map<number, number>();
    for (const g of groups.values()) {
      for (const [i, r] of competitionRanks(g, (a, b) => eligible[a]! - eligible[b]!, tie).rank)
        out.set(i, r);
    }
    return out;
  };
  const gender = groupRank((i) => participants[i]!.gender);
  const category = groupRank((i) => (categories[i]! >= 0 ? String(categories[i]) : undefined));
  return values.map((_, i) => ({
    overall: overall.get(i),
    gender: gender.get(i),
    category: category.get(i),
  }));
}

/** Computes a multisport race: leg times and ranks, splits, overall ranks. Pure. */
export function computeMultisport(
  race: MultisportDefinition,
  participants: readonly Participant[],
  passings: readonly Passing[],
): MultisportResults {
  const book = bookReads(participants, passings);
  const waveStart = new Map((race.waves ?? []).map((w) => [w.id, w.startTime]));
  const categories = participants.map((p) => categoryIndexOf(race, p));
  const nLegs = race.legs.length;
  const base = participants.map((p, i) => {
    const start = p.startTime ?? (p.wave !== undefined ? waveStart.get(p.wave) : undefined) ?? race.startMs;
    const legEnds: (ReadRef | undefined)[] = [];
    let from = start;
    for (const leg of race.legs) {
      // Each mat's first read after the last known crossing: a runner walking back over an
      // earlier mat never moves its time.
      const r = firstReadFrom(book.byOwner[i]!.get(leg.endPointId), from, true);
      legEnds.push(r);
      if (r) from = r.timeMs;
    }
    const splitTimesMs = legEnds.map((r) => (r ? r.timeMs - start : undefined));
    const legTimesMs = legEnds.map((r, k) => {
      if (!r) return undefined;
      if (k === 0) return r.timeMs - start;
      const prev = legEnds[k - 1];
      return prev ? r.timeMs - prev.timeMs : undefined;
    });
    return { start, legEnds, splitTimesMs, legTimesMs };
  });
  const legRanksByLeg = race.legs.map((_, k) =>
    scopedRanks(
      participants,
      categories,
      base.map((b) => b.legTimesMs[k]),
    ),
  );
  const splitRanksByLeg = race.legs.map((_, k) =>
    scopedRanks(
      participants,
      categories,
      base.map((b) => b.splitTimesMs[k]),
    ),
  );
  const totals = base.map((b, i) =>
    participants[i]!.status === 'DNF' ? undefined : b.splitTimesMs[nLegs - 1],
  );
  const finalRanks = scopedRanks(participants, categories, totals);
  const order = ranksOfTimes(
    totals.map((t, i) => (isOut(participants[i]!.status) ? undefined : t)),
    (i) => participants[i]!.bib,
  ).order;
  const rows = participants.map((p, i): MultisportRow => {
    const b = base[i]!;
    const finished = b.legEnds[nLegs - 1] !== undefined;
    const anyRead = b.legEnds.some(Boolean);
    const status: ResultStatus =
      p.status !== 'registered' ? p.status : finished ? 'finished' : anyRead ? 'onCourse' : 'notStarted';
    let currentLeg: number | undefined;
    if (status === 'onCourse') {
      const lastDone = b.legEnds.findLastIndex(Boolean);
      currentLeg = Math.min(nLegs - 1, lastDone + 1);
    }
    const c = categories[i]!;
    return {
      index: i,
      bib: p.bib,
      status,
      category: c >= 0 ? race.categories[c] : undefined,
      legEnds: b.legEnds,
      legTimesMs: b.legTimesMs,
      legRanks: legRanksByLeg.map((r) => r[i]!),
      splitTimesMs: b.splitTimesMs,
      splitRanks: splitRanksByLeg.map((r) => r[i]!),
      totalMs: totals[i],
      ranks: finalRanks[i]!,
      currentLeg,
    };
  });
  return { rows, order, unmatched: book.unmatched };
}
