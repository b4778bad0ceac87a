import {
  type ConsolePoint,
  type ConsoleRace,
  type RaceFormat,
  raceFormatSchema,
  type TeamRule,
} from '@tempora/contracts';
import { type CategoryDef, checkCategories, type LonLat, trackLengthM, zonedParts } from '@tempora/domain';
import type { Sql } from '../../../db/database.ts';
import { correctionsOf } from '../../results/port.ts';

interface RaceRecord {
  id: string;
  db: string;
  eventId: string;
  timeZone: string;
  name: string;
  date: string;
  distanceM: number;
  startType: ConsoleRace['startType'];
  gunTimeMs: number | null;
  waves: { id: string; name?: string; startTime: number }[];
  categories: CategoryDef[];
  course: { type: 'LineString'; coordinates: [number, number][] } | null;
  ageBasis: ConsoleRace['ageBasis'];
  teamRule: TeamRule;
  fadePrior: { source?: string; bands?: { runners?: number }[] } | null;
  format: unknown;
  publication: { publishedAtMs?: unknown; protestWindowMs?: unknown } | null;
  corrections: unknown;
  cutoffOverrides: unknown;
  relayMembers: unknown;
  participants: number;
  passings: number;
}

/** A race's stored format (issue 31): the road race when none is stored or it no longer parses. */
export function raceFormatOf(stored: unknown): RaceFormat {
  const parsed = raceFormatSchema.safeParse(stored);
  return parsed.success ? parsed.data : { kind: 'road' };
}

/** The desk's cut-off reinstatements stored in a race's rules (issue 31); malformed entries dropped. */
export function cutoffOverridesOf(stored: unknown): { bib: string; pointKey: string }[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((o) =>
    o && typeof o.bib === 'string' && typeof o.pointKey === 'string'
      ? [{ bib: o.bib, pointKey: o.pointKey }]
      : [],
  );
}

/** A relay's stored members (issue 31): team bib → names in leg order; malformed entries dropped. */
export function relayMembersOf(stored: unknown): Record<string, string[]> {
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return {};
  return Object.fromEntries(
    Object.entries(stored).flatMap(([bib, names]) =>
      Array.isArray(names) ? [[bib, names.map((n) => (typeof n === 'string' ? n : ''))]] : [],
    ),
  );
}

/** A race's stored publication (issue 31), or null (provisional) when none or malformed. */
export function publicationOf(stored: unknown): ConsoleRace['publication'] {
  const p = stored as { publishedAtMs?: unknown; protestWindowMs?: unknown } | null;
  if (!p || typeof p.publishedAtMs !== 'number') return null;
  return {
    publishedAtMs: p.publishedAtMs,
    protestWindowMs: typeof p.protestWindowMs === 'number' ? p.protestWindowMs : 0,
  };
}

/** The wall-clock time of an instant in the event's zone (`HH:MM:SS`). */
const wallTime = (ms: number, zone: string) => zonedParts(ms, zone).time;

