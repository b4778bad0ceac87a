import { categoryIndexOf } from '../results/categories.ts';
import type {
  Bib,
  CategoryDef,
  Gender,
  Participant,
  Passing,
  RaceDefinition,
  RegistrationStatus,
  ResultStatus,
} from '../results/types.ts';
import type { Millis } from '../time-format.ts';
import { competitionRanks, ranksOfTimes } from './ranking.ts';
import { bookReads, firstReadFrom, type ReadRef } from './reads.ts';

/** One leg of a relay, ending at its exchange mat (the last one at the finish). */
export interface RelayLeg {
  readonly id: string;
  readonly name: string;
  readonly nameFr?: string;
  readonly endPointId: string;
  /**
   * A mass start of this leg (absolute time): a team whose previous runner has not handed over
   * by then sends its runner off with it, and the leg is timed from it.
   */
  readonly massStartMs?: Millis;
  readonly distanceM?: number;
}

/** A relay (issue 31): a team of members, one (or a pair) per leg, timed leg by leg. */
export interface RelayDefinition extends Pick<RaceDefinition, 'date' | 'categories' | 'ageBasis'> {
  readonly startMs: Millis;
  readonly legs: readonly RelayLeg[];
}

export interface RelayMember {
  /** 0-based leg this member runs. */
  readonly leg: number;
  readonly name: string;
  readonly chips?: readonly string[];
}

/** A team: its bib is read at every exchange, or its members' chips are. */
export interface RelayTeam {
  readonly bib: Bib;
  readonly name: string;
  readonly gender: Gender;
  /** Explicit category id (a team's category is usually chosen, not computed). */
  readonly category?: string;
  readonly status: RegistrationStatus;
  readonly members: readonly RelayMember[];
  /** Desk decisions: a leg started on its own at this time (a late or missing handover). */
  readonly legStarts?: Readonly<Record<number, Millis>>;
}

export interface RelayLegResult {
  readonly startMs?: number;
  /** How the leg started: from the handover, with the leg's mass start, or set by the desk. */
  readonly startedBy?: 'handover' | 'massStart' | 'desk';
  readonly end?: ReadRef;
  readonly timeMs?: number;
  readonly rank?: number;
  readonly categoryRank?: number;
  readonly members: readonly string[];
}

export interface RelayRow {
  readonly index: number;
  readonly bib: Bib;
  readonly status: ResultStatus;
  readonly category?: CategoryDef;
  readonly legs: readonly RelayLegResult[];
  /** The team's time: the sum of its leg times (a mass-started leg counts from the mass start). */
  readonly totalMs?: number;
  readonly rank?: number;
  readonly categoryRank?: number;
  /** On course: the leg being run and who runs it. */
  readonly onCourse?: { readonly leg: number; readonly members: readonly string[] };
}

export interface RelayResults {
  readonly rows: readonly RelayRow[];
  readonly order: readonly number[];
  readonly unmatched: readonly ReadRef[];
}

const isOut = (s: RegistrationStatus) => s === 'DNS' || s === 'DSQ';

function asParticipant(t: RelayTeam): Participant {
  return {
    bib: t.bib,
    chips: t.members.flatMap((m) => m.chips ?? []),
    firstName: t.name,
    lastName: '',
    gender: t.gender,
    status: t.status,
    category: t.category,
  };
}

