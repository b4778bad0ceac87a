import type {
  DocumentRowIssue,
  DocumentStatus,
  DuplicateLink,
  HistoryEntry,
  RaceSettings,
  RowDecision,
  SenderKind,
  VersionDiff,
} from '@tempora/contracts';
import type { AgeBasis, CategoryDef } from '@tempora/domain';
import type { Sql } from '../../db/database.ts';
import { listAudit, recordAudit } from '../../lib/audit.ts';
import { setBibRange } from '../participants/port.ts';
import type { Fields } from './validate.ts';

/**
 * SQL of the confirmation module. Rows are written in bulk over `unnest` arrays and read in pages,
 * 250 per statement with a turn of the event loop between: PGlite runs a statement on the main
 * thread, so a 5,000-row statement would hold every other request (`/api/health` included) for
 * its whole length; jsonb travels as text and is cast in SQL.
 */

const CHUNK = 250;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

async function inChunks<T>(items: readonly T[], fn: (part: T[]) => Promise<unknown>) {
  for (let k = 0; k < items.length; k += CHUNK) {
    await fn(items.slice(k, k + CHUNK));
    if (k + CHUNK < items.length) await yieldToLoop();
  }
}

export interface DocumentRecord {
  id: string;
  eventId: string;
  eventName: string;
  organisationId: string;
  title: string;
  senderName: string;
  senderKind: SenderKind;
  contactName: string;
  contactEmail: string;
  defaultRaceId: string | null;
  status: DocumentStatus;
  version: number;
  rowsVersion: number;
  sheet: string | null;
  /** Each sheet of the current file with its header row. */
  sheets: { name: string; headers: string[] }[];
  headers: string[];
  mapping: Fields;
  diff: VersionDiff | null;
  rejectReason: string | null;
  receivedOn: string;
  updatedAt: string;
}

const DOCUMENT_COLUMNS = `d.id, d.event_id AS "eventId", e.name AS "eventName", e.organisation_id AS "organisationId",
  d.title, d.sender_name AS "senderName", d.sender_kind AS "senderKind", d.contact_name AS "contactName",
  d.contact_email AS "contactEmail", d.default_race_id AS "defaultRaceId", d.status, d.version,
  d.rows_version AS "rowsVersion", d.sheet, d.sheets, d.headers, d.mapping, d.diff, d.reject_reason AS "rejectReason",
  to_char(d.received_on, 'YYYY-MM-DD') AS "receivedOn", d.updated_at AS "updatedAt"`;

const toIso = (d: DocumentRecord) => ({ ...d, updatedAt: new Date(d.updatedAt).toISOString() });

export async function findDocument(sql: Sql, id: string): Promise<DocumentRecord | null> {
  const rows = await sql.query<DocumentRecord>(
    `SELECT ${DOCUMENT_COLUMNS} FROM confirmation_documents d JOIN events e ON e.id = d.event_id WHERE d.id = $1`,
    [id],
  );
  return rows[0] ? toIso(rows[0]) : null;
}

/** Documents, optionally only those of some organisations, an event, a status, or matching `q`. */
export async function listDocuments(
  sql: Sql,
  filter: {
    organisationIds: string[] | null;
    eventId?: string | undefined;
    status?: string | undefined;
    q: string;
  },
): Promise<DocumentRecord[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    where.push(clause.replace('?', `$${params.length}`));
  };
  if (filter.organisationIds) add('e.organisation_id = ANY(?::uuid[])', filter.organisationIds);
  if (filter.eventId) add('d.event_id = ?', filter.eventId);
  if (filter.status) add('d.status = ?', filter.status);
  if (filter.q) {
    add(
      `(d.title ILIKE ? OR d.sender_name ILIKE $${params.length + 1} OR d.contact_email ILIKE $${params.length + 1} OR e.name ILIKE $${params.length + 1})`,
      `%${filter.q.replace(/[\\%_]/g, '\\$&')}%`,
    );
  }
  const rows = await sql.query<DocumentRecord>(
    `SELECT ${DOCUMENT_COLUMNS} FROM confirmation_documents d JOIN events e ON e.id = d.event_id
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY d.updated_at DESC, d.id LIMIT 500`,
    params,
  );
  return rows.map(toIso);
}

export interface RowCounts {
  documentId: string;
  rows: number;
  confirmed: number;
  rejected: number;
  pending: number;
  toFix: number;
  toReview: number;
}

