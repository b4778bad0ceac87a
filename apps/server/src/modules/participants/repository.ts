import type { ConsoleParticipant, ParticipantAuditEntry, RaceSummary } from '@tempora/contracts';
import { type CategoryDef, foldText } from '@tempora/domain';
import type { Sql } from '../../db/database.ts';
import { listAudit, recordAudit } from '../../lib/audit.ts';
import { searchFoldedOf } from '../results/port.ts';

/**
 * SQL of the console's participants: every read is scoped to one event (its contexts' races),
 * soft-deleted runners are never listed. Bulk writes are one statement over arrays.
 */

export interface EventRace {
  id: string;
  db: string;
  name: string;
  date: string;
  categories: CategoryDef[];
}

export async function racesOfEvent(sql: Sql, eventId: string): Promise<EventRace[]> {
  return sql.query<EventRace>(
    `SELECT r.id, r.db, r.name, to_char(r.race_date, 'YYYY-MM-DD') AS date, r.categories
       FROM races r JOIN contexts c ON c.db = r.db WHERE c.event_id = $1 ORDER BY r.position, r.id`,
    [eventId],
  );
}

export async function raceSummaries(sql: Sql, eventId: string): Promise<RaceSummary[]> {
  const rows = await sql.query<
    EventRace & { participants: number; withoutBib: number; first: number | null; last: number | null }
  >(
    `SELECT r.id, r.db, r.name, to_char(r.race_date, 'YYYY-MM-DD') AS date, r.categories,
            (SELECT count(*)::int FROM participants p WHERE p.race_id = r.id AND p.deleted_at IS NULL) AS participants,
            (SELECT count(*)::int FROM participants p WHERE p.race_id = r.id AND p.deleted_at IS NULL
                AND p.bib IS NULL) AS "withoutBib",
            b.first_bib AS first, b.last_bib AS last
       FROM races r JOIN contexts c ON c.db = r.db LEFT JOIN bib_ranges b ON b.race_id = r.id
      WHERE c.event_id = $1 ORDER BY r.position, r.id`,
    [eventId],
  );
  return rows.map(({ first, last, categories, ...r }) => ({
    ...r,
    categories: categories.map((c) => ({ id: c.id, name: c.name })),
    bibRange: first === null || last === null ? null : { first, last },
  }));
}

/**
 * Folds the runners whose `search_folded` is NULL (stored before 0032, or whose name or club a
 * writer changed without folding it: the trigger of 0032 cleared it), among an event's runners or
 * the given ids. The JavaScript fold (`foldText`) is the only one: SQL compares what it computed.
 */
export async function refreshSearchFolded(
  sql: Sql,
  scope: { eventId: string } | { ids: readonly string[] },
): Promise<number> {
  const rows =
    'eventId' in scope
      ? await sql.query<{ id: string; firstName: string; lastName: string; club: string }>(
          `SELECT p.id, p.first_name AS "firstName", p.last_name AS "lastName", p.club
             FROM participants p JOIN races r ON r.id = p.race_id JOIN contexts c ON c.db = r.db
            WHERE c.event_id = $1 AND p.search_folded IS NULL`,
          [scope.eventId],
        )
      : await sql.query<{ id: string; firstName: string; lastName: string; club: string }>(
          `SELECT id, first_name AS "firstName", last_name AS "lastName", club
             FROM participants WHERE id = ANY($1::uuid[]) AND search_folded IS NULL`,
          [scope.ids],
        );
  if (!rows.length) return 0;
  await sql.query(
    `UPDATE participants p SET search_folded = u.f
       FROM unnest($1::uuid[], $2::text[]) AS u(id, f) WHERE p.id = u.id`,
    [rows.map((r) => r.id), rows.map(searchFoldedOf)],
  );
  return rows.length;
}

/**
 * The category of each runner: the explicit one, else the race's first category matching gender
 * and age on race day (packages/domain categories.ts `categoryIndexOf`, the same rule in SQL).
 */
