import {
  type CategoryDef,
  foldText,
  type Participant,
  type Passing,
  type StartType,
  type Wave,
} from '@tempora/domain';
import type { Sql } from '../../db/database.ts';

/**
 * SQL of the results module. Bulk writes are one statement over `unnest` arrays (never a row at
 * a time: PGlite pays per statement), chunked to keep parameters reasonable. Bigints are read as
 * float8 so both drivers hand back numbers.
 */

export interface ContextRow {
  db: string;
  eventId: string;
  name: string;
  organisationId: string;
  /** The event's IANA time zone: times of day in reports are shown in it (0007_console.sql). */
  timeZone?: string;
  /** The event's status (`upcoming`, `live`, `finished`): finished contexts keep snapshots (issue 27). */
  eventStatus?: string;
}

export interface RaceRow {
  id: string;
  db: string;
  name: string;
  raceDate: string;
  distanceM: number;
  startType: StartType;
  gunTimeMs: number | null;
  waves: Wave[];
  categories: CategoryDef[];
  rules: Record<string, unknown>;
  course: unknown;
  position: number;
  epoch: number;
  /** Race time = gun + (wall − gun) × clockRate (1 but for a sped-up replay, see 0005_race_clock.sql). */
  clockRate: number;
  /** Categories by age on race day or by birth year (0007_console.sql; default raceDay). */
  ageBasis?: 'raceDay' | 'birthYear';
  /** Team ranking: best `best` finishers of teams of at least `minMembers` (default 3 of 3). */
  teamRule?: { best: number; minMembers: number };
}

export interface PointRow {
  raceId: string;
  key: string;
  name: string;
  distanceM: number;
  position: number;
  isStart: boolean;
  lat: number | null;
  lon: number | null;
  /** French name (0007_console.sql); `name` is the English one. Defaults to `name`. */
  nameFr?: string;
  /** Defaults: the start mat is `start`, the last other point `finish`, the rest `split`. */
  kind?: 'start' | 'split' | 'finish';
}

/**
 * A point's name for spectators reading in French: its French name, or the English one when the
 * organiser gave none (an empty `name_fr`). Every public view carries both (`name`, `nameFr`), so
 * that one cached answer serves both languages.
 */
export function frenchName(point: Pick<PointRow, 'name' | 'nameFr'>): string {
  return point.nameFr || point.name;
}

/** A point as the public views show it on a course (tracking card, map): both names, its place. */
export function coursePoint(point: PointRow) {
  return {
    key: point.key,
    name: point.name,
    nameFr: frenchName(point),
    distanceM: point.distanceM,
    lat: point.lat,
    lon: point.lon,
  };
}

/** A participant as stored: the engine's fields plus its race and public tracking key. */
export interface ParticipantRow extends Participant {
  raceId: string;
  trackingKey: string;
  /** The runner hid their name (issue 40): the public projection replaces it (public-runner.ts). */
  hidden?: boolean;
}

export interface PassingRow extends Passing {
  seq: number;
}

export interface ReportRow {
  db: string;
  groupKey: string;
  key: string;
  name: { en: string; fr: string };
  definition: ReportDefinition;
  position: number;
  /** Left out of the spectators' report list (0007_console.sql). */
  hidden?: boolean;
}

/** What a report shows: a ranking (overall, one gender, one category), the last passings, the start list. */
export type ReportDefinition = (
  | { kind: 'ranking'; raceId: string; scope: 'overall' | 'gender' | 'category'; group?: string }
  | { kind: 'lastPassings'; raceId: string; limit: number }
  | { kind: 'startList'; raceId: string }
) & {
  /** Only the runners matching every given field (a club, a wave, a gender, a category; issue 14). */
  filter?: { gender?: string; category?: string; club?: string; wave?: string };
  /** The engine's fields shown, in order (contracts `reportFields`); the default set when absent. */
  columns?: string[];
  /** Added by an organiser (the standard reports are made with the race). */
  custom?: boolean;
};

