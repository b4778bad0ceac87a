import type { Database } from '../db/database.ts';

/** Fixed ids so that concurrent starts on several nodes seed once (ON CONFLICT DO NOTHING). */
export const DEMO_ORG_ID = '00000000-0000-4000-8000-000000000001';
export const DEMO_EVENT_ID = 'demo-city-run';

/**
 * Seeds demo content when the database has no event at all, so a newcomer's first start shows a
 * real-looking site. Returns whether it seeded.
 */
export async function seedDemo(database: Database, today = new Date()): Promise<boolean> {
  return database.transaction(async (sql) => {
    const [{ count } = { count: 0 }] = await sql.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM events',
    );
    if (count > 0) return false;
    const day = today.toISOString().slice(0, 10);
    await sql.query(
      `INSERT INTO organisations (id, slug, name) VALUES ($1, 'demo', 'Tempora Demo Timing') ON CONFLICT DO NOTHING`,
      [DEMO_ORG_ID],
    );
    const inserted = await sql.query(
      `INSERT INTO events (id, organisation_id, name, place, start_date, end_date, status)
       VALUES ($1, $2, 'Demo City Run', 'Bruxelles / Brussels', $3, $3, 'live') ON CONFLICT DO NOTHING RETURNING id`,
      [DEMO_EVENT_ID, DEMO_ORG_ID, day],
    );
    return inserted.length > 0;
  });
}
