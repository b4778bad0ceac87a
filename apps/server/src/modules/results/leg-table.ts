import { type CutoffInput, type LegTable, type LegTableRow, raceFormatSchema } from '@tempora/contracts';
import {
  applyCutoffs,
  type Cutoff,
  type CutoffDecision,
  competitionRanks,
  computeMultisport,
  computeRelay,
  passingsOfResults,
  type RelayTeam,
} from '@tempora/domain';
import type { RaceLive } from './context-state.ts';

/**
 * A relay team's members as stored in the race's rules (`relayMembers`: bib → names by leg, set
 * in the console); malformed entries dropped.
 */
function membersOf(stored: unknown, bib: string): { leg: number; name: string }[] {
  const list = (stored as Record<string, unknown> | null | undefined)?.[bib];
  if (!Array.isArray(list)) return [];
  return list.flatMap((name, leg) =>
    typeof name === 'string' && name.trim() ? [{ leg, name: name.trim() }] : [],
  );
}

/** The desk's reinstatements as stored in the race's rules. */
export function overridesOf(stored: unknown): { bib: string; pointId: string }[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((o) =>
    o && typeof o.bib === 'string' && typeof o.pointKey === 'string'
      ? [{ bib: o.bib, pointId: o.pointKey }]
      : [],
  );
}

/**
 * Applies the race's cut-offs to a leg table (issue 31): an athlete (team) who missed one is DNF
 * or over time with the reason, out of the overall ranking (the others re-ranked: 1 + the number
 * of ranked totals strictly better); their leg times and leg ranks stay. A desk reinstatement
 * shows the decision without applying it. Returns the new ranked order.
 */
function withCutoffs(
  rows: LegTableRow[],
  order: readonly number[],
  cutoffs: readonly CutoffInput[],
  legs: readonly { pointKey: string }[],
  ends: readonly (number | undefined)[][],
  at: {
    startOf: (i: number) => number;
    gunMs: number;
    nowMs: number;
    overrides: { bib: string; pointId: string }[];
  },
): number[] {
  const points = legs.map((l) => l.pointKey);
  const defs: Cutoff[] = cutoffs.map((c) => ({
    pointId: c.pointKey,
    atMs: c.afterGunMinutes === undefined ? undefined : at.gunMs + c.afterGunMinutes * 60_000,
    elapsedMs: c.elapsedMinutes === undefined ? undefined : c.elapsedMinutes * 60_000,
    outcome: c.outcome,
  }));
  const runners = rows.map((row, i) => ({
    bib: row.bib,
    startMs: at.startOf(i),
    times: Object.fromEntries(points.map((p, k) => [p, ends[i]?.[k]])),
  }));
  const decided = new Map<string, CutoffDecision>();
  for (const d of applyCutoffs(defs, points, runners, at.nowMs, at.overrides)) {
    // The decision that applies (the last one: earlier ones were reinstated) or the last shown.
    decided.set(d.bib, d);
  }
  const out = new Set<number>();
  rows.forEach((row, i) => {
    const d = decided.get(row.bib);
    if (!d) return;
    if (row.status === 'DNS' || row.status === 'DSQ') return;
    row.cutoff = {
      pointKey: d.pointId,
      outcome: d.outcome,
      reason: d.reason,
      deadlineMs: d.deadlineMs,
      readMs: d.readMs ?? null,
      overridden: d.overridden,
    };
    if (d.overridden) return;
    row.status = d.outcome;
    row.rank = null;
    row.currentLeg = null;
    row.onCourse = [];
    out.add(i);
  });
  if (!out.size) return [...order];
  const kept = order.filter((i) => !out.has(i));
  const { order: ranked, rank } = competitionRanks(
    kept,
    (a, b) => (rows[a]!.totalMs ?? 0) - (rows[b]!.totalMs ?? 0),
    (i) => rows[i]!.bib,
  );
  for (const i of ranked) rows[i]!.rank = rank.get(i) ?? null;
  return ranked;
}

const cache = new WeakMap<RaceLive, { key: string; table: LegTable }>();

/**
 * The result list of a multisport race or a relay (issue 31): per athlete or team, each leg's
 * time and rank, the total and the overall rank, computed with the format engine from the race's
 * live reads (a relay team is a participant: its bib is read at every exchange). Null for other
 * formats. Cached until a read changes the results.
 */
