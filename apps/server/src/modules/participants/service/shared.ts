import type { Database, Sql } from '../../../db/database.ts';
import { errors } from '../../../errors.ts';
import type { RealtimePublisher } from '../../../realtime/adapters/types.ts';
import { insertParticipants, randomKey } from '../../results/port.ts';
import type { ImportedPerson } from '../mapping.ts';
import * as repo from '../repository.ts';

/**
 * What every part of the participants service shares (issue 30: the service split by
 * responsibility): its dependencies, a race of the event, and the storing of new runners with
 * their audit (an import's and a single runner's). Each part (`uploads.ts`, `imports.ts`,
 * `edits.ts`, `bulk.ts`, `chips.ts`) is a factory taking this context; `../service.ts`
 * composes them.
 */

/** Who acts, for the audit. */
export interface Actor {
  sub: string | null;
  email: string;
}

export interface ParticipantsDeps {
  database: Database;
  publisher: RealtimePublisher;
  /** The results module's reload command (`app.results.reload`). */
  reload: (db: string) => Promise<void>;
}

/** The parts' context: the dependencies, `race` (404 RACE_NOT_FOUND) and `store`. */
export function createContext(deps: ParticipantsDeps) {
  const { database, publisher, reload } = deps;

  /** A race of the event (404 RACE_NOT_FOUND otherwise). */
  async function race(eventId: string, raceId: string) {
    const races = await repo.racesOfEvent(database, eventId);
    const found = races.find((r) => r.id === raceId);
    if (!found) throw errors.notFound('RACE_NOT_FOUND', `No race '${raceId}' in this event`);
    return found;
  }

  /** Stores new runners of a race (each a fresh tracking key) and audits their creation. */
  async function store(
    sql: Sql,
    raceId: string,
    people: readonly ImportedPerson[],
    actor: Actor,
    action: 'create' | 'import',
  ) {
    const rows = people.map((p) => ({
      raceId,
      bib: p.bib,
      firstName: p.firstName,
      lastName: p.lastName,
      gender: p.gender,
      ...(p.age !== null ? { age: p.age } : {}),
      ...(p.birthDate ? { birthDate: p.birthDate } : {}),
      nationality: p.nationality,
      club: p.club,
      email: p.email,
      chips: p.chips,
      ...(p.wave ? { wave: p.wave } : {}),
      ...(p.category ? { category: p.category } : {}),
      status: 'registered' as const,
      trackingKey: randomKey(),
    }));
    await insertParticipants(sql, rows);
    await repo.auditImported(
      sql,
      rows.map((r) => r.trackingKey),
      action,
      actor,
    );
    return rows;
  }

  return { database, publisher, reload, race, store };
}

export type ParticipantsContext = ReturnType<typeof createContext>;