const CATEGORY = `COALESCE(p.category, (
  SELECT x.c->>'id' FROM jsonb_array_elements(r.categories) WITH ORDINALITY AS x(c, n)
   WHERE (x.c->>'gender' IS NULL OR x.c->>'gender' = p.gender)
     AND ((x.c->>'minAge' IS NULL AND x.c->>'maxAge' IS NULL)
       OR (a.age IS NOT NULL AND (x.c->>'minAge' IS NULL OR a.age >= (x.c->>'minAge')::int)
                             AND (x.c->>'maxAge' IS NULL OR a.age <= (x.c->>'maxAge')::int)))
   ORDER BY x.n LIMIT 1))`;

const FROM = `FROM participants p JOIN races r ON r.id = p.race_id JOIN contexts c ON c.db = r.db
  CROSS JOIN LATERAL (SELECT COALESCE(p.age, extract(year FROM age(r.race_date, p.birth_date))::int) AS age) a`;

const SELECT = `SELECT p.id, p.race_id AS "raceId", p.bib, p.first_name AS "firstName", p.last_name AS "lastName",
  p.gender, to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.age, p.club, p.nationality, p.email, p.chips,
  p.category AS "explicitCategory", ${CATEGORY} AS category, p.wave, p.status`;

export interface ListFilter {
  q?: string | undefined;
  race?: string | undefined;
  category?: string | undefined;
  status?: string | undefined;
  bib?: 'none' | undefined;
  sort: string;
  dir: 'asc' | 'desc';
  offset: number;
  limit: number;
}

const SORTS: Record<string, string> = {
  // Numeric bibs in numeric order, then the others; runners without a bib last.
  bib: `bib IS NULL, (CASE WHEN bib ~ '^[0-9]{1,9}$' THEN bib::int END) %DIR% NULLS LAST, bib %DIR%`,
  lastName: 'lower("lastName") %DIR%, lower("firstName") %DIR%',
  firstName: 'lower("firstName") %DIR%, lower("lastName") %DIR%',
  gender: 'gender %DIR%',
  birthDate: '"birthDate" %DIR% NULLS LAST',
  club: 'lower(club) %DIR%',
  nationality: 'nationality %DIR%',
  category: 'category %DIR% NULLS LAST',
  status: 'status %DIR%',
  race: 'race_pos %DIR%, "raceId" %DIR%',
};

