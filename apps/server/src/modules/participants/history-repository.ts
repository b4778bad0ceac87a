import type { ImportHistoryEntry, ImportUndoBlocker, RefusedRow } from '@tempora/contracts';
import type { Sql } from '../../db/database.ts';

/**
 * SQL of the participant imports' history (issue 29, migration 0037): one row per committed
 * import with the rows it refused, and per runner what it did (created, or fields changed with
 * their values before) so that an undo can reverse it.
 */

export async function insertImport(
  sql: Sql,
  row: {
    eventId: string;
    raceId: string;
    fileName: string;
    header: readonly string[];
    refused: readonly RefusedRow[];
    imported: number;
    total: number;
    actor: { sub: string | null; email: string };
  },
): Promise<string> {
  const [out] = await sql.query<{ id: string }>(
    `INSERT INTO participant_imports (event_id, race_id, file_name, header, refused, imported, total, actor_sub, actor_email)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7, $8, $9) RETURNING id`,
    [
      row.eventId,
      row.raceId,
      row.fileName,
      JSON.stringify(row.header),
      JSON.stringify(row.refused),
      row.imported,
      row.total,
      row.actor.sub,
      row.actor.email,
    ],
  );
  return out!.id;
}

/** Records the runners an import created (found by their tracking keys). */
export async function addCreated(sql: Sql, importId: string, trackingKeys: readonly string[]) {
  await sql.query(
    `INSERT INTO participant_import_items (import_id, participant_id)
     SELECT $1, id FROM participants WHERE tracking_key = ANY($2::text[])`,
    [importId, trackingKeys],
  );
}

/** Records the runners an import changed, each with its fields as they were before. */
export async function addChanged(
  sql: Sql,
  importId: string,
  rows: readonly { id: string; previous: Record<string, unknown> }[],
) {
  if (!rows.length) return;
  await sql.query(
    `INSERT INTO participant_import_items (import_id, participant_id, previous)
     SELECT $1, u.id, u.previous::jsonb FROM unnest($2::uuid[], $3::text[]) AS u(id, previous)`,
    [importId, rows.map((r) => r.id), rows.map((r) => JSON.stringify(r.previous))],
  );
}

const ENTRY = `SELECT i.id, i.file_name AS "fileName", i.race_id AS "raceId", COALESCE(r.name, i.race_id) AS "raceName",
       i.imported, jsonb_array_length(i.refused) AS refused, i.total, i.actor_email AS "actorEmail",
       to_char(i.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS at,
       to_char(i.undone_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "undoneAt",
       i.undone_by AS "undoneBy"
  FROM participant_imports i LEFT JOIN races r ON r.id = i.race_id`;

/** The event's imports, newest first (the last 200). */
export async function listImports(sql: Sql, eventId: string): Promise<ImportHistoryEntry[]> {
  return sql.query<ImportHistoryEntry>(`${ENTRY} WHERE i.event_id = $1 ORDER BY i.at DESC, i.id LIMIT 200`, [
    eventId,
  ]);
}

export async function findImport(
  sql: Sql,
  eventId: string,
  id: string,
): Promise<(ImportHistoryEntry & { header: string[]; rows: RefusedRow[] }) | null> {
  const [row] = await sql.query<ImportHistoryEntry & { header: string[]; rows: RefusedRow[] }>(
    `${ENTRY.replace('SELECT ', 'SELECT i.header, i.refused AS rows, ')} WHERE i.event_id = $1 AND i.id = $2`,
    [eventId, id],
  );
  return row ?? null;
}

/**
 * Runners the import created (still there) that something else now refers to, by kind: results
 * (a passing of their bib or chip, or a status set on race day), payments (a team entry holding
 * their bib), a confirmation document's row. Up to 20 names per kind, with the count.
 */
export async function undoBlockers(
  sql: Sql,
  importId: string,
): Promise<{ kind: ImportUndoBlocker; count: number; names: string[] }[]> {
  return sql.query(
    `WITH mine AS (
       SELECT p.id, p.race_id, p.bib, p.chips, p.status, r.db,
              trim(coalesce(p.bib || ' ', '') || p.first_name || ' ' || p.last_name) AS name
         FROM participant_import_items i JOIN participants p ON p.id = i.participant_id
         JOIN races r ON r.id = p.race_id
        WHERE i.import_id = $1 AND i.previous IS NULL AND p.deleted_at IS NULL
     ), hit AS (
       SELECT 'results' AS kind, m.name FROM mine m
        WHERE m.status <> 'registered' OR EXISTS (
          SELECT 1 FROM passings x WHERE x.db = m.db AND NOT x.deleted
             AND ((m.bib IS NOT NULL AND x.bib = m.bib) OR x.chip = ANY(m.chips)))
       UNION ALL
       SELECT 'payments', m.name FROM mine m
        WHERE m.bib IS NOT NULL AND EXISTS (
          SELECT 1 FROM deposit_entries e WHERE e.race_id = m.race_id AND e.bib = m.bib AND e.state <> 'cancelled')
       UNION ALL
       SELECT 'confirmation', m.name FROM mine m
        WHERE EXISTS (SELECT 1 FROM confirmation_rows c WHERE c.participant_id = m.id)
     )
     SELECT kind, count(*)::int AS count, (array_agg(name ORDER BY name))[1:20] AS names
       FROM hit GROUP BY kind ORDER BY kind`,
    [importId],
  );
}

/** What the import did, runner by runner, among the runners still there. */
export async function itemsOf(sql: Sql, importId: string) {
  return sql.query<{ id: string; raceId: string; previous: Record<string, unknown> | null }>(
    `SELECT p.id, p.race_id AS "raceId", i.previous
       FROM participant_import_items i JOIN participants p ON p.id = i.participant_id
      WHERE i.import_id = $1 AND p.deleted_at IS NULL`,
    [importId],
  );
}

/** Soft-deletes runners (the import's own: they go as a manual delete would). */
export async function softDeleteMany(sql: Sql, ids: readonly string[]) {
  if (!ids.length) return;
  await sql.query('UPDATE participants SET deleted_at = now() WHERE id = ANY($1::uuid[])', [ids]);
}

/** Marks an import undone; false when it already was (two undos racing: one wins). */
export async function markUndone(sql: Sql, importId: string, by: string): Promise<boolean> {
  const rows = await sql.query(
    'UPDATE participant_imports SET undone_at = now(), undone_by = $2 WHERE id = $1 AND undone_at IS NULL RETURNING id',
    [importId, by],
  );
  return rows.length > 0;
}