/** Row counts per document (to fix: pending with an error; to review: pending with warnings only). */
export async function countsOf(sql: Sql, documentIds: string[]): Promise<Map<string, RowCounts>> {
  const rows = await sql.query<RowCounts>(
    `SELECT document_id AS "documentId", count(*)::int AS rows,
            count(*) FILTER (WHERE decision = 'confirmed')::int AS confirmed,
            count(*) FILTER (WHERE decision = 'rejected')::int AS rejected,
            count(*) FILTER (WHERE decision = 'pending')::int AS pending,
            count(*) FILTER (WHERE decision = 'pending' AND issues @> '[{"severity":"error"}]')::int AS "toFix",
            count(*) FILTER (WHERE decision = 'pending' AND issues <> '[]'::jsonb
                             AND NOT issues @> '[{"severity":"error"}]')::int AS "toReview"
       FROM confirmation_rows WHERE document_id = ANY($1::uuid[]) GROUP BY document_id`,
    [documentIds],
  );
  return new Map(rows.map((r) => [r.documentId, r]));
}

/** Confirmed rows per document and race (for fees). */
/** The reason of a row confirmed by merging it into a runner registered before (billed already). */
export const MERGED = 'merged';

/**
 * The rows of documents that are billed, by race: confirmed ones, except those merged into a
 * runner registered before (issue 29: not billed twice).
 */
export async function billedByRace(sql: Sql, documentIds: string[]) {
  return sql.query<{ documentId: string; raceId: string; count: number }>(
    `SELECT document_id AS "documentId", participant_race_id AS "raceId", count(*)::int AS count
       FROM confirmation_rows WHERE document_id = ANY($1::uuid[]) AND decision = 'confirmed'
        AND reason IS DISTINCT FROM $2
      GROUP BY 1, 2`,
    [documentIds, MERGED],
  );
}

