import type { Database } from '../../db/database.ts';
import { addParticipants, createRace, insertContext, insertPassings } from '../results/port.ts';

/** One runner's two races (issue 40's journey): an older one with an e-mail, a newer one without. */
export interface RunnerWorld {
  older: { eventId: string; db: string; raceId: string; orgId: string };
  newer: { eventId: string; db: string; raceId: string; orgId: string };
}

const GUN_2024 = Date.parse('2024-05-26T08:00:00Z');
const GUN_2025 = Date.parse('2025-05-25T08:00:00Z');

/**
 * Two organisations, each with a finished 10 km: Jeanne Dupré (born 1990) ran both, with
 * `jeanne.entry@example.org` in the older entry and no e-mail in the newer one, among a few other
 * runners (ranks to keep). Reads: start at the gun, 5 km and finish.
 */
export async function createRunnerWorld(database: Database, prefix = 'rw'): Promise<RunnerWorld> {
  const world: RunnerWorld = {
    older: { eventId: `${prefix}-2024`, db: `${prefix}-2024-10k`, raceId: `${prefix}-10k-2024`, orgId: '' },
    newer: { eventId: `${prefix}-2025`, db: `${prefix}-2025-10k`, raceId: `${prefix}-10k-2025`, orgId: '' },
  };
  let n = 0;
  for (const [part, gun, email, minutes] of [
    [world.older, GUN_2024, 'jeanne.entry@example.org', 52],
    [world.newer, GUN_2025, '', 49],
  ] as const) {
    n++;
    const [org] = await database.query<{ id: string }>(
      `INSERT INTO organisations (slug, name) VALUES ($1, $2) RETURNING id`,
      [`${prefix}-org-${n}`, n === 1 ? 'Les Foulées' : 'Run Club'],
    );
    part.orgId = org!.id;
    const date = new Date(gun).toISOString().slice(0, 10);
    await database.query(
      `INSERT INTO events (id, organisation_id, name, start_date, end_date, status)
       VALUES ($1, $2, $3, $4, $4, 'finished')`,
      [part.eventId, part.orgId, n === 1 ? 'Foulées 2024' : 'City 10K 2025', date],
    );
    await insertContext(database, { db: part.db, eventId: part.eventId, name: '10 km' });
    await database.transaction(async (sql) => {
      await createRace(sql, part.db, {
        id: part.raceId,
        name: '10 km',
        date,
        distanceM: 10_000,
        startType: 'mass',
        gunTimeMs: gun,
        points: [
          { key: 'start', name: 'Start', distanceM: 0, isStart: true },
          { key: '5k', name: '5 km', distanceM: 5_000 },
          { key: 'finish', name: 'Finish', nameFr: 'Arrivée', distanceM: 10_000 },
        ],
      });
      await addParticipants(sql, part.raceId, [
        {
          bib: '1',
          firstName: 'Jeanne',
          lastName: 'Dupré',
          gender: 'F',
          birthDate: '1990-04-02',
          status: 'registered',
        },
        { bib: '2', firstName: 'Marc', lastName: 'Lenoir', gender: 'M', age: 40, status: 'registered' },
        { bib: '3', firstName: 'Anne', lastName: 'Roy', gender: 'F', age: 30, status: 'registered' },
      ]);
      if (email)
        await sql.query(`UPDATE participants SET email = $1 WHERE race_id = $2 AND bib = '1'`, [
          email,
          part.raceId,
        ]);
      const reads = [
        ['1', minutes],
        ['2', 45],
        ['3', 58],
      ] as const;
      await insertPassings(
        sql,
        part.db,
        reads.flatMap(([bib, m]) => [
          { id: `${bib}-start`, bib, pointId: 'start', timeMs: gun, source: 'decoder' as const },
          { id: `${bib}-5k`, bib, pointId: '5k', timeMs: gun + (m * 60_000) / 2, source: 'decoder' as const },
          {
            id: `${bib}-finish`,
            bib,
            pointId: 'finish',
            timeMs: gun + m * 60_000,
            source: 'decoder' as const,
          },
        ]),
      );
    });
  }
  return world;
}
