import type { Database } from '../../../db/database.ts';
import { errors } from '../../../errors.ts';
import type { ContextState, IncomingPassing, ParticipantRow, Results } from '../../results/port.ts';
import * as results from '../../results/port.ts';
import * as desk from '../desk-repository.ts';

/**
 * What every part of the race-day service shares (issue 30: the service split by
 * responsibility): its dependencies, the reload after a change of participants or races, who a
 * bib or chip is, and the lookups of a read or race that corrections start from. Each part
 * (`ingest.ts`, `reads.ts`, `runners.ts`, `starts.ts`, `undo.ts`) is a factory taking this core;
 * `../service.ts` composes them and states the service's decisions.
 */

export type RunnerStatus = 'registered' | 'DNS' | 'DNF' | 'DSQ';

/** Races whose epoch a change bumped, and how it changed their participants (a copy, never in place). */
export interface ParticipantsChange {
  raceIds: string[];
  edit?: (p: ParticipantRow) => ParticipantRow | undefined;
}

/** A participant with a changed field (an absent optional field stays absent). */
export function withField<K extends keyof ParticipantRow>(
  p: ParticipantRow,
  key: K,
  value: ParticipantRow[K] | null,
): ParticipantRow {
  const copy = { ...p };
  if (value === null || value === undefined) delete copy[key];
  else copy[key] = value;
  return copy;
}

export interface RacedayDeps {
  database: Database;
  results: Results;
}

/** The parts' core: the dependencies and the lookups and reload they share. */
export function createCore(deps: RacedayDeps) {
  const { database } = deps;
  const svc = deps.results;
  /** The results module's one reload command (issue 26). */
  const reloads = svc;

  /** Rebuilds a context's live state and tells every open table and card to reload (one command). */
  async function refresh(db: string, bibs: string[], change?: ParticipantsChange) {
    const old = await svc.state(db);
    const preset = change ? await presetParticipants(db, old, change) : undefined;
    await reloads.reload(db, { bibs, ...(preset ? { participants: preset } : {}) });
  }

  /**
   * The context's participants as now stored, from the live state and this change, so the
   * rebuild skips reading them — only when nobody else changed them meanwhile: every race's
   * epoch is the state's, plus one for each race this change bumped. Otherwise undefined (read).
   */
  async function presetParticipants(db: string, old: ContextState, change: ParticipantsChange) {
    const epochs = await database.query<{ id: string; epoch: number }>(
      'SELECT id, epoch FROM races WHERE db = $1',
      [db],
    );
    const bumped = new Set(change.raceIds);
    const consistent =
      epochs.length === old.races.size &&
      epochs.every((r) => {
        const live = old.races.get(r.id);
        return live !== undefined && r.epoch === live.row.epoch + (bumped.has(r.id) ? 1 : 0);
      });
    if (!consistent) return undefined;
    const out: ParticipantRow[] = [];
    for (const race of old.races.values()) for (const p of race.participants) out.push(change.edit?.(p) ?? p);
    return out;
  }

  /** Who a bib or chip is in the live state. */
  async function runner(db: string, p: { bib?: string | null; chip?: string | null }) {
    const ctx = await svc.state(db);
    const race = ctx.raceOf({ ...(p.bib ? { bib: p.bib } : {}), ...(p.chip ? { chip: p.chip } : {}) });
    if (!race) return null;
    const i = p.chip ? race.byChip.get(p.chip) : race.byBib.get(p.bib ?? '');
    if (i === undefined) return null;
    const person = race.participants[i]!;
    return {
      raceId: race.row.id,
      bib: person.bib,
      name: `${person.firstName} ${person.lastName}`,
      status: person.status as RunnerStatus,
    };
  }

  async function requireRead(db: string, passingId: string) {
    const read = await desk.findRead(database, db, passingId);
    if (!read) throw errors.notFound('PASSING_NOT_FOUND', `No read '${passingId}' in '${db}'`);
    return read;
  }

  const asIncoming = (r: desk.DeskReadRow, over: Partial<IncomingPassing> = {}): IncomingPassing => ({
    id: r.id,
    ...(r.bib ? { bib: r.bib } : {}),
    ...(r.chip ? { chip: r.chip } : {}),
    pointKey: r.pointKey,
    timeMs: r.timeMs,
    ...over,
  });

  const publishCorrection = (db: string, bibs: (string | null)[]) => reloads.correction(db, bibs);

  async function requireRaceOf(db: string, raceId: string) {
    const race = (await results.racesOf(database, db)).find((r) => r.id === raceId);
    if (!race) throw errors.notFound('RACE_NOT_FOUND', `No race '${raceId}' in '${db}'`);
    return race;
  }

  return { database, svc, refresh, runner, requireRead, asIncoming, publishCorrection, requireRaceOf };
}

export type RacedayCore = ReturnType<typeof createCore>;