/** A race as the console shows it (times of day in the event's time zone). */
export async function raceView(sql: Sql, raceId: string): Promise<ConsoleRace | null> {
  const [r] = await sql.query<RaceRecord>(
    `SELECT r.id, r.db, c.event_id AS "eventId", e.time_zone AS "timeZone", r.name,
            to_char(r.race_date, 'YYYY-MM-DD') AS date, r.distance_m AS "distanceM", r.start_type AS "startType",
            r.gun_time_ms::float8 AS "gunTimeMs", r.waves, r.categories, r.course, r.age_basis AS "ageBasis",
            r.team_rule AS "teamRule", r.rules->'fadePrior' AS "fadePrior", r.rules->'format' AS format, r.rules->'publication' AS publication,
            r.rules->'corrections' AS corrections,
            r.rules->'cutoffOverrides' AS "cutoffOverrides", r.rules->'relayMembers' AS "relayMembers",
            (SELECT count(*)::int FROM participants p WHERE p.race_id = r.id) AS participants,
            (SELECT count(*)::int FROM passings ps WHERE ps.db = r.db AND (
               ps.bib IN (SELECT bib FROM participants p WHERE p.race_id = r.id)
               OR ps.chip IN (SELECT unnest(chips) FROM participants p WHERE p.race_id = r.id))) AS passings
       FROM races r JOIN contexts c ON c.db = r.db JOIN events e ON e.id = c.event_id WHERE r.id = $1`,
    [raceId],
  );
  if (!r) return null;
  const points = await sql.query<ConsolePoint & { nameEn: string; nameFr: string }>(
    `SELECT key, name AS "nameEn", name_fr AS "nameFr", distance_m AS "distanceM", kind, lat, lon
       FROM timing_points WHERE race_id = $1 ORDER BY position`,
    [raceId],
  );
  const course = r.course?.type === 'LineString' ? r.course : null;
  return {
    id: r.id,
    db: r.db,
    eventId: r.eventId,
    timeZone: r.timeZone,
    name: r.name,
    date: r.date,
    distanceM: r.distanceM,
    startType: r.startType,
    participants: r.participants,
    passings: r.passings,
    gunTime: r.gunTimeMs === null ? null : wallTime(r.gunTimeMs, r.timeZone),
    gunTimeMs: r.gunTimeMs,
    waves: r.waves.map((w) => ({
      id: w.id,
      name: w.name ?? '',
      gunTime: wallTime(w.startTime, r.timeZone),
      gunTimeMs: w.startTime,
    })),
    points: points.map(({ nameEn, nameFr, ...p }) => ({ ...p, name: { en: nameEn, fr: nameFr || nameEn } })),
    course,
    courseLengthM: course ? Math.round(trackLengthM(course.coordinates as LonLat[])) : null,
    ageBasis: r.ageBasis,
    categories: r.categories,
    categoryIssues: checkCategories(r.categories),
    teamRule: r.teamRule,
    fadePrior: r.fadePrior
      ? {
          source: String(r.fadePrior.source ?? 'csv'),
          runners: (r.fadePrior.bands ?? []).reduce((n, b) => n + (Number(b.runners) || 0), 0),
        }
      : null,
    format: raceFormatOf(r.format),
    publication: publicationOf(r.publication),
    corrections: correctionsOf({ corrections: r.corrections }),
    cutoffOverrides: cutoffOverridesOf(r.cutoffOverrides),
    relayMembers: relayMembersOf(r.relayMembers),
  };
}

/** Replaces a race's timing points (ordered) and bumps its epoch. */
export async function replacePoints(
  sql: Sql,
  raceId: string,
  points: readonly ConsolePoint[],
): Promise<void> {
  await sql.query('DELETE FROM timing_points WHERE race_id = $1', [raceId]);
  await sql.query(
    `INSERT INTO timing_points (race_id, key, name, name_fr, distance_m, position, is_start, kind, lat, lon)
     SELECT $1, u.key, u.name, u.name_fr, u.distance_m, u.position, u.kind = 'start', u.kind, u.lat, u.lon
       FROM unnest($2::text[], $3::text[], $4::text[], $5::float8[], $6::int[], $7::text[], $8::float8[], $9::float8[])
         AS u(key, name, name_fr, distance_m, position, kind, lat, lon)`,
    [
      raceId,
      points.map((p) => p.key),
      points.map((p) => p.name.en),
      points.map((p) => p.name.fr),
      points.map((p) => p.distanceM),
      points.map((_, k) => k),
      points.map((p) => p.kind),
      points.map((p) => p.lat),
      points.map((p) => p.lon),
    ],
  );
  await bumpEpoch(sql, raceId);
}

/** Cached tables carry the race's epoch in their ETag: any change of its setup bumps it. */
export async function bumpEpoch(sql: Sql, raceId: string): Promise<void> {
  await sql.query('UPDATE races SET epoch = epoch + 1 WHERE id = $1', [raceId]);
}
