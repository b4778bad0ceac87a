import type { EventBranding, EventDetail, EventPatch, EventSummary } from '@tempora/contracts';
import { HIDDEN_RUNNER_NAME } from '@tempora/contracts';
import { foldText, publicationStatus } from '@tempora/domain';
import type { Sql } from '../../../db/database.ts';
import { correctionsOf } from '../../results/port.ts';

const COLUMNS = `e.id, e.organisation_id AS "organisationId", e.name, e.place,
  to_char(e.start_date, 'YYYY-MM-DD') AS "startDate", to_char(e.end_date, 'YYYY-MM-DD') AS "endDate",
  e.status, e.branding,
  COALESCE('/api/events/' || e.id || '/logo?v=' || e.logo_version, e.branding->>'logoUrl') AS "logoUrl"`;

/** Filters of the events list. */
export interface EventFilter {
  q?: string | undefined;
  when?: 'live' | 'upcoming' | 'past' | undefined;
}

const LIMIT = 200;

/**
 * Events matching `q` in name, place, ISO start date or the names of their races and contexts
 * (issue 27: "marathon" finds the events running one), every word of it, accent-blind through
 * the domain's `foldText` (one fold for every search); "live" is the status live, "past"
 * finished or ended before today, "upcoming" the rest. Live first, then newest.
 */
export async function listEvents(sql: Sql, { q, when }: EventFilter): Promise<EventSummary[]> {
  // Draft events (issue 14) are the organisers' own, seen in the console only.
  const where: string[] = [`e.visibility = 'public'`];
  if (when === 'live') where.push(`e.status = 'live'`);
  if (when === 'past') where.push(`(e.status = 'finished' OR e.end_date < current_date)`);
  if (when === 'upcoming') where.push(`e.status = 'upcoming' AND e.end_date >= current_date`);
  const words = foldText(q ?? '')
    .split(/\s+/)
    .filter(Boolean);
  const races =
    words.length && (await tableExists(sql, 'contexts')) && (await tableExists(sql, 'races'))
      ? `, (SELECT string_agg(c.name || ' ' || coalesce(r.name, ''), ' ') FROM contexts c
           LEFT JOIN races r ON r.db = c.db WHERE c.event_id = e.id) AS "raceNames"`
      : `, '' AS "raceNames"`;
  const rows = await sql.query<EventSummary & { raceNames: string | null }>(
    `SELECT ${COLUMNS}${races} FROM events e WHERE ${where.join(' AND ')}
     ORDER BY (e.status = 'live') DESC, e.start_date DESC, e.id ${words.length ? '' : `LIMIT ${LIMIT}`}`,
  );
  const matching = rows.filter((e) => {
    const text = foldText(`${e.name} ${e.place ?? ''} ${e.startDate} ${e.raceNames ?? ''}`);
    return words.every((w) => text.includes(w));
  });
  return matching.slice(0, LIMIT).map(({ raceNames: _, ...event }) => event);
}

/**
 * The tables found per connection (issue 41): a table, once there, stays (migrations only add), so
 * an event's page no longer asks the catalogue seven times per read — a fifth of its queries' time,
 * and after a restart each was a first read of the catalogue before a spectator's first rows.
 */
const foundTables = new WeakMap<Sql, Set<string>>();

async function tableExists(sql: Sql, name: string): Promise<boolean> {
  const known = foundTables.get(sql);
  if (known?.has(name)) return true;
  const [row] = await sql.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [name]);
  if (!row?.found) return false;
  if (known) known.add(name);
  else foundTables.set(sql, new Set([name]));
  return true;
}

/** The series (challenges) of the event's organisation, linked from its pages (issue 19). */
async function seriesOf(sql: Sql, organisationId: string): Promise<{ id: string; name: string }[]> {
  if (!(await tableExists(sql, 'series'))) return [];
  return sql.query<{ id: string; name: string }>(
    'SELECT id, name FROM series WHERE organisation_id = $1 ORDER BY created_at, id',
    [organisationId],
  );
}

/** What each of the event page's tiles needs to exist (issue 27), in its table. */
const AVAILABLE = {
  photos: ['photos', 'SELECT 1 FROM photos WHERE event_id = $1'],
  stream: ['streams', 'SELECT 1 FROM streams WHERE event_id = $1'],
  map: [
    'timing_points',
    `SELECT 1 FROM races r JOIN contexts c ON c.db = r.db LEFT JOIN timing_points p ON p.race_id = r.id
      WHERE c.event_id = $1 AND (r.course IS NOT NULL OR p.lat IS NOT NULL)`,
  ],
  info: ['cms_pages', 'SELECT 1 FROM cms_pages WHERE event_id = $1 AND published'],
  groupEntry: [
    'deposit_settings',
    'SELECT 1 FROM deposit_settings WHERE event_id = $1 AND open AND (entry_deadline IS NULL OR entry_deadline > now())',
  ],
} as const satisfies Record<keyof NonNullable<EventDetail['available']>, readonly [string, string]>;

/**
 * What is behind the event page's tiles (issue 27: a tile only where something is behind it), in
 * one statement (issue 41: five, one after the other, were most of an event's read), a tile whose
 * table does not exist (a module not installed) being false.
 */
async function availableOf(sql: Sql, id: string): Promise<NonNullable<EventDetail['available']>> {
  const keys = Object.keys(AVAILABLE) as (keyof typeof AVAILABLE)[];
  const present = new Set<string>();
  for (const key of keys) if (await tableExists(sql, AVAILABLE[key][0])) present.add(key);
  if (!present.size) return { photos: false, stream: false, map: false, info: false, groupEntry: false };
  const columns = keys.map((key) =>
    present.has(key) ? `EXISTS (${AVAILABLE[key][1]}) AS "${key}"` : `false AS "${key}"`,
  );
  const [row] = await sql.query<NonNullable<EventDetail['available']>>(`SELECT ${columns.join(', ')}`, [id]);
  return Object.fromEntries(keys.map((key) => [key, row?.[key] === true])) as NonNullable<
    EventDetail['available']
  >;
}

