import type { AuditEntry, AuditSubject } from '@tempora/contracts';
import type { Sql } from '../db/database.ts';

/**
 * The one audit trail (issue 30, table `audit_trail`, migration 0045): every module records and
 * lists its entries here. Many entries go in one statement (unnest), never row by row.
 */
export interface AuditRecord {
  subject: AuditSubject;
  subjectId: string;
  action: string;
  /** The list the entry belongs to beyond its subject (the desk's context db, a participant's race). */
  scope?: string | null;
  /** The writer's own id for the entry (a uuid: the desk's undo handle). */
  ref?: string | null;
  eventId?: string | null;
  /** Taken from the event when absent. */
  organisationId?: string | null;
  actorSub?: string | null;
  /** Taken from the user `actorSub` names when absent. */
  actorEmail?: string | null;
  detail?: Record<string, unknown>;
  /** The desk's undo: the ref of the entry this one reverses (which gets `undone_by` set). */
  undoOf?: string | null;
}

/** Records entries in one statement (two when one of them undoes another). */
export async function recordAudit(sql: Sql, entries: readonly AuditRecord[]): Promise<void> {
  if (!entries.length) return;
  const col = <T>(f: (e: AuditRecord) => T | null | undefined) => entries.map((e) => f(e) ?? null);
  await sql.query(
    `INSERT INTO audit_trail (ref, organisation_id, event_id, subject, subject_id, scope, action, actor_sub,
                              actor_email, detail, undo_of)
     SELECT u.ref::uuid, coalesce(u.org::uuid, e.organisation_id), u.event, u.subject, u.subject_id, u.scope,
            u.action, u.actor_sub, coalesce(nullif(u.actor_email, ''), us.email, ''), coalesce(u.detail::jsonb, '{}'::jsonb), u.undo_of::uuid
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                   $9::text[], $10::text[], $11::text[])
            WITH ORDINALITY AS u(ref, org, event, subject, subject_id, scope, action, actor_sub, actor_email, detail,
                                 undo_of, n)
       LEFT JOIN events e ON e.id = u.event
       LEFT JOIN users us ON us.sub = CASE WHEN u.actor_sub ~* '^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$'
                                           THEN u.actor_sub::uuid END
      ORDER BY u.n`,
    [
      col((e) => e.ref),
      col((e) => e.organisationId),
      col((e) => e.eventId),
      col((e) => e.subject),
      col((e) => e.subjectId),
      col((e) => e.scope),
      col((e) => e.action),
      col((e) => e.actorSub),
      col((e) => e.actorEmail),
      col((e) => (e.detail === undefined ? null : JSON.stringify(e.detail))),
      col((e) => e.undoOf),
    ],
  );
  const undos = entries.filter((e) => e.undoOf && e.ref);
  if (undos.length)
    await sql.query(
      `UPDATE audit_trail a SET undone_by = u.ref::uuid
         FROM unnest($1::text[], $2::text[]) AS u(ref, undo_of) WHERE a.ref = u.undo_of::uuid`,
      [undos.map((e) => e.ref), undos.map((e) => e.undoOf)],
    );
}

/** The columns of an entry as `AuditEntry` (alias `a`). */
export const AUDIT_COLUMNS = `coalesce(a.ref::text, a.id::text) AS id, a.subject, a.subject_id AS "subjectId", a.action,
  a.actor_sub AS "actorSub", a.actor_email AS "actorEmail", a.detail, a.undo_of::text AS "undoOf",
  a.undone_by::text AS "undoneBy", to_char(a.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at`;

export interface AuditQuery {
  subject: AuditSubject;
  subjectId?: string;
  scope?: string;
  eventId?: string;
  organisationId?: string;
  /** Newest first; at most this many. */
  limit: number;
}

/** Entries of a subject (one participant, one document), a scope (a desk's context) or an event, newest first. */
export async function listAudit(sql: Sql, q: AuditQuery): Promise<AuditEntry[]> {
  const where = ['a.subject = $1'];
  const params: unknown[] = [q.subject];
  const add = (column: string, value: string | undefined) => {
    if (value === undefined) return;
    params.push(value);
    where.push(`a.${column} = $${params.length}`);
  };
  add('subject_id', q.subjectId);
  add('scope', q.scope);
  add('event_id', q.eventId);
  add('organisation_id', q.organisationId);
  params.push(q.limit);
  // The desk's log is ordered by time (its entries' ids are uuids); ids follow time otherwise.
  const order = q.scope === undefined ? 'a.id DESC' : 'a.at DESC, a.id DESC';
  return sql.query<AuditEntry>(
    `SELECT ${AUDIT_COLUMNS} FROM audit_trail a WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT $${params.length}`,
    params,
  );
}

/** One entry by the ref its writer gave it (the desk's undo handle), within a scope. */
export async function findAuditByRef(sql: Sql, scope: string, ref: string): Promise<AuditEntry | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref)) return null;
  const rows = await sql.query<AuditEntry>(
    `SELECT ${AUDIT_COLUMNS} FROM audit_trail a WHERE a.scope = $1 AND a.ref = $2::uuid`,
    [scope, ref],
  );
  return rows[0] ?? null;
}