const CHUNK = 1_000;

/**
 * The rows in statements of `size`, with a pause for the event loop between two statements:
 * PGlite runs a statement on the main thread, so a 45,000-row import in one go would keep
 * `/api/health` and ingest waiting for seconds (issue 13; bench/csv.bench.ts).
 */
async function* chunks<T>(items: readonly T[], size = CHUNK): AsyncGenerator<T[]> {
  for (let k = 0; k < items.length; k += size) {
    if (k > 0) await new Promise((resolve) => setImmediate(resolve));
    yield items.slice(k, k + size);
  }
}

export async function findContext(sql: Sql, db: string): Promise<ContextRow | null> {
  const rows = await sql.query<ContextRow>(
    `SELECT c.db, c.event_id AS "eventId", c.name, e.organisation_id AS "organisationId", e.time_zone AS "timeZone",
            e.status AS "eventStatus"
       FROM contexts c JOIN events e ON e.id = c.event_id WHERE c.db = $1`,
    [db],
  );
  return rows[0] ?? null;
}

export async function contextsOfEvent(sql: Sql, eventId: string): Promise<ContextRow[]> {
  return sql.query<ContextRow>(
    `SELECT c.db, c.event_id AS "eventId", c.name, e.organisation_id AS "organisationId"
       FROM contexts c JOIN events e ON e.id = c.event_id WHERE c.event_id = $1 ORDER BY c.created_at, c.db`,
    [eventId],
  );
}

export async function findEvent(
  sql: Sql,
  eventId: string,
): Promise<{ id: string; name: string; status: string; organisationId: string } | null> {
  const rows = await sql.query<{ id: string; name: string; status: string; organisationId: string }>(
    `SELECT id, name, status, organisation_id AS "organisationId" FROM events WHERE id = $1`,
    [eventId],
  );
  return rows[0] ?? null;
}

export async function insertContext(sql: Sql, row: { db: string; eventId: string; name: string }) {
  await sql.query('INSERT INTO contexts (db, event_id, name) VALUES ($1, $2, $3)', [
    row.db,
    row.eventId,
    row.name,
  ]);
}

export async function racesOf(sql: Sql, db: string): Promise<RaceRow[]> {
  return sql.query<RaceRow>(
    `SELECT id, db, name, to_char(race_date, 'YYYY-MM-DD') AS "raceDate", distance_m AS "distanceM",
            start_type AS "startType", gun_time_ms::float8 AS "gunTimeMs", waves, categories, rules, course,
            position, epoch, clock_rate AS "clockRate", age_basis AS "ageBasis", team_rule AS "teamRule"
       FROM races WHERE db = $1 ORDER BY position, id`,
    [db],
  );
}

