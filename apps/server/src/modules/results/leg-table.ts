import { raceFormatSchema } from '@tempora/contracts';
import { computeMultisport, computeRelay, passingsOfResults, type RelayTeam } from '@tempora/domain';
import type { RaceLive } from './context-state.ts';

/** One leg's cell: its time and rank (overall; gender for multisport). */
export interface LegCell {
  timeMs: number | null;
  rank: number | null;
  genderRank: number | null;
}

export interface LegTableRow {
  rank: number | null;
  bib: string;
  name: string;
  status: string;
  totalMs: number | null;
  legs: LegCell[];
  /** The leg being done (on course only). */
  currentLeg: number | null;
}

export interface LegTable {
  raceId: string;
  name: string;
  format: 'multisport' | 'relay';
  legs: { key: string; name: { en: string; fr: string }; kind: 'discipline' | 'transition' | 'leg' }[];
  rows: LegTableRow[];
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
  const key = `${JSON.stringify(f)}|${state.stamp}|${state.passings.length}|${state.overlay.size}|${race.recent.at(-1)?.seq ?? 0}`;
  const held = cache.get(race);
  if (held?.key === key) return held.table;
  const { participants, race: definition } = state.index;
  const startMs = race.row.gunTimeMs ?? 0;
  const passings = passingsOfResults(state);
  const name = (i: number) => `${participants[i]!.firstName} ${participants[i]!.lastName}`.trim();
  let rows: LegTableRow[];
  let order: readonly number[];
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
    }));
  } else {
    const teams: RelayTeam[] = participants.map((p) => ({
      bib: p.bib,
      name: `${p.firstName} ${p.lastName}`.trim(),
      gender: p.gender,
      category: p.category,
      status: p.status,
      members: [],
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
    }));
  }
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
