import type { EventBranding, EventDetail, EventPatch, EventSummary } from '@tempora/contracts';
import type { Sql } from '../../../db/database.ts';

const COLUMNS = `e.id, e.organisation_id AS "organisationId", e.name, e.place,
  to_char(e.start_date, 'YYYY-MM-DD') AS "startDate", to_char(e.end_date, 'YYYY-MM-DD') AS "endDate",
  e.status, e.branding,
  COALESCE('/api/events/' || e.id || '/logo?v=' || e.logo_version, e.branding->>'logoUrl') AS "logoUrl"`;

/** Filters of the events list. */
export interface EventFilter {
  q?: string | undefined;
  when?: 'live' | 'upcoming' | 'past' | undefined;
}

/**
 * Events matching `q` in name, place or ISO start date; "live" is the status live, "past"
 * finished or ended before today, "upcoming" the rest. Live first, then newest.
 */
export async function listEvents(sql: Sql, { q, when }: EventFilter): Promise<EventSummary[]> {
  // Draft events (issue 14) are the organisers' own, seen in the console only.
  const where: string[] = [`e.visibility = 'public'`];
  const params: unknown[] = [];
  if (q) {
    params.push(`%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const p = `$${params.length}`;
    where.push(
      `(lower(e.name) LIKE ${p} OR lower(e.place) LIKE ${p} OR to_char(e.start_date, 'YYYY-MM-DD') LIKE ${p})`,
    );
  }
  if (when === 'live') where.push(`e.status = 'live'`);
  if (when === 'past') where.push(`(e.status = 'finished' OR e.end_date < current_date)`);
  if (when === 'upcoming') where.push(`e.status = 'upcoming' AND e.end_date >= current_date`);
  return sql.query<EventSummary>(
    `SELECT ${COLUMNS} FROM events e ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY (e.status = 'live') DESC, e.start_date DESC, e.id LIMIT 200`,
    params,
  );
}

async function tableExists(sql: Sql, name: string): Promise<boolean> {
  const [row] = await sql.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [name]);
  return row?.found ?? false;
}

/** The series (challenges) of the event's organisation, linked from its pages (issue 19). */
async function seriesOf(sql: Sql, organisationId: string): Promise<{ id: string; name: string }[]> {
  if (!(await tableExists(sql, 'series'))) return [];
  return sql.query<{ id: string; name: string }>(
    'SELECT id, name FROM series WHERE organisation_id = $1 ORDER BY created_at, id',
    [organisationId],
  );
}

/** One event with its contexts and races (empty when the results tables do not exist). */
export async function findEvent(sql: Sql, id: string): Promise<EventDetail | null> {
  const [found] = await sql.query<EventSummary>(`SELECT ${COLUMNS} FROM events e WHERE e.id = $1`, [id]);
  if (!found) return null;
  const event = { ...found, series: await seriesOf(sql, found.organisationId) };
  const hasResults = (await tableExists(sql, 'contexts')) && (await tableExists(sql, 'races'));
  if (!hasResults) return { ...event, contexts: [], races: [] };
  const contexts = await sql.query<{ db: string; name: string }>(
    'SELECT db, name FROM contexts WHERE event_id = $1 ORDER BY created_at, db',
    [id],
  );
  const races = await sql.query<EventDetail['races'][number]>(
    `SELECT r.id, r.db, r.name, r.distance_m AS "distanceM", r.start_type AS "startType"
       FROM races r JOIN contexts c ON c.db = r.db WHERE c.event_id = $1 ORDER BY r.position, r.id`,
    [id],
  );
  return { ...event, contexts, races };
}

/** Applies a validated patch (branding replaced as a whole). */
export async function updateEvent(sql: Sql, id: string, patch: EventPatch): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [];
  const set = (column: string, value: unknown, cast = '') => {
    params.push(value);
    sets.push(`${column} = $${params.length}${cast}`);
  };
  if (patch.name !== undefined) set('name', patch.name);
  if (patch.place !== undefined) set('place', patch.place);
  if (patch.startDate !== undefined) set('start_date', patch.startDate, '::date');
  if (patch.endDate !== undefined) set('end_date', patch.endDate, '::date');
  if (patch.status !== undefined) set('status', patch.status);
  if (patch.branding !== undefined)
    set('branding', JSON.stringify(patch.branding satisfies EventBranding), '::jsonb');
  if (!sets.length) return;
  params.push(id);
  await sql.query(`UPDATE events SET ${sets.join(', ')} WHERE id = $${params.length}`, params);
}
