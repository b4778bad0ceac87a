import type { ReportDefinitionView, ReportField } from '@tempora/contracts';
import { type CategoryDef, categoryReportName } from '@tempora/domain';
import type { Sql } from '../../../db/database.ts';
import type { ReportDefinition } from '../../results/port.ts';

interface Row {
  groupKey: string;
  key: string;
  name: { en: string; fr: string };
  definition: ReportDefinition;
  position: number;
  hidden: boolean;
}

/** Standard category reports start at this position (after the five made with the race). */
const CATEGORY_POSITION = 10;

function toView(r: Row): ReportDefinitionView {
  const d = r.definition;
  return {
    group: r.groupKey,
    key: r.key,
    name: r.name,
    kind: d.kind,
    scope: d.kind === 'ranking' ? d.scope : null,
    filter: {
      ...((d.filter ?? {}) as ReportDefinitionView['filter']),
      ...(d.kind === 'ranking' && d.scope === 'gender' && d.group
        ? { gender: d.group as 'M' | 'F' | 'X' }
        : {}),
      ...(d.kind === 'ranking' && d.scope === 'category' && d.group ? { category: d.group } : {}),
    },
    columns: (d.columns as ReportField[] | undefined) ?? null,
    hidden: r.hidden,
    position: r.position,
    standard: !d.custom,
  };
}

/** The report definitions of a race, in order. */
export async function reportsOfRace(sql: Sql, db: string, raceId: string): Promise<ReportDefinitionView[]> {
  const rows = await sql.query<Row>(
    `SELECT group_key AS "groupKey", key, name, definition, position, hidden FROM reports
      WHERE db = $1 AND definition->>'raceId' = $2 ORDER BY position, key`,
    [db, raceId],
  );
  return rows.map(toView);
}

export async function reportRow(sql: Sql, db: string, raceId: string, key: string): Promise<Row | null> {
  const [row] = await sql.query<Row>(
    `SELECT group_key AS "groupKey", key, name, definition, position, hidden FROM reports
      WHERE db = $1 AND definition->>'raceId' = $2 AND key = $3`,
    [db, raceId, key],
  );
  return row ?? null;
}

export async function insertReport(
  sql: Sql,
  db: string,
  raceId: string,
  report: { key: string; name: { en: string; fr: string }; definition: ReportDefinition; hidden: boolean },
) {
  const [{ p } = { p: 0 }] = await sql.query<{ p: number }>(
    `SELECT coalesce(max(position), -1)::int + 1 AS p FROM reports WHERE db = $1 AND group_key = $2`,
    [db, raceId],
  );
  await sql.query(
    `INSERT INTO reports (db, group_key, key, name, definition, position, hidden) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      db,
      raceId,
      report.key,
      JSON.stringify(report.name),
      JSON.stringify(report.definition),
      p,
      report.hidden,
    ],
  );
}

export async function updateReport(sql: Sql, db: string, row: Row) {
  await sql.query(
    'UPDATE reports SET name = $4, definition = $5, hidden = $6 WHERE db = $1 AND group_key = $2 AND key = $3',
    [db, row.groupKey, row.key, JSON.stringify(row.name), JSON.stringify(row.definition), row.hidden],
  );
}

/** Shows or hides the given reports of a race. */
export async function setReportsHidden(
  sql: Sql,
  db: string,
  raceId: string,
  keys: readonly string[],
  hidden: boolean,
): Promise<void> {
  await sql.query(
    `UPDATE reports SET hidden = $4 WHERE db = $1 AND definition->>'raceId' = $2 AND key = ANY($3::text[])`,
    [db, raceId, keys, hidden],
  );
}

export async function deleteReport(sql: Sql, db: string, groupKey: string, key: string) {
  await sql.query('DELETE FROM reports WHERE db = $1 AND group_key = $2 AND key = $3', [db, groupKey, key]);
}

export async function reorderReports(sql: Sql, db: string, raceId: string, keys: readonly string[]) {
  await sql.query(
    `UPDATE reports r SET position = u.position FROM unnest($3::text[], $4::int[]) AS u(key, position)
      WHERE r.db = $1 AND r.definition->>'raceId' = $2 AND r.key = u.key`,
    [db, raceId, keys, keys.map((_, k) => k)],
  );
}

/**
 * Keeps one standard report per category (`CAT-{id}`, product.md "Reports"): added for a new
 * category, renamed with it, removed with it; an organiser's own reports are left alone.
 */
export async function syncCategoryReports(
  sql: Sql,
  db: string,
  raceId: string,
  categories: readonly CategoryDef[],
) {
  const existing = await sql.query<{ key: string; group: string }>(
    `SELECT key, definition->>'group' AS "group" FROM reports
      WHERE db = $1 AND definition->>'raceId' = $2 AND definition->>'scope' = 'category'
        AND coalesce((definition->>'custom')::boolean, false) = false`,
    [db, raceId],
  );
  const wanted = new Set(categories.map((c) => c.id));
  const gone = existing.filter((r) => !wanted.has(r.group)).map((r) => r.key);
  if (gone.length)
    await sql.query('DELETE FROM reports WHERE db = $1 AND key = ANY($2::text[]) AND group_key = $3', [
      db,
      gone,
      raceId,
    ]);
  await sql.query(
    'INSERT INTO report_groups (db, key, name, position) VALUES ($1, $2, $3, 0) ON CONFLICT DO NOTHING',
    [db, raceId, JSON.stringify({ en: raceId, fr: raceId })],
  );
  const have = new Map(existing.map((r) => [r.group, r.key]));
  for (const [k, c] of categories.entries()) {
    const definition = { kind: 'ranking', raceId, scope: 'category', group: c.id };
    const key = have.get(c.id) ?? `CAT-${c.id}`;
    await sql.query(
      `INSERT INTO reports (db, group_key, key, name, definition, position) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (db, group_key, key) DO UPDATE SET name = EXCLUDED.name`,
      [
        db,
        raceId,
        key,
        JSON.stringify(categoryReportName(c)),
        JSON.stringify(definition),
        CATEGORY_POSITION + k,
      ],
    );
  }
}