/** One page of an event's participants with the total matching the filters. */
export async function listParticipants(
  sql: Sql,
  eventId: string,
  filter: ListFilter,
): Promise<{ total: number; rows: ConsoleParticipant[] }> {
  const params: unknown[] = [eventId];
  const where = ['c.event_id = $1', 'p.deleted_at IS NULL'];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filter.race) where.push(`p.race_id = ${add(filter.race)}`);
  if (filter.status) where.push(`p.status = ${add(filter.status)}`);
  if (filter.bib === 'none') where.push('p.bib IS NULL');
  if (filter.q?.trim()) await refreshSearchFolded(sql, { eventId });
  const tokens = foldText(filter.q ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 6);
  for (const token of tokens) {
    const like = `%${token.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(`(lower(p.bib) = ${add(token)} OR p.search_folded LIKE ${add(like)})`);
  }
  const base = `WITH rows AS (${SELECT}, r.position AS race_pos ${FROM} WHERE ${where.join(' AND ')})`;
  const categoryFilter = filter.category ? `WHERE category = ${add(filter.category)}` : '';
  const order = (SORTS[filter.sort] ?? SORTS.bib!).replaceAll(
    '%DIR%',
    filter.dir === 'desc' ? 'DESC' : 'ASC',
  );
  const [count] = await sql.query<{ n: number }>(
    `${base} SELECT count(*)::int AS n FROM rows ${categoryFilter}`,
    params,
  );
  const rows = await sql.query<Record<string, unknown>>(
    `${base} SELECT * FROM rows ${categoryFilter} ORDER BY ${order}, lower("lastName"), lower("firstName"), id
     OFFSET ${Number(filter.offset)} LIMIT ${Number(filter.limit)}`,
    params,
  );
  return { total: count?.n ?? 0, rows: rows.map(pick) };
}

function pick(r: Record<string, unknown>): ConsoleParticipant {
  return {
    id: r.id as string,
    raceId: r.raceId as string,
    bib: (r.bib as string | null) ?? null,
    firstName: r.firstName as string,
    lastName: r.lastName as string,
    gender: r.gender as ConsoleParticipant['gender'],
    birthDate: (r.birthDate as string | null) ?? null,
    age: (r.age as number | null) ?? null,
    club: r.club as string,
    nationality: r.nationality as string,
    email: r.email as string,
    chips: (r.chips as string[]) ?? [],
    category: (r.category as string | null) ?? null,
    wave: (r.wave as string | null) ?? null,
    status: r.status as ConsoleParticipant['status'],
  };
}

/** A participant of the event as stored (its explicit category, not the computed one). */
export async function findParticipant(
  sql: Sql,
  eventId: string,
  id: string,
): Promise<(ConsoleParticipant & { db: string }) | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await sql.query<Record<string, unknown>>(
    `${SELECT}, r.db ${FROM} WHERE c.event_id = $1 AND p.id = $2 AND p.deleted_at IS NULL`,
    [eventId, id],
  );
  if (!row) return null;
  return { ...pick({ ...row, category: row.explicitCategory }), db: row.db as string };
}

/** Passings (not deleted) of a bib or one of its chips in a context. */
export async function passingCount(
  sql: Sql,
  db: string,
  bib: string | null,
  chips: string[],
): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM passings
      WHERE db = $1 AND NOT deleted AND (bib = $2 OR chip = ANY($3::text[]))`,
    [db, bib, chips],
  );
  return row?.n ?? 0;
}

/** Column of each editable field. */
export const COLUMNS: Record<string, string> = {
  bib: 'bib',
  firstName: 'first_name',
  lastName: 'last_name',
  gender: 'gender',
  birthDate: 'birth_date',
  age: 'age',
  club: 'club',
  nationality: 'nationality',
  email: 'email',
  chips: 'chips',
  category: 'category',
  wave: 'wave',
  status: 'status',
};

export async function updateParticipant(sql: Sql, id: string, patch: Record<string, unknown>) {
  const fields = Object.keys(patch).filter((f) => COLUMNS[f]);
  if (!fields.length) return;
  const sets = fields.map((f, k) => `${COLUMNS[f]} = $${k + 2}${f === 'chips' ? '::text[]' : ''}`);
  await sql.query(`UPDATE participants SET ${sets.join(', ')} WHERE id = $1`, [
    id,
    ...fields.map((f) => patch[f]),
  ]);
  if (fields.some((f) => f === 'firstName' || f === 'lastName' || f === 'club'))
    await refreshSearchFolded(sql, { ids: [id] });
}

export async function softDelete(sql: Sql, id: string) {
  await sql.query('UPDATE participants SET deleted_at = now() WHERE id = $1', [id]);
}

export async function bumpEpoch(sql: Sql, raceIds: readonly string[]) {
  await sql.query('UPDATE races SET epoch = epoch + 1 WHERE id = ANY($1::text[])', [raceIds]);
}

export interface AuditInsert {
  participantId: string;
  raceId: string;
  action: ParticipantAuditEntry['action'];
  changes: ParticipantAuditEntry['changes'];
}

/** Writes audit entries in one statement (the one trail, `lib/audit.ts`). */
export async function insertAudit(
  sql: Sql,
  entries: readonly AuditInsert[],
  actor: { sub: string | null; email: string },
) {
  await recordAudit(
    sql,
    entries.map((e) => ({
      subject: 'participant',
      subjectId: e.participantId,
      scope: e.raceId,
      action: e.action,
      actorSub: actor.sub,
      actorEmail: actor.email,
      detail: { changes: e.changes },
    })),
  );
}