export async function insertRace(sql: Sql, race: Omit<RaceRow, 'epoch'>, points: Omit<PointRow, 'raceId'>[]) {
  await sql.query(
    `INSERT INTO races (id, db, name, race_date, distance_m, start_type, gun_time_ms, waves, categories, rules, course, position, clock_rate)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      race.id,
      race.db,
      race.name,
      race.raceDate,
      race.distanceM,
      race.startType,
      race.gunTimeMs,
      JSON.stringify(race.waves),
      JSON.stringify(race.categories),
      JSON.stringify(race.rules),
      race.course === null || race.course === undefined ? null : JSON.stringify(race.course),
      race.position,
      race.clockRate,
    ],
  );
  await sql.query(
    `INSERT INTO timing_points (race_id, key, name, distance_m, position, is_start, lat, lon, name_fr, kind)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::float8[], $5::int[], $6::bool[], $7::float8[], $8::float8[],
                              $9::text[], $10::text[])`,
    [
      race.id,
      points.map((p) => p.key),
      points.map((p) => p.name),
      points.map((p) => p.distanceM),
      points.map((p) => p.position),
      points.map((p) => p.isStart),
      points.map((p) => p.lat),
      points.map((p) => p.lon),
      points.map((p) => p.nameFr ?? p.name),
      points.map((p, k) => p.kind ?? defaultKind(points, k)),
    ],
  );
}

/** A point's kind when not given: the start mat, the last other point (the finish), or a split. */
function defaultKind(points: readonly Pick<PointRow, 'isStart'>[], k: number): 'start' | 'split' | 'finish' {
  if (points[k]!.isStart) return 'start';
  const lastRanked = points.findLastIndex((p) => !p.isStart);
  return k === lastRanked ? 'finish' : 'split';
}

export async function pointsOf(sql: Sql, db: string): Promise<PointRow[]> {
  return sql.query<PointRow>(
    `SELECT t.race_id AS "raceId", t.key, t.name, t.distance_m AS "distanceM", t.position,
            t.is_start AS "isStart", t.lat, t.lon, t.name_fr AS "nameFr"
       FROM timing_points t JOIN races r ON r.id = t.race_id WHERE r.db = $1 ORDER BY t.race_id, t.position`,
    [db],
  );
}

/** A participant to store: a console import may leave the bib for later and adds an e-mail. */
export type NewParticipantRow = Omit<ParticipantRow, 'bib'> & {
  bib: string | null;
  email?: string | undefined;
};

/**
 * What the console's participant search looks in (issue 29): the one fold (`foldText`) of
 * "first last club", stored in `participants.search_folded` by every insert.
 */
export const searchFoldedOf = (p: { firstName: string; lastName: string; club?: string | null }) =>
  foldText(`${p.firstName} ${p.lastName} ${p.club ?? ''}`);

/** Inserts participants in bulk (one statement per 5,000). */
export async function insertParticipants(sql: Sql, rows: readonly NewParticipantRow[]) {
  for await (const part of chunks(rows)) {
    await sql.query(
      `INSERT INTO participants (race_id, bib, chips, first_name, last_name, gender, age, birth_date,
                                 nationality, club, wave, start_time_ms, status, category, tracking_key, email,
                                 search_folded)
       SELECT u.race_id, u.bib, CASE WHEN u.chips = '' THEN '{}'::text[] ELSE string_to_array(u.chips, ',') END,
              u.first_name, u.last_name, u.gender, u.age, u.birth_date::date, u.nationality, u.club, u.wave,
              u.start_time_ms::bigint, u.status, u.category, u.tracking_key, u.email, u.search_folded
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[],
                     $8::text[], $9::text[], $10::text[], $11::text[], $12::float8[], $13::text[], $14::text[],
                     $15::text[], $16::text[], $17::text[])
           AS u(race_id, bib, chips, first_name, last_name, gender, age, birth_date, nationality, club, wave,
                start_time_ms, status, category, tracking_key, email, search_folded)`,
      [
        part.map((p) => p.raceId),
        part.map((p) => p.bib),
        part.map((p) => (p.chips ?? []).join(',')),
        part.map((p) => p.firstName),
        part.map((p) => p.lastName),
        part.map((p) => p.gender),
        part.map((p) => p.age ?? null),
        part.map((p) => p.birthDate ?? null),
        part.map((p) => p.nationality ?? ''),
        part.map((p) => p.club ?? ''),
        part.map((p) => p.wave ?? null),
        part.map((p) => p.startTime ?? null),
        part.map((p) => p.status),
        part.map((p) => p.category ?? null),
        part.map((p) => p.trackingKey),
        part.map((p) => p.email ?? ''),
        part.map(searchFoldedOf),
      ],
    );
  }
}

/**
 * The timed participants of a context: neither deleted nor waiting for a bib (the engine keys
 * runners by bib; a runner without one cannot be timed yet).
 */
export async function participantsOf(sql: Sql, db: string): Promise<ParticipantRow[]> {
  const out: ParticipantRow[] = [];
  const fields = [
    'raceId',
    'bib',
    'chips',
    'firstName',
    'lastName',
    'gender',
    'age',
    'birthDate',
    'nationality',
    'club',
    'wave',
    'startTime',
    'status',
    'category',
    'trackingKey',
    'hidden',
  ] as const;
  // Issue 14: read PARTICIPANT_CHUNK runners per statement, race by race along the primary key
  // (race_id, bib), as JSON arrays (see passingsAfter). PGlite runs in this thread: one statement
  // for a 45,000-runner context held the event loop for seconds after an import; between these
  // statements the server answers other requests.
  const races = await sql.query<{ id: string }>('SELECT id FROM races WHERE db = $1 ORDER BY id', [db]);
  for (const { id } of races) {
    for (let after: string | null = null; ; ) {
      const [chunk] = await sql.query<{ rows: string | null }>(
        `SELECT json_agg(json_build_array(race_id, bib, chips, first_name, last_name, gender, age, birth_date,
                         nationality, club, wave, start_time_ms, status, category, tracking_key, hidden)
                         ORDER BY bib)::text AS rows
           FROM (SELECT p.race_id, p.bib, p.chips, p.first_name, p.last_name, p.gender, p.age,
                        to_char(p.birth_date, 'YYYY-MM-DD') AS birth_date, p.nationality, p.club, p.wave,
                        p.start_time_ms::float8 AS start_time_ms, p.status, p.category, p.tracking_key,
                        CASE WHEN p.name_hidden THEN true END AS hidden
                   FROM participants p
                  WHERE p.race_id = $1 AND p.deleted_at IS NULL AND p.bib IS NOT NULL
                    ${after === null ? '' : 'AND p.bib > $2'}
                  ORDER BY p.bib LIMIT ${PARTICIPANT_CHUNK}) p`,
        after === null ? [id] : [id, after],
      );
      if (!chunk?.rows) break;
      const rows = JSON.parse(chunk.rows) as unknown[][];
      for (const row of rows) {
        // Optional engine fields are absent rather than null.
        const item: Record<string, unknown> = {};
        for (let k = 0; k < fields.length; k++) if (row[k] !== null) item[fields[k]!] = row[k];
        out.push(item as unknown as ParticipantRow);
      }
      // An awaited PGlite statement resolves without letting I/O in: let other requests be served.
      await new Promise((resolve) => setImmediate(resolve));
      if (rows.length < PARTICIPANT_CHUNK) break;
      after = String(rows[rows.length - 1]![1]);
    }
  }
  return out;
}

/**
 * Runners per statement: 2,500 held the event loop ~90 ms a statement on PGlite (issue 27, a
 * finished event loaded in the background after start, /api/health waiting behind it).
 */
const PARTICIPANT_CHUNK = 1_000;

/** Stores passings; returns only the new ones (a duplicate id is one read), in `seq` order. */
export async function insertPassings(
  sql: Sql,
  db: string,
  rows: readonly (Passing & { createdBy?: string | null })[],
): Promise<PassingRow[]> {
  const inserted: PassingRow[] = [];
  // Issue 20: seq order must be commit order within a context, or a node catching up with
  // `seq > lastSeq` could read seq 12 before seq 11 commits and skip 11 for ever. A per-context
  // lock held until commit (callers run this in a transaction) orders writers of one context
  // across nodes; writers of different contexts never wait for each other.
  if (rows.length) await sql.query('SELECT pg_advisory_xact_lock(727310002, hashtext($1))', [db]);
  for await (const part of chunks(rows)) {
    // Only the new seq comes back (the rest is the input): half the bytes PGlite turns into
    // objects, measured +25 % passings/s. A read already stored (same id) is not returned.
    const out = await sql.query<{ seq: number; id: string; deleted: boolean }>(
      `INSERT INTO passings (db, passing_id, bib, chip, point_key, time_ms, source, device_id, deleted, created_by)
       SELECT $1, u.id, u.bib, u.chip, u.point, u.t::bigint, u.source, u.device::uuid, u.deleted, u.created_by
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::text[], $8::text[],
                     $9::bool[], $10::text[]) AS u(id, bib, chip, point, t, source, device, deleted, created_by)
       ON CONFLICT DO NOTHING
       RETURNING seq::float8 AS seq, passing_id AS id, deleted`,
      [
        db,
        part.map((p) => p.id),
        part.map((p) => p.bib ?? null),
        part.map((p) => p.chip ?? null),
        part.map((p) => p.pointId),
        part.map((p) => p.timeMs),
        part.map((p) => p.source),
        part.map((p) => p.device ?? null),
        part.map((p) => p.deleted ?? false),
        part.map((p) => p.createdBy ?? null),
      ],
    );
    const byKey = new Map<string, Passing>();
    for (const p of part) {
      const key = `${p.deleted ? 1 : 0}${p.id}`;
      if (!byKey.has(key)) byKey.set(key, p);
    }
    for (const { seq, id, deleted } of out) {
      const p = byKey.get(`${deleted ? 1 : 0}${id}`)!;
      const row: { -readonly [K in keyof PassingRow]: PassingRow[K] } = {
        seq,
        id,
        pointId: p.pointId,
        timeMs: Math.round(p.timeMs),
        source: p.source,
      };
      if (p.bib != null) row.bib = p.bib;
      if (p.chip != null) row.chip = p.chip;
      if (p.device != null) row.device = p.device;
      if (deleted) row.deleted = true;
      inserted.push(row);
    }
  }
  return inserted.sort((a, b) => a.seq - b.seq);
}

/**
 * Rows per statement when loading passings (each comes back as one JSON text). 20,000 held the
 * event loop ~190 ms a statement on PGlite (issue 27: Boston's 264,000 reads loaded in the
 * background after start); 5,000 keep each under ~50 ms for a few more statements.
 */
const LOAD_CHUNK = 5_000;

/**
 * Passings of a context after `afterSeq`, in `seq` order. Each statement returns up to
 * `LOAD_CHUNK` passings as one JSON array of arrays: PGlite turns result rows into objects field
 * by field, which took 3.7 s for Boston's 290,000 reads, against 0.8 s for the JSON and its parse.
 */
export async function passingsAfter(sql: Sql, db: string, afterSeq: number): Promise<PassingRow[]> {
  const out: PassingRow[] = [];
  for (let after = afterSeq; ; ) {
    const [chunk] = await sql.query<{ rows: string | null }>(
      `SELECT json_agg(json_build_array(seq, passing_id, bib, chip, point_key, time_ms, source, device_id, deleted)
                       ORDER BY seq)::text AS rows
         FROM (SELECT * FROM passings WHERE db = $1 AND seq > $2 ORDER BY seq LIMIT ${LOAD_CHUNK}) p`,
      [db, after],
    );
    if (!chunk?.rows) return out;
    const rows = JSON.parse(chunk.rows) as [
      number,
      string,
      string | null,
      string | null,
      string,
      number,
      PassingRow['source'],
      string | null,
      boolean,
    ][];
    for (const [seq, id, bib, chip, pointId, timeMs, source, device, deleted] of rows) {
      const row: { -readonly [K in keyof PassingRow]: PassingRow[K] } = { seq, id, pointId, timeMs, source };
      if (bib !== null) row.bib = bib;
      if (chip !== null) row.chip = chip;
      if (device !== null) row.device = device;
      if (deleted) row.deleted = true;
      out.push(row);
    }
    if (rows.length < LOAD_CHUNK) return out;
    after = rows[rows.length - 1]![0];
    await new Promise((resolve) => setImmediate(resolve)); // other requests between statements
  }
}

export async function maxSeq(sql: Sql, db: string): Promise<number> {
  const rows = await sql.query<{ seq: number | null }>(
    'SELECT max(seq)::float8 AS seq FROM passings WHERE db = $1',
    [db],
  );
  return rows[0]?.seq ?? 0;
}

export async function reportsOf(
  sql: Sql,
  db: string,
): Promise<{
  groups: { key: string; name: { en: string; fr: string }; position: number }[];
  reports: ReportRow[];
}> {
  const groups = await sql.query<{ key: string; name: { en: string; fr: string }; position: number }>(
    'SELECT key, name, position FROM report_groups WHERE db = $1 ORDER BY position, key',
    [db],
  );
  const reports = await sql.query<ReportRow>(
    `SELECT db, group_key AS "groupKey", key, name, definition, position, hidden FROM reports WHERE db = $1
      ORDER BY position, key`,
    [db],
  );
  return { groups, reports };
}

export async function insertReports(
  sql: Sql,
  db: string,
  group: { key: string; name: { en: string; fr: string }; position: number },
  reports: Omit<ReportRow, 'db' | 'groupKey'>[],
) {
  await sql.query(
    'INSERT INTO report_groups (db, key, name, position) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
    [db, group.key, JSON.stringify(group.name), group.position],
  );
  await sql.query(
    `INSERT INTO reports (db, group_key, key, name, definition, position)
     SELECT $1, $2, * FROM unnest($3::text[], $4::jsonb[], $5::jsonb[], $6::int[]) ON CONFLICT DO NOTHING`,
    [
      db,
      group.key,
      reports.map((r) => r.key),
      reports.map((r) => JSON.stringify(r.name)),
      reports.map((r) => JSON.stringify(r.definition)),
      reports.map((r) => r.position),
    ],
  );
}

export async function findDeviceByKeyHash(
  sql: Sql,
  keyHash: string,
): Promise<{ id: string; db: string; pointKey: string | null } | null> {
  const rows = await sql.query<{ id: string; db: string; pointKey: string | null }>(
    'SELECT id, db, point_key AS "pointKey" FROM devices WHERE key_hash = $1',
    [keyHash],
  );
  return rows[0] ?? null;
}

export async function insertDevice(
  sql: Sql,
  row: { db: string; name: string; keyHash: string; pointKey: string | null },
): Promise<string> {
  const rows = await sql.query<{ id: string }>(
    'INSERT INTO devices (db, name, key_hash, point_key) VALUES ($1, $2, $3, $4) RETURNING id',
    [row.db, row.name, row.keyHash, row.pointKey],
  );
  return rows[0]!.id;
}

/**
 * The share tokens of a race's teams, made for the teams that have none yet (one statement for
 * all of them; a concurrent call making the same ones loses the race harmlessly).
 */
export async function teamTokensOf(
  sql: Sql,
  db: string,
  raceId: string,
  teams: readonly string[],
  newToken: () => string,
): Promise<Map<string, string>> {
  const read = async () =>
    new Map(
      (
        await sql.query<{ team: string; token: string }>(
          'SELECT team, token FROM team_tokens WHERE db = $1 AND race_id = $2',
          [db, raceId],
        )
      ).map((r) => [r.team, r.token]),
    );
  const known = await read();
  const missing = teams.filter((t) => !known.has(t));
  if (!missing.length) return known;
  await sql.query(
    `INSERT INTO team_tokens (token, db, race_id, team)
     SELECT u.token, $2, $3, u.team FROM unnest($1::text[], $4::text[]) AS u(token, team)
     ON CONFLICT (db, race_id, team) DO NOTHING`,
    [missing.map(() => newToken()), db, raceId, missing],
  );
  return read();
}

/** The team a share token names, or null. */
export async function findTeamToken(
  sql: Sql,
  token: string,
): Promise<{ db: string; raceId: string; team: string } | null> {
  const rows = await sql.query<{ db: string; raceId: string; team: string }>(
    'SELECT db, race_id AS "raceId", team FROM team_tokens WHERE token = $1',
    [token],
  );
  return rows[0] ?? null;
}