/** One event with its contexts and races (empty when the results tables do not exist). */
export async function findEvent(sql: Sql, id: string): Promise<EventDetail | null> {
  const [found] = await sql.query<EventSummary & { timeZone: string; draft: boolean }>(
    `SELECT ${COLUMNS}, e.time_zone AS "timeZone", e.visibility = 'draft' AS draft FROM events e WHERE e.id = $1`,
    [id],
  );
  if (!found) return null;
  // Only organisers read a draft (enforceDraftVisibility answers 404 to anyone else): their preview.
  const { draft, ...rest } = found;
  const event = {
    ...rest,
    ...(draft ? { draft: true as const } : {}),
    series: await seriesOf(sql, found.organisationId),
    available: await availableOf(sql, id),
  };
  const hasResults = (await tableExists(sql, 'contexts')) && (await tableExists(sql, 'races'));
  if (!hasResults) return { ...event, contexts: [], races: [] };
  const contexts = await sql.query<{ db: string; name: string }>(
    'SELECT db, name FROM contexts WHERE event_id = $1 ORDER BY created_at, db',
    [id],
  );
  const rows = await sql.query<
    Omit<EventDetail['races'][number], 'format' | 'publication' | 'start'> & {
      format: string | null;
      published: { publishedAtMs?: unknown; protestWindowMs?: unknown } | null;
      corrections: unknown;
      gunTimeMs: string | number | null;
      clockRate: number;
      firstName: string | null;
      firstNameFr: string | null;
      firstDistanceM: number | null;
    }
  >(
    `SELECT r.id, r.db, r.name, r.distance_m AS "distanceM", r.start_type AS "startType",
            r.rules->'format'->>'kind' AS format, r.rules->'publication' AS published,
            -- Each corrected runner named as now (issue 40: "Hidden runner" once they hid their name).
            CASE WHEN jsonb_typeof(r.rules->'corrections') = 'array' THEN (
              SELECT coalesce(jsonb_agg(CASE WHEN hp.hidden IS NULL THEN x.c
                       ELSE jsonb_set(x.c, '{name}', to_jsonb(CASE WHEN hp.hidden THEN $2::text ELSE hp.name END))
                     END ORDER BY x.n), '[]'::jsonb)
                FROM jsonb_array_elements(r.rules->'corrections') WITH ORDINALITY AS x(c, n)
                LEFT JOIN LATERAL (
                  SELECT q.name_hidden AS hidden, trim(q.first_name || ' ' || q.last_name) AS name
                    FROM participants q WHERE q.race_id = r.id AND q.bib = x.c->>'bib' AND q.deleted_at IS NULL
                   LIMIT 1
                ) hp ON true)
            END AS corrections,
            r.gun_time_ms AS "gunTimeMs", r.clock_rate AS "clockRate",
            p.name AS "firstName", p.name_fr AS "firstNameFr", p.distance_m AS "firstDistanceM"
       FROM races r JOIN contexts c ON c.db = r.db
       LEFT JOIN LATERAL (
         SELECT t.name, t.name_fr, t.distance_m FROM timing_points t
          WHERE t.race_id = r.id AND NOT t.is_start AND t.distance_m > 0
          ORDER BY t.position LIMIT 1
       ) p ON true
      WHERE c.event_id = $1 ORDER BY r.position, r.id`,
    [id, HIDDEN_RUNNER_NAME],
  );
  // The format only when another than the road race (issue 31), so road races read as before; the
  // publication state of every race (provisional until the timekeeper publishes).
  const now = Date.now();
  const races = rows.map(
    ({
      format,
      published,
      corrections,
      gunTimeMs,
      clockRate,
      firstName,
      firstNameFr,
      firstDistanceM,
      ...race
    }) => ({
      ...race,
      ...startOf(gunTimeMs, clockRate, firstName, firstNameFr, firstDistanceM),
      ...(format && format !== 'road' ? { format: format as EventDetail['races'][number]['format'] } : {}),
      publication: {
        ...publicationStatus(
          typeof published?.publishedAtMs === 'number'
            ? {
                publishedAtMs: published.publishedAtMs,
                protestWindowMs:
                  typeof published.protestWindowMs === 'number' ? published.protestWindowMs : 0,
              }
            : {},
          now,
        ),
        // Issue 43: the corrections of official results, on every page that states the publication.
        ...(corrections ? { corrections: correctionsOf({ corrections }) } : {}),
      },
    }),
  );
  return { ...event, contexts, races };
}

/** A fast front runner's pace (3:00 a km, in ms a metre): when a race's first times may come. */
const FRONT_PACE_MS_PER_M = 180;

/** A race's start as the event page carries it (issue 43), when its gun is set. */
function startOf(
  gun: string | number | null,
  clockRate: number,
  name: string | null,
  nameFr: string | null,
  distanceM: number | null,
): Pick<EventDetail['races'][number], 'start'> {
  if (gun === null) return {};
  const gunTimeMs = Number(gun);
  const firstPoint = name !== null && distanceM !== null ? { name, nameFr: nameFr || name, distanceM } : null;
  // Race time runs `clockRate` times faster than the wall clock (0005_race_clock.sql: the demo).
  const firstTimesMs = firstPoint
    ? Math.round(gunTimeMs + (firstPoint.distanceM * FRONT_PACE_MS_PER_M) / clockRate)
    : null;
  return { start: { gunTimeMs, firstPoint, firstTimesMs } };
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