/** Audit entries of every participant added by a statement (found by their tracking keys). */
export async function auditImported(
  sql: Sql,
  trackingKeys: readonly string[],
  action: 'create' | 'import',
  actor: { sub: string | null; email: string },
) {
  const rows = await sql.query<{ id: string; raceId: string }>(
    'SELECT id::text AS id, race_id AS "raceId" FROM participants WHERE tracking_key = ANY($1::text[])',
    [trackingKeys],
  );
  await insertAudit(
    sql,
    rows.map((r) => ({ participantId: r.id, raceId: r.raceId, action, changes: [] })),
    actor,
  );
}

export async function auditOf(sql: Sql, participantId: string): Promise<ParticipantAuditEntry[]> {
  const rows = await listAudit(sql, { subject: 'participant', subjectId: participantId, limit: 500 });
  return rows.map((r) => ({
    id: Number(r.id),
    action: r.action as ParticipantAuditEntry['action'],
    changes: (r.detail.changes ?? []) as ParticipantAuditEntry['changes'],
    actorEmail: r.actorEmail,
    at: r.at.replace(/\.\d{3}Z$/, 'Z'),
  }));
}

/** Rows per statement when reading an event's participants for a check (see `existingFacts`). */
const FACTS_PAGE = 2_000;

/**
 * Bibs of a race and people (name, birth date, e-mail) of an event, for an import's duplicate
 * checks. Read a page at a time (keyset on the id): one statement for a 45,000-runner event held
 * the server for seconds. Each page comes back as one JSON text (see `participantsOf`): PGlite
 * turning 500 rows of 7 fields into objects cost more than the statement, 9 ms a page and 180
 * pages for a 90,000-runner event; one `JSON.parse` of 2,000 rows costs a few.
 */
export async function existingFacts(sql: Sql, eventId: string, raceId: string) {
  const bibs: { bib: string; name: string }[] = [];
  const people: { f: string; l: string; b: string | null; e: string }[] = [];
  const races = (
    await sql.query<{ id: string }>(
      'SELECT r.id FROM races r JOIN contexts c ON c.db = r.db WHERE c.event_id = $1',
      [eventId],
    )
  ).map((r) => r.id);
  let after = '00000000-0000-0000-0000-000000000000';
  while (races.length) {
    const [page] = await sql.query<{ rows: string | null }>(
      `SELECT json_agg(json_build_array(p.id, p.race_id, p.bib, p.first_name, p.last_name,
                                        to_char(p.birth_date, 'YYYY-MM-DD'), p.email) ORDER BY p.id)::text AS rows
         FROM (SELECT id, race_id, bib, first_name, last_name, birth_date, email FROM participants
                WHERE race_id = ANY($1) AND deleted_at IS NULL AND id > $2
                ORDER BY id LIMIT ${FACTS_PAGE}) p`,
      [races, after],
    );
    if (!page?.rows) break;
    const rows = JSON.parse(page.rows) as [
      string,
      string,
      string | null,
      string,
      string,
      string | null,
      string,
    ][];
    for (const [, r, bib, f, l, b, e] of rows) {
      if (r === raceId && bib !== null) bibs.push({ bib, name: `${f} ${l}`.trim() });
      people.push({ f, l, b, e });
    }
    if (rows.length < FACTS_PAGE) break;
    after = rows.at(-1)![0];
    await yieldToLoop();
  }
  return { bibs, people };
}

export async function getMapping(sql: Sql, organisationId: string, kind: string) {
  const [row] = await sql.query<{ mapping: Record<string, string> }>(
    'SELECT mapping FROM import_mappings WHERE organisation_id = $1 AND kind = $2',
    [organisationId, kind],
  );
  return row?.mapping ?? null;
}