/** Computes a relay: leg starts, leg times and ranks, team time and rank, who is on course. Pure. */
export function computeRelay(
  race: RelayDefinition,
  teams: readonly RelayTeam[],
  passings: readonly Passing[],
  nowMs?: number,
): RelayResults {
  const asPeople = teams.map(asParticipant);
  const book = bookReads(asPeople, passings);
  const categories = asPeople.map((p) => categoryIndexOf(race, p));
  const base = teams.map((team, i) => {
    const legs: Omit<RelayLegResult, 'rank' | 'categoryRank'>[] = [];
    let prevEnd: number | undefined = race.startMs;
    race.legs.forEach((leg, k) => {
      let startMs: number | undefined;
      let startedBy: RelayLegResult['startedBy'];
      const desk = team.legStarts?.[k];
      if (desk !== undefined) {
        startMs = desk;
        startedBy = 'desk';
      } else if (prevEnd !== undefined && (leg.massStartMs === undefined || prevEnd <= leg.massStartMs)) {
        startMs = prevEnd;
        startedBy = 'handover';
      } else if (leg.massStartMs !== undefined) {
        startMs = leg.massStartMs;
        startedBy = 'massStart';
      }
      // The leg's end: the first read at its mat after it started. When exchanges share a mat,
      // also after the previous leg's own end there; on separate mats a mass-started runner may
      // well finish before their team-mates of the leg before (a fast last leg).
      const previous = k > 0 ? legs[k - 1]!.end : undefined;
      const sharedMat = previous !== undefined && race.legs[k - 1]!.endPointId === leg.endPointId;
      const after =
        startMs === undefined ? undefined : Math.max(startMs, sharedMat ? previous.timeMs : startMs);
      const end =
        after === undefined ? undefined : firstReadFrom(book.byOwner[i]!.get(leg.endPointId), after, true);
      legs.push({
        startMs,
        startedBy,
        end,
        timeMs: end && startMs !== undefined ? end.timeMs - startMs : undefined,
        members: team.members.filter((m) => m.leg === k).map((m) => m.name),
      });
      prevEnd = end?.timeMs;
    });
    const complete = legs.every((l) => l.timeMs !== undefined);
    const totalMs =
      complete && team.status !== 'DNF' ? legs.reduce((a, l) => a + (l.timeMs ?? 0), 0) : undefined;
    return { legs, totalMs };
  });
  const tie = (i: number) => teams[i]!.bib;
  const legRanks = race.legs.map((_, k) => {
    const values = base.map((b, i) => (isOut(teams[i]!.status) ? undefined : b.legs[k]!.timeMs));
    const overall = ranksOfTimes(values, tie).rank;
    const byCategory = new Map<number, number>();
    const groups = new Map<number, number[]>();
    values.forEach((v, i) => {
      if (v === undefined) return;
      const g = groups.get(categories[i]!);
      if (g) g.push(i);
      else groups.set(categories[i]!, [i]);
    });
    for (const g of groups.values())
      for (const [i, r] of competitionRanks(g, (a, b) => values[a]! - values[b]!, tie).rank)
        byCategory.set(i, r);
    return { overall, byCategory };
  });
  const totals = base.map((b, i) => (isOut(teams[i]!.status) ? undefined : b.totalMs));
  const { order, rank } = ranksOfTimes(totals, tie);
  const categoryRank = new Map<number, number>();
  const groups = new Map<number, number[]>();
  for (const i of order) {
    const g = groups.get(categories[i]!);
    if (g) g.push(i);
    else groups.set(categories[i]!, [i]);
  }
  for (const g of groups.values())
    for (const [i, r] of competitionRanks(g, (a, b) => totals[a]! - totals[b]!, tie).rank)
      categoryRank.set(i, r);
  const rows = teams.map((team, i): RelayRow => {
    const b = base[i]!;
    const legs = b.legs.map((l, k) => ({
      ...l,
      rank: legRanks[k]!.overall.get(i),
      categoryRank: legRanks[k]!.byCategory.get(i),
    }));
    const finished = legs.at(-1)?.end !== undefined;
    const running = legs.findIndex((l) => l.startMs !== undefined && l.end === undefined);
    const status: ResultStatus =
      team.status !== 'registered'
        ? team.status
        : finished
          ? 'finished'
          : legs.some((l) => l.end)
            ? 'onCourse'
            : nowMs !== undefined && nowMs >= race.startMs
              ? 'onCourse'
              : 'notStarted';
    const c = categories[i]!;
    return {
      index: i,
      bib: team.bib,
      status,
      category: c >= 0 ? race.categories[c] : undefined,
      legs,
      totalMs: b.totalMs,
      rank: rank.get(i),
      categoryRank: categoryRank.get(i),
      onCourse:
        status === 'onCourse' && running >= 0 ? { leg: running, members: legs[running]!.members } : undefined,
    };
  });
  return { rows, order, unmatched: book.unmatched };
}