export async function insertDocument(
  sql: Sql,
  doc: {
    eventId: string;
    title: string;
    senderName: string;
    senderKind: SenderKind;
    contactName: string;
    contactEmail: string;
    defaultRaceId: string | null;
    createdBy: string;
  },
): Promise<string> {
  const rows = await sql.query<{ id: string }>(
    `INSERT INTO confirmation_documents (event_id, title, sender_name, sender_kind, contact_name, contact_email, default_race_id, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      doc.eventId,
      doc.title,
      doc.senderName,
      doc.senderKind,
      doc.contactName,
      doc.contactEmail,
      doc.defaultRaceId,
      doc.createdBy,
    ],
  );
  return rows[0]!.id;
}

const JSON_COLUMNS = new Set(['sheets', 'headers', 'mapping', 'diff']);
const COLUMN_NAMES: Record<string, string> = {
  defaultRaceId: 'default_race_id',
  rowsVersion: 'rows_version',
  rejectReason: 'reject_reason',
};

/** Changes some columns of a document (and its `updated_at`). */
export async function updateDocument(
  sql: Sql,
  id: string,
  patch: Partial<
    Pick<
      DocumentRecord,
      | 'status'
      | 'version'
      | 'rowsVersion'
      | 'sheet'
      | 'sheets'
      | 'headers'
      | 'mapping'
      | 'diff'
      | 'rejectReason'
      | 'defaultRaceId'
    >
  >,
) {
  const sets: string[] = [];
  const params: unknown[] = [id];
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    params.push(JSON_COLUMNS.has(key) && value !== null ? JSON.stringify(value) : value);
    sets.push(`${COLUMN_NAMES[key] ?? key} = $${params.length}${JSON_COLUMNS.has(key) ? '::jsonb' : ''}`);
  }
  await sql.query(
    `UPDATE confirmation_documents SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1`,
    params,
  );
}

export async function insertFile(
  sql: Sql,
  file: {
    documentId: string;
    version: number;
    name: string;
    kind: 'csv' | 'xlsx';
    content: Buffer;
    cells: unknown;
    by: string;
  },
) {
  await sql.query(
    `INSERT INTO confirmation_files (document_id, version, name, kind, content, cells, uploaded_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [file.documentId, file.version, file.name, file.kind, file.content, JSON.stringify(file.cells), file.by],
  );
}

export async function fileCells(sql: Sql, documentId: string, version: number) {
  const rows = await sql.query<{ cells: string }>(
    'SELECT cells FROM confirmation_files WHERE document_id = $1 AND version = $2',
    [documentId, version],
  );
  return rows[0] ? (JSON.parse(rows[0].cells) as Record<string, string[][]>) : null;
}

export interface RowRecord {
  id: string;
  position: number;
  raw: string[];
  fields: Fields;
  issues: DocumentRowIssue[];
  duplicateOf: DuplicateLink | null;
  category: string | null;
  decision: RowDecision;
  reason: string | null;
  participantId: string | null;
  participantRaceId: string | null;
  participantBib: string | null;
  change: 'added' | 'changed' | 'unchanged' | 'removed' | null;
}

/** Every row of a document in order, read by pages (see CHUNK). */
export async function rowsOf(sql: Sql, documentId: string): Promise<RowRecord[]> {
  const out: RowRecord[] = [];
  for (;;) {
    const page = await sql.query<RowRecord>(
      `SELECT id, position, raw, fields, issues, duplicate_of AS "duplicateOf", category, decision, reason,
              participant_id AS "participantId", participant_race_id AS "participantRaceId", participant_bib AS "participantBib", change
         FROM confirmation_rows WHERE document_id = $1 AND position > $2 ORDER BY position LIMIT ${CHUNK}`,
      [documentId, out.length ? out[out.length - 1]!.position : 0],
    );
    out.push(...page);
    if (page.length < CHUNK) return out;
    await yieldToLoop();
  }
}

/** Replaces every row of a document (a new file version or mapping). */
export async function replaceRows(
  sql: Sql,
  documentId: string,
  rows: readonly Omit<RowRecord, 'id' | 'issues' | 'duplicateOf' | 'category'>[],
) {
  await sql.query('DELETE FROM confirmation_rows WHERE document_id = $1', [documentId]);
  await inChunks(rows, (part) =>
    sql.query(
      `INSERT INTO confirmation_rows (document_id, position, raw, fields, decision, reason, participant_id, participant_race_id, participant_bib, change)
       SELECT $1, u.position, u.raw::jsonb, u.fields::jsonb, u.decision, u.reason, u.pid, u.race, u.bib, u.change
         FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::uuid[], $8::text[], $9::text[], $10::text[])
           AS u(position, raw, fields, decision, reason, pid, race, bib, change)`,
      [
        documentId,
        part.map((r) => r.position),
        part.map((r) => JSON.stringify(r.raw)),
        part.map((r) => JSON.stringify(r.fields)),
        part.map((r) => r.decision),
        part.map((r) => r.reason),
        part.map((r) => r.participantId),
        part.map((r) => r.participantRaceId),
        part.map((r) => r.participantBib),
        part.map((r) => r.change),
      ],
    ),
  );
}

/** Stores the validation verdicts of rows. */
export async function saveVerdicts(
  sql: Sql,
  verdicts: readonly {
    id: string;
    issues: DocumentRowIssue[];
    duplicateOf: DuplicateLink | null;
    category: string | null;
  }[],
) {
  await inChunks(verdicts, (part) =>
    sql.query(
      `UPDATE confirmation_rows r SET issues = u.issues::jsonb, duplicate_of = u.dup::jsonb, category = u.category
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) AS u(id, issues, dup, category)
        WHERE r.id = u.id`,
      [
        part.map((v) => v.id),
        part.map((v) => JSON.stringify(v.issues)),
        part.map((v) => (v.duplicateOf ? JSON.stringify(v.duplicateOf) : null)),
        part.map((v) => v.category),
      ],
    ),
  );
}

/** Writes rows' editable state (fields, decision, reason, participant link). */
export async function saveRowStates(
  sql: Sql,
  rows: readonly Pick<
    RowRecord,
    'id' | 'fields' | 'decision' | 'reason' | 'participantId' | 'participantRaceId' | 'participantBib'
  >[],
) {
  await inChunks(rows, (part) =>
    sql.query(
      `UPDATE confirmation_rows r SET fields = u.fields::jsonb, decision = u.decision, reason = u.reason,
              participant_id = u.pid, participant_race_id = u.race, participant_bib = u.bib
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::uuid[], $6::text[], $7::text[])
           AS u(id, fields, decision, reason, pid, race, bib)
        WHERE r.id = u.id`,
      [
        part.map((r) => r.id),
        part.map((r) => JSON.stringify(r.fields)),
        part.map((r) => r.decision),
        part.map((r) => r.reason),
        part.map((r) => r.participantId),
        part.map((r) => r.participantRaceId),
        part.map((r) => r.participantBib),
      ],
    ),
  );
}

export async function addHistory(
  sql: Sql,
  entry: { documentId: string; actorSub: string | null; actorEmail: string; action: string; detail: object },
) {
  await recordAudit(sql, [
    {
      subject: 'confirmation',
      subjectId: entry.documentId,
      action: entry.action,
      actorSub: entry.actorSub,
      actorEmail: entry.actorEmail,
      detail: entry.detail as Record<string, unknown>,
    },
  ]);
}

export async function historyOf(sql: Sql, documentId: string): Promise<HistoryEntry[]> {
  const rows = await listAudit(sql, { subject: 'confirmation', subjectId: documentId, limit: 200 });
  return rows.map((r) => ({
    id: Number(r.id),
    at: r.at,
    actorEmail: r.actorEmail,
    action: r.action,
    detail: r.detail,
  }));
}

/** Pushes an undo entry: the rows as they were before an edit. */
export async function pushEdit(sql: Sql, documentId: string, before: unknown[]) {
  await sql.query('INSERT INTO confirmation_edits (document_id, before) VALUES ($1, $2::jsonb)', [
    documentId,
    JSON.stringify(before),
  ]);
}

/** Pops the latest edit not yet undone (marks it undone). */
export async function popEdit<T>(sql: Sql, documentId: string): Promise<T[] | null> {
  const rows = await sql.query<{ id: number; before: T[] }>(
    `UPDATE confirmation_edits SET undone = true
      WHERE id = (SELECT max(id) FROM confirmation_edits WHERE document_id = $1 AND NOT undone)
      RETURNING id, before`,
    [documentId],
  );
  return rows[0]?.before ?? null;
}

export async function hasEdits(sql: Sql, documentId: string): Promise<boolean> {
  const rows = await sql.query(
    'SELECT 1 FROM confirmation_edits WHERE document_id = $1 AND NOT undone LIMIT 1',
    [documentId],
  );
  return rows.length > 0;
}

/** Forgets the undo stack (a new file, a confirmation: what came before cannot be undone). */
export async function clearEdits(sql: Sql, documentId: string) {
  await sql.query('UPDATE confirmation_edits SET undone = true WHERE document_id = $1 AND NOT undone', [
    documentId,
  ]);
}

export async function mappingOf(sql: Sql, senderKey: string): Promise<Fields> {
  const rows = await sql.query<{ mapping: Fields }>(
    'SELECT mapping FROM confirmation_mappings WHERE sender_key = $1',
    [senderKey],
  );
  return rows[0]?.mapping ?? {};
}

export async function rememberMapping(sql: Sql, senderKey: string, mapping: Fields) {
  await sql.query(
    `INSERT INTO confirmation_mappings (sender_key, mapping) VALUES ($1, $2::jsonb)
     ON CONFLICT (sender_key) DO UPDATE SET mapping = EXCLUDED.mapping, updated_at = now()`,
    [senderKey, JSON.stringify(mapping)],
  );
}

export interface RaceRecord {
  id: string;
  eventId: string;
  organisationId: string;
  name: string;
  date: string;
  categories: CategoryDef[];
  ageBasis: AgeBasis;
  participants: number;
  settings: RaceSettings;
}

/** The races of some events with their participant counts and confirmation settings. */
export async function racesOfEvents(sql: Sql, eventIds: string[]): Promise<RaceRecord[]> {
  const rows = await sql.query<Omit<RaceRecord, 'settings'> & Record<string, unknown>>(
    `SELECT r.id, c.event_id AS "eventId", e.organisation_id AS "organisationId", r.name,
            to_char(r.race_date, 'YYYY-MM-DD') AS date, r.categories, r.age_basis AS "ageBasis",
            (SELECT count(*)::int FROM participants p WHERE p.race_id = r.id AND p.deleted_at IS NULL) AS participants,
            b.first_bib AS "bibFrom", b.last_bib AS "bibTo", s.capacity, s.tariffs
       FROM races r JOIN contexts c ON c.db = r.db JOIN events e ON e.id = c.event_id
       LEFT JOIN bib_ranges b ON b.race_id = r.id
       LEFT JOIN confirmation_race_settings s ON s.race_id = r.id
      WHERE c.event_id = ANY($1::text[]) ORDER BY c.event_id, c.created_at, r.position, r.id`,
    [eventIds],
  );
  return rows.map(({ bibFrom, bibTo, capacity, tariffs, ...race }) => ({
    ...race,
    settings: {
      bibFrom: (bibFrom as number | null) ?? null,
      bibTo: (bibTo as number | null) ?? null,
      capacity: (capacity as number | null) ?? null,
      tariffs: (tariffs as RaceSettings['tariffs'] | null) ?? [],
    },
  }));
}

export async function findRace(sql: Sql, raceId: string): Promise<RaceRecord | null> {
  const [event] = await sql.query<{ eventId: string }>(
    'SELECT c.event_id AS "eventId" FROM races r JOIN contexts c ON c.db = r.db WHERE r.id = $1',
    [raceId],
  );
  if (!event) return null;
  return (await racesOfEvents(sql, [event.eventId])).find((r) => r.id === raceId) ?? null;
}

/**
 * Stores a race's settings: the bib range in the participants module's `bib_ranges` (one range
 * per race, shared with the console's import), places and tariff in confirmation's own table.
 */
export async function saveRaceSettings(sql: Sql, raceId: string, s: RaceSettings) {
  if (s.bibFrom !== null && s.bibTo !== null) await setBibRange(sql, raceId, s.bibFrom, s.bibTo);
  else await sql.query('DELETE FROM bib_ranges WHERE race_id = $1', [raceId]);
  await sql.query(
    `INSERT INTO confirmation_race_settings (race_id, capacity, tariffs) VALUES ($1, $2, $3::jsonb)
     ON CONFLICT (race_id) DO UPDATE SET capacity = EXCLUDED.capacity, tariffs = EXCLUDED.tariffs`,
    [raceId, s.capacity, JSON.stringify(s.tariffs)],
  );
}

/** Participants of an event's races (read by pages): what duplicates are looked for against. */
export async function participantsOfEvent(sql: Sql, eventId: string) {
  type Person = {
    id: string;
    raceId: string;
    bib: string;
    firstName: string;
    lastName: string;
    birthDate: string | null;
  };
  const out: Person[] = [];
  for (;;) {
    const page = await sql.query<Person>(
      `SELECT p.id, p.race_id AS "raceId", p.bib, p.first_name AS "firstName", p.last_name AS "lastName",
              to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate"
         FROM participants p JOIN races r ON r.id = p.race_id JOIN contexts c ON c.db = r.db
        WHERE c.event_id = $1 AND p.deleted_at IS NULL AND p.id > $2 ORDER BY p.id LIMIT ${CHUNK * 2}`,
      [eventId, out.length ? out[out.length - 1]!.id : '00000000-0000-0000-0000-000000000000'],
    );
    out.push(...page);
    if (page.length < CHUNK * 2) return out;
    await yieldToLoop();
  }
}

/** The ids of a race's participants with these bibs (bib → id). */
export async function participantIds(sql: Sql, raceId: string, bibs: string[]): Promise<Map<string, string>> {
  const rows = await sql.query<{ id: string; bib: string }>(
    'SELECT id, bib FROM participants WHERE race_id = $1 AND bib = ANY($2::text[]) AND deleted_at IS NULL',
    [raceId, bibs],
  );
  return new Map(rows.map((r) => [r.bib, r.id]));
}

/** Bibs taken in some races. */
export async function bibsOf(sql: Sql, raceIds: string[]) {
  return sql.query<{ raceId: string; bib: string }>(
    'SELECT race_id AS "raceId", bib FROM participants WHERE race_id = ANY($1::text[]) AND bib IS NOT NULL AND deleted_at IS NULL',
    [raceIds],
  );
}

/** Rows of the event's other documents that are not rejected (cross-document duplicates). */
export async function otherRowsOfEvent(sql: Sql, eventId: string, documentId: string) {
  return sql.query<{ documentId: string; title: string; id: string; position: number; fields: Fields }>(
    `SELECT d.id AS "documentId", d.title, r.id, r.position, r.fields
       FROM confirmation_rows r JOIN confirmation_documents d ON d.id = r.document_id
      WHERE d.event_id = $1 AND d.id <> $2 AND d.status <> 'rejected' AND r.decision <> 'rejected'`,
    [eventId, documentId],
  );
}