export async function saveMapping(sql: Sql, organisationId: string, kind: string, mapping: unknown) {
  await sql.query(
    `INSERT INTO import_mappings (organisation_id, kind, mapping) VALUES ($1, $2, $3)
     ON CONFLICT (organisation_id, kind) DO UPDATE SET mapping = EXCLUDED.mapping, updated_at = now()`,
    [organisationId, kind, JSON.stringify(mapping)],
  );
}

/**
 * Bytes of a stored file per statement: PGlite runs a statement on the main thread, and a
 * multi-megabyte bytea in one held `/api/health` for seconds (`npm run bench -- import`).
 */
const FILE_PIECE = 256 * 1024;
const yieldToLoop = () => new Promise((resolve) => setImmediate(resolve));

export async function insertUpload(
  sql: Sql,
  row: { eventId: string; fileName: string; format: 'csv' | 'xlsx'; data: Buffer; createdBy: string | null },
): Promise<string> {
  const [out] = await sql.query<{ id: string }>(
    `INSERT INTO import_uploads (event_id, file_name, format, data, created_by) VALUES ($1, $2, $3, $4, $5)
     RETURNING id`,
    [row.eventId, row.fileName, row.format, Buffer.alloc(0), row.createdBy],
  );
  // One row per piece (migration 0031): each statement writes its own 256 KB, never the whole file.
  for (let at = 0, position = 0; at < row.data.length; at += FILE_PIECE, position++) {
    if (at) await yieldToLoop();
    await sql.query('INSERT INTO import_upload_pieces (upload_id, position, data) VALUES ($1, $2, $3)', [
      out!.id,
      position,
      row.data.subarray(at, at + FILE_PIECE),
    ]);
  }
  return out!.id;
}

export async function findUpload(
  sql: Sql,
  eventId: string,
  id: string,
): Promise<{ id: string; fileName: string; format: 'csv' | 'xlsx'; data: Buffer } | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await sql.query<{
    id: string;
    fileName: string;
    format: 'csv' | 'xlsx';
    size: number;
    pieces: number;
  }>(
    `SELECT id, file_name AS "fileName", format, octet_length(data) AS size,
            (SELECT count(*)::int FROM import_upload_pieces WHERE upload_id = u.id) AS pieces
       FROM import_uploads u WHERE event_id = $1 AND id = $2`,
    [eventId, id],
  );
  if (!row) return null;
  const parts: Buffer[] = [];
  // A file stored before migration 0031 holds its bytes in `data`, read 256 KB per statement.
  for (let at = 0; at < row.size; at += FILE_PIECE) {
    if (at) await yieldToLoop();
    const [piece] = await sql.query<{ data: Uint8Array }>(
      'SELECT substring(data from $2 for $3) AS data FROM import_uploads WHERE id = $1',
      [id, at + 1, FILE_PIECE],
    );
    parts.push(Buffer.from(piece!.data));
  }
  for (let position = 0; position < row.pieces; position++) {
    if (position || parts.length) await yieldToLoop();
    const [piece] = await sql.query<{ data: Uint8Array }>(
      'SELECT data FROM import_upload_pieces WHERE upload_id = $1 AND position = $2',
      [id, position],
    );
    if (piece) parts.push(Buffer.from(piece.data));
  }
  const { size: _size, pieces: _pieces, ...found } = row;
  return { ...found, data: Buffer.concat(parts) };
}

export async function setBibRange(sql: Sql, raceId: string, first: number, last: number) {
  await sql.query(
    `INSERT INTO bib_ranges (race_id, first_bib, last_bib) VALUES ($1, $2, $3)
     ON CONFLICT (race_id) DO UPDATE SET first_bib = EXCLUDED.first_bib, last_bib = EXCLUDED.last_bib`,
    [raceId, first, last],
  );
}

/**
 * Gives the race's runners without a bib the free bibs of [first, last] in order, runners taken
 * by name (last, first) so a start list reads naturally. Returns who got which bib.
 */
