import type { ConsoleContext, ConsoleEvent, ConsoleRaceSummary, EventUpdate } from '@tempora/contracts';
import { foldText } from '@tempora/domain';
import type { Sql } from '../../../db/database.ts';

interface EventRow extends Omit<ConsoleEvent, 'accentColor' | 'tagline' | 'logoUrl'> {
  branding: { color?: string; tagline?: string } & Record<string, unknown>;
  logoVersion: string | null;
}

const COLUMNS = `e.id, e.organisation_id AS "organisationId", e.name, to_char(e.start_date, 'YYYY-MM-DD') AS "startDate",
  to_char(e.end_date, 'YYYY-MM-DD') AS "endDate", e.place, e.place_lat AS "placeLat", e.place_lon AS "placeLon",
  e.time_zone AS "timeZone", e.visibility, e.status, e.branding, e.logo_version AS "logoVersion",
  (SELECT count(*)::int FROM passings p JOIN contexts c ON c.db = p.db WHERE c.event_id = e.id) AS passings`;

function toEvent(row: EventRow): ConsoleEvent {
  const { branding, logoVersion, ...rest } = row;
  return {
    ...rest,
    accentColor: typeof branding.color === 'string' ? branding.color : null,
    tagline: typeof branding.tagline === 'string' ? branding.tagline : '',
    logoUrl: logoVersion ? `/api/events/${encodeURIComponent(row.id)}/logo?v=${logoVersion}` : null,
  };
}

export async function eventsOfOrganisation(sql: Sql, organisationId: string): Promise<ConsoleEvent[]> {
  const rows = await sql.query<EventRow>(
    `SELECT ${COLUMNS} FROM events e WHERE e.organisation_id = $1 ORDER BY e.start_date DESC, e.id`,
    [organisationId],
  );
  return rows.map(toEvent);
}

export async function eventById(sql: Sql, id: string): Promise<ConsoleEvent | null> {
  const [row] = await sql.query<EventRow>(`SELECT ${COLUMNS} FROM events e WHERE e.id = $1`, [id]);
  return row ? toEvent(row) : null;
}

export async function contextsOf(sql: Sql, eventId: string): Promise<ConsoleContext[]> {
  return sql.query<ConsoleContext>(
    `SELECT c.db, c.name, (SELECT count(*)::int FROM races r WHERE r.db = c.db) AS races
       FROM contexts c WHERE c.event_id = $1 ORDER BY c.created_at, c.db`,
    [eventId],
  );
}

export async function racesOfEvent(sql: Sql, eventId: string): Promise<ConsoleRaceSummary[]> {
  return sql.query<ConsoleRaceSummary>(
    `SELECT r.id, r.db, r.name, to_char(r.race_date, 'YYYY-MM-DD') AS date, r.distance_m AS "distanceM",
            r.start_type AS "startType", (SELECT count(*)::int FROM participants p WHERE p.race_id = r.id) AS participants
       FROM races r JOIN contexts c ON c.db = r.db WHERE c.event_id = $1 ORDER BY r.position, r.id`,
    [eventId],
  );
}

/**
 * A free event id from a name and year (`city-run-2026`, then `-2` …); a name that already says
 * its year does not get it twice (issue 29: `marathon-2027-2027`).
 */
export async function freeEventId(sql: Sql, name: string, startDate: string): Promise<string> {
  const year = startDate.slice(0, 4);
  const slug = foldText(name.normalize('NFKC'))
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50);
  const base = (slug.split('-').includes(year) ? slug : `${slug}-${year}`).replace(/^-/, 'event-');
  const taken = new Set(
    (
      await sql.query<{ id: string }>('SELECT id FROM events WHERE id = $1 OR id LIKE $2', [
        base,
        `${base}-%`,
      ])
    ).map((r) => r.id),
  );
  if (!taken.has(base)) return base;
  for (let k = 2; ; k++) if (!taken.has(`${base}-${k}`)) return `${base}-${k}`;
}

export interface EventInsert {
  id: string;
  organisationId: string;
  name: string;
  startDate: string;
  endDate: string;
  place: string;
  placeLat: number | null;
  placeLon: number | null;
  timeZone: string;
  visibility: string;
  status: string;
  branding: Record<string, unknown>;
}