export function legTable(race: RaceLive, nowMs: number): LegTable | null {
  const parsed = raceFormatSchema.safeParse(race.row.rules?.format);
  if (!parsed.success) return null;
  const f = parsed.data;
  if (f.kind !== 'multisport' && f.kind !== 'relay') return null;
  const state = race.results;
  const key = `${JSON.stringify(f)}|${JSON.stringify(race.row.rules?.cutoffOverrides ?? null)}|${JSON.stringify(race.row.rules?.relayMembers ?? null)}|${f.cutoffs?.length ? Math.floor(nowMs / 5000) : 0}|${state.stamp}|${state.passings.length}|${state.overlay.size}|${race.recent.at(-1)?.seq ?? 0}`;
  const held = cache.get(race);
  if (held?.key === key) return held.table;
  const { participants, race: definition } = state.index;
  const startMs = race.row.gunTimeMs ?? 0;
  const passings = passingsOfResults(state);
  const name = (i: number) => `${participants[i]!.firstName} ${participants[i]!.lastName}`.trim();
  let rows: LegTableRow[];
  let order: readonly number[];
  /** Per row, per leg: the time of the read that ended it (for the cut-offs). */
  let ends: (number | undefined)[][];
  if (f.kind === 'multisport') {
    const r = computeMultisport(
      {
        date: definition.date,
        categories: definition.categories,
        ageBasis: definition.ageBasis,
        startMs,
        waves: definition.waves,
        legs: f.legs.map((l) => ({
          id: l.pointKey,
          name: l.name.en,
          nameFr: l.name.fr,
          kind: l.kind,
          endPointId: l.pointKey,
        })),
      },
      participants,
      passings,
    );
    order = r.order;
    rows = r.rows.map((row) => ({
      rank: row.ranks.overall ?? null,
      bib: row.bib,
      name: name(row.index),
      status: row.status,
      totalMs: row.totalMs ?? null,
      legs: row.legTimesMs.map((t, k) => ({
        timeMs: t ?? null,
        rank: row.legRanks[k]!.overall ?? null,
        genderRank: row.legRanks[k]!.gender ?? null,
      })),
      currentLeg: row.currentLeg ?? null,
      members: [],
      onCourse: [],
      cutoff: null,
    }));
    ends = r.rows.map((row) => row.legEnds.map((e) => e?.timeMs));
  } else {
    const teams: RelayTeam[] = participants.map((p) => ({
      bib: p.bib,
      name: `${p.firstName} ${p.lastName}`.trim(),
      gender: p.gender,
      category: p.category,
      status: p.status,
      members: membersOf(race.row.rules?.relayMembers, p.bib),
    }));
    const r = computeRelay(
      {
        date: definition.date,
        categories: definition.categories,
        ageBasis: definition.ageBasis,
        startMs,
        legs: f.legs.map((l) => ({
          id: l.pointKey,
          name: l.name.en,
          nameFr: l.name.fr,
          endPointId: l.pointKey,
          massStartMs: l.massStartMinutes === undefined ? undefined : startMs + l.massStartMinutes * 60_000,
        })),
      },
      teams,
      passings,
      nowMs,
    );
    order = r.order;
    rows = r.rows.map((row) => ({
      rank: row.rank ?? null,
      bib: row.bib,
      name: name(row.index),
      status: row.status,
      totalMs: row.totalMs ?? null,
      legs: row.legs.map((l) => ({ timeMs: l.timeMs ?? null, rank: l.rank ?? null, genderRank: null })),
      currentLeg: row.onCourse?.leg ?? null,
      members: row.legs.map((l) => [...l.members]),
      onCourse: [...(row.onCourse?.members ?? [])],
      cutoff: null,
    }));
    ends = r.rows.map((row) => row.legs.map((l) => l.end?.timeMs));
  }
  if (f.cutoffs?.length)
    order = withCutoffs(rows, order, f.cutoffs, f.legs, ends, {
      startOf: (i) => state.index.scheduledStart[i] ?? startMs,
      gunMs: startMs,
      nowMs,
      overrides: overridesOf(race.row.rules?.cutoffOverrides),
    });
  const ranked = new Set(order);
  const table: LegTable = {
    raceId: race.row.id,
    name: race.row.name,
    format: f.kind,
    legs: f.legs.map((l) => ({ key: l.pointKey, name: l.name, kind: 'kind' in l ? l.kind : 'leg' })),
    rows: [...order, ...rows.map((_, i) => i).filter((i) => !ranked.has(i))].map((i) => rows[i]!),
  };
  cache.set(race, { key, table });
  return table;
}