export async function assignBibs(
  sql: Sql,
  raceId: string,
  first: number,
  last: number,
): Promise<{ assigned: { id: string; bib: string }[]; left: number }> {
  const rows = await sql.query<{ id: string; bib: string }>(
    `WITH free AS (
       SELECT n::text AS bib, row_number() OVER (ORDER BY n) AS k FROM generate_series($2::int, $3::int) n
        WHERE NOT EXISTS (SELECT 1 FROM participants q WHERE q.race_id = $1 AND q.bib = n::text AND q.deleted_at IS NULL)
     ), waiting AS (
       SELECT id, row_number() OVER (ORDER BY lower(last_name), lower(first_name), id) AS k FROM participants
        WHERE race_id = $1 AND bib IS NULL AND deleted_at IS NULL
     )
     UPDATE participants p SET bib = free.bib FROM waiting JOIN free ON free.k = waiting.k
      WHERE p.id = waiting.id RETURNING p.id, p.bib`,
    [raceId, first, last],
  );
  const [left] = await sql.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM participants WHERE race_id = $1 AND bib IS NULL AND deleted_at IS NULL',
    [raceId],
  );
  return { assigned: rows, left: left?.n ?? 0 };
}

/** Bibs and chips of a race's runners (for a chip file). */
export async function bibsAndChips(sql: Sql, raceId: string) {
  return sql.query<{ id: string; bib: string; chips: string[] }>(
    'SELECT id, bib, chips FROM participants WHERE race_id = $1 AND bib IS NOT NULL AND deleted_at IS NULL',
    [raceId],
  );
}

export async function setChips(sql: Sql, rows: readonly { id: string; chips: string[] }[]) {
  if (!rows.length) return;
  await sql.query(
    `UPDATE participants p SET chips = CASE WHEN u.chips = '' THEN '{}'::text[] ELSE string_to_array(u.chips, ',') END
       FROM unnest($1::uuid[], $2::text[]) AS u(id, chips) WHERE p.id = u.id`,
    [rows.map((r) => r.id), rows.map((r) => r.chips.join(','))],
  );
}

/**
 * Hides or shows runners' names in public views (issue 40, the runner's choice): only rows of
 * `accountId` (a runner hides their own results, never another's), `ids` null for all of them.
 * Answers the contexts whose results changed (each must reload; the update bumped their
 * results_stamp, 0043). The participants module stays the one writer of participants.
 */
export async function setNameHidden(
  sql: Sql,
  accountId: string,
  ids: readonly string[] | null,
  hidden: boolean,
): Promise<string[]> {
  const rows = await sql.query<{ db: string }>(
    `WITH changed AS (
       UPDATE participants SET name_hidden = $2
        WHERE account_id = $1 AND name_hidden <> $2 ${ids === null ? '' : 'AND id = ANY($3::uuid[])'}
       RETURNING race_id)
     SELECT DISTINCT r.db FROM changed c JOIN races r ON r.id = c.race_id`,
    ids === null ? [accountId, hidden] : [accountId, hidden, ids],
  );
  return rows.map((r) => r.db);
}

/**
 * Links a participant to an account (issue 40: a claim proven by its code or decided by the
 * organiser; issue 38's entries set it at once), when no account has it yet. The account's
 * "hide my name everywhere" reaches it at once. Answers the participant's context, or null when it
 * was already someone's (nothing changed).
 */
export async function linkAccount(
  sql: Sql,
  participantId: string,
  accountId: string,
): Promise<string | null> {
  const [row] = await sql.query<{ db: string }>(
    `WITH linked AS (
       UPDATE participants p SET account_id = $2,
              name_hidden = p.name_hidden OR coalesce((SELECT u.hide_results FROM users u WHERE u.sub = $2), false)
        WHERE p.id = $1 AND p.account_id IS NULL AND p.deleted_at IS NULL
       RETURNING p.race_id)
     SELECT r.db FROM linked l JOIN races r ON r.id = l.race_id`,
    [participantId, accountId],
  );
  return row?.db ?? null;
}
