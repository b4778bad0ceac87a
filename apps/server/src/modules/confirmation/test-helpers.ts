import type { FastifyInstance } from 'fastify';
import { createRace } from '../results/port.ts';

/** The demo organisation seeded in every test app. */
export const DEMO_ORG = '00000000-0000-4000-8000-000000000001';

/**
 * An event of the demo organisation with one context and two races (a 5 km for adults with age
 * categories and a kids' run for pupils), for confirmation tests, the e2e journey and the bench.
 */
export async function createSchoolEvent(app: FastifyInstance, eventId: string, raceDate = '2026-06-14') {
  const db = `${eventId}-ctx`;
  await app.database.query(
    `INSERT INTO events (id, organisation_id, name, start_date, end_date) VALUES ($1, $2, $3, $4, $4)`,
    [eventId, DEMO_ORG, `School Run ${eventId}`, raceDate],
  );
  await app.database.query('INSERT INTO contexts (db, event_id, name) VALUES ($1, $2, $3)', [
    db,
    eventId,
    'Main',
  ]);
  await createRace(app.database, db, {
    id: `${eventId}-kids`,
    name: 'Kids 2 km',
    date: raceDate,
    distanceM: 2000,
    startType: 'mass',
    categories: [
      { id: 'U10', name: 'Under 10', minAge: 6, maxAge: 9 },
      { id: 'U14', name: 'Under 14', minAge: 10, maxAge: 13 },
    ],
    points: [{ key: 'finish', name: 'Finish', distanceM: 2000 }],
  });
  await createRace(
    app.database,
    db,
    {
      id: `${eventId}-5k`,
      name: '5 km',
      date: raceDate,
      distanceM: 5000,
      startType: 'mass',
      categories: [{ id: 'SEN', name: 'Seniors', minAge: 18 }],
      points: [{ key: 'finish', name: 'Finish', distanceM: 5000 }],
    },
    1,
  );
  return { db, kids: `${eventId}-kids`, fiveK: `${eventId}-5k` };
}
