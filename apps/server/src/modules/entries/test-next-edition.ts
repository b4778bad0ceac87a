import type { FastifyInstance } from 'fastify';
import { createRace, insertContext } from '../results/port.ts';

// Apart from test-helpers.ts, which the browser journeys import too (pickup.spec.ts): this one
// reaches the server's modules.

/**
 * The demo event's next edition in organisation `organisationId` (public, a context of its own) with mass-start
 * races of a start and a finish, each `[id, name, distance in m]`, on `date`.
 */
export async function createNextEdition(
  database: FastifyInstance['database'],
  edition: {
    id: string;
    organisationId: string;
    name: string;
    date: string;
    races: readonly (readonly [string, string, number])[];
  },
) {
  await database.query(
    `INSERT INTO events (id, organisation_id, name, start_date, end_date, visibility) VALUES ($1, $2, $3, $4, $4, 'public')`,
    [edition.id, edition.organisationId, edition.name, edition.date],
  );
  await insertContext(database, { db: edition.id, eventId: edition.id, name: edition.name });
  await database.transaction(async (sql) => {
    for (const [id, name, distanceM] of edition.races)
      await createRace(sql, edition.id, {
        id,
        name,
        date: edition.date,
        distanceM,
        startType: 'mass',
        points: [
          { key: 'start', name: 'Start', distanceM: 0, isStart: true },
          { key: 'finish', name: 'Finish', distanceM },
        ],
      });
  });
}