export async function insertEvent(sql: Sql, e: EventInsert): Promise<void> {
  await sql.query(
    `INSERT INTO events (id, organisation_id, name, start_date, end_date, place, place_lat, place_lon, time_zone,
                         visibility, status, branding)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb)`,
    [
      e.id,
      e.organisationId,
      e.name,
      e.startDate,
      e.endDate,
      e.place,
      e.placeLat,
      e.placeLon,
      e.timeZone,
      e.visibility,
      e.status,
      JSON.stringify(e.branding),
    ],
  );
}

/** Applies a validated update; branding keys other than colour and tagline are kept. */
export async function updateEvent(sql: Sql, id: string, patch: EventUpdate): Promise<void> {
  const sets: string[] = ['updated_at = now()'];
  const params: unknown[] = [id];
  const set = (column: string, value: unknown, cast = '') => {
    params.push(value);
    sets.push(`${column} = $${params.length}${cast}`);
  };
  if (patch.name !== undefined) set('name', patch.name);
  if (patch.startDate !== undefined) set('start_date', patch.startDate, '::date');
  if (patch.endDate !== undefined) set('end_date', patch.endDate, '::date');
  if (patch.place !== undefined) set('place', patch.place);
  if (patch.placeLat !== undefined) set('place_lat', patch.placeLat);
  if (patch.placeLon !== undefined) set('place_lon', patch.placeLon);
  if (patch.timeZone !== undefined) set('time_zone', patch.timeZone);
  if (patch.visibility !== undefined) set('visibility', patch.visibility);
  if (patch.status !== undefined) set('status', patch.status);
  let branding = 'branding';
  if (patch.accentColor !== undefined) {
    params.push(patch.accentColor);
    const p = `$${params.length}::text`;
    branding = `CASE WHEN ${p} IS NULL THEN ${branding} - 'color' ELSE ${branding} || jsonb_build_object('color', ${p}) END`;
  }
  if (patch.tagline !== undefined) {
    params.push(patch.tagline);
    const p = `$${params.length}::text`;
    branding = `CASE WHEN ${p} = '' THEN (${branding}) - 'tagline' ELSE (${branding}) || jsonb_build_object('tagline', ${p}) END`;
  }
  if (branding !== 'branding') sets.push(`branding = ${branding}`);
  await sql.query(`UPDATE events SET ${sets.join(', ')} WHERE id = $1`, params);
}

/** Tables an event's delete removes itself (with its contexts): they never hold it. */
const DELETED_WITH_EVENT = new Set(['contexts', 'races', 'devices', 'reports', 'report_groups']);

/**
 * What still holds an event (issue 41: a delete answered 500 on a confirmation document's foreign
 * key): rows of every table whose foreign key to the event, one of its contexts or one of its
 * races neither cascades nor clears itself, read from the catalogue so a table added later is
 * counted too. `[{ table, rows }]`, largest first.
 */
export async function eventHolders(sql: Sql, eventId: string): Promise<{ table: string; rows: number }[]> {
  const keys = await sql.query<{ db: string; race: string | null }>(
    'SELECT c.db, r.id AS race FROM contexts c LEFT JOIN races r ON r.db = c.db WHERE c.event_id = $1',
    [eventId],
  );
  const values: Record<string, string[]> = {
    events: [eventId],
    contexts: [...new Set(keys.map((k) => k.db))],
    races: keys.flatMap((k) => (k.race ? [k.race] : [])),
  };
  const foreignKeys = await sql.query<{ table: string; column: string; parent: string }>(
    `SELECT c.conrelid::regclass::text AS "table", a.attname AS "column", c.confrelid::regclass::text AS parent
       FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
      WHERE c.contype = 'f' AND c.confdeltype IN ('a', 'r')
        AND c.confrelid IN ('events'::regclass, 'contexts'::regclass, 'races'::regclass)`,
  );
  const counts = new Map<string, number>();
  for (const fk of foreignKeys) {
    const of = values[fk.parent] ?? [];
    if (DELETED_WITH_EVENT.has(fk.table) || !of.length) continue;
    const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
    const [row] = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${quote(fk.table)} WHERE ${quote(fk.column)}::text = ANY($1::text[])`,
      [of],
    );
    if (row!.n) counts.set(fk.table, Math.max(counts.get(fk.table) ?? 0, row!.n));
  }
  return [...counts].map(([table, rows]) => ({ table, rows })).sort((a, b) => b.rows - a.rows);
}
