import type { AuditEntry, RacedayAuditEntry } from '@tempora/contracts';
import type { Sql } from '../../db/database.ts';
import { findAuditByRef, listAudit as listTrail, recordAudit } from '../../lib/audit.ts';

/** SQL of the passings desk: reads as the desk lists them, the audit log, participant updates. */

export interface DeskReadRow {
  seq: number;
  id: string;
  bib: string | null;
  chip: string | null;
  pointKey: string;
  timeMs: number;
  source: 'decoder' | 'manual' | 'import';
  deviceId: string | null;
  createdBy: string | null;
  receivedAt: string;
  voided: boolean;
}

export interface DeskFilter {
  point?: string | undefined;
  device?: string | undefined;
  bib?: string | undefined;
  /** Reads stored before this seq (paging back in time). */
  before?: number | undefined;
  limit: number;
}

/** Reads of a context, newest first, with whether each was voided since. */
export async function listReads(sql: Sql, db: string, f: DeskFilter): Promise<DeskReadRow[]> {
  const where = ['p.db = $1', 'NOT p.deleted'];
  const params: unknown[] = [db];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    where.push(clause.replaceAll('?', `$${params.length}`));
  };
  if (f.point) add('p.point_key = ?', f.point);
  if (f.device) add('p.device_id = ?::uuid', f.device);
  // A bib finds its reads by bib and by every chip its participant wears (chip-only reads).
  if (f.bib)
    add(
      `(p.bib = ? OR p.chip = ? OR p.chip IN (SELECT unnest(pa.chips) FROM participants pa
         JOIN races r ON r.id = pa.race_id WHERE r.db = p.db AND pa.bib = ?))`,
      f.bib,
    );
  if (f.before) add('p.seq < ?', f.before);
  params.push(f.limit);
  return sql.query<DeskReadRow>(
    `SELECT p.seq::float8 AS seq, p.passing_id AS id, p.bib, p.chip, p.point_key AS "pointKey",
            p.time_ms::float8 AS "timeMs", p.source, p.device_id AS "deviceId", p.created_by AS "createdBy",
            to_char(p.received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "receivedAt",
            EXISTS (SELECT 1 FROM passings v WHERE v.db = p.db AND v.passing_id = p.passing_id AND v.deleted) AS voided
       FROM passings p WHERE ${where.join(' AND ')} ORDER BY p.seq DESC LIMIT $${params.length}`,
    params,
  );
}

/** One stored read by id (its live copy), with whether it is voided. */
export async function findRead(sql: Sql, db: string, id: string): Promise<DeskReadRow | null> {
  const rows = await sql.query<DeskReadRow>(
    `SELECT p.seq::float8 AS seq, p.passing_id AS id, p.bib, p.chip, p.point_key AS "pointKey",
            p.time_ms::float8 AS "timeMs", p.source, p.device_id AS "deviceId", p.created_by AS "createdBy",
            to_char(p.received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "receivedAt",
            EXISTS (SELECT 1 FROM passings v WHERE v.db = p.db AND v.passing_id = p.passing_id AND v.deleted) AS voided
       FROM passings p WHERE p.db = $1 AND p.passing_id = $2 AND NOT p.deleted`,
    [db, id],
  );
  return rows[0] ?? null;
}

export type AuditRow = RacedayAuditEntry;

/** A desk correction, recorded in the one trail (`lib/audit.ts`): scope is the context, ref the undo handle. */
export async function insertAudit(
  sql: Sql,
  row: {
    id: string;
    db: string;
    action: string;
    passingId?: string | null;
    bib?: string | null;
    raceId?: string | null;
    before?: unknown;
    after?: unknown;
    reason: string;
    actor: string | null;
    undoOf?: string | null;
  },
) {
  await recordAudit(sql, [
    {
      subject: 'passing',
      subjectId: row.passingId ?? row.bib ?? '',
      scope: row.db,
      ref: row.id,
      action: row.action,
      actorSub: row.actor,
      undoOf: row.undoOf ?? null,
      detail: {
        passingId: row.passingId ?? null,
        bib: row.bib ?? null,
        raceId: row.raceId ?? null,
        before: row.before ?? null,
        after: row.after ?? null,
        reason: row.reason,
      },
    },
  ]);
}

/** The trail's entry in the desk's shape. */
function deskRow(e: AuditEntry): AuditRow {
  const d = e.detail as {
    passingId?: string | null;
    bib?: string | null;
    raceId?: string | null;
    before?: unknown;
    after?: unknown;
    reason?: string;
  };
  return {
    id: e.id,
    action: e.action,
    passingId: d.passingId ?? null,
    bib: d.bib ?? null,
    raceId: d.raceId ?? null,
    before: d.before ?? null,
    after: d.after ?? null,
    reason: d.reason ?? '',
    actor: e.actorSub,
    actorEmail: e.actorEmail || null,
    undoOf: e.undoOf,
    undoneBy: e.undoneBy,
    at: e.at,
  };
}

export async function listAudit(sql: Sql, db: string, limit: number): Promise<AuditRow[]> {
  const rows = await listTrail(sql, { subject: 'passing', scope: db, limit });
  return rows.map(deskRow);
}

export async function findAudit(sql: Sql, db: string, id: string): Promise<AuditRow | null> {
  const entry = await findAuditByRef(sql, db, id);
  return entry && deskRow(entry);
}

/** Reads whose chip or bib is no participant's (grouped; the caller filters with the live state). */
export async function readRunners(
  sql: Sql,
  db: string,
): Promise<
  { chip: string | null; bib: string | null; reads: number; lastTimeMs: number; pointKey: string }[]
> {
  return sql.query(
    `SELECT chip, bib, count(*)::float8 AS reads, max(time_ms)::float8 AS "lastTimeMs", max(point_key) AS "pointKey"
       FROM passings WHERE db = $1 AND NOT deleted GROUP BY chip, bib`,
    [db],
  );
}
