import type { MyResult } from '@tempora/contracts';
import type { Sql } from '../../db/database.ts';

/** SQL of the runner's space (issue 40): reads only; participants are written by their module. */

/** My results: the participants linked to my account, newest race first, across organisations. */
export async function resultsOf(sql: Sql, accountId: string): Promise<MyResult[]> {
  return sql.query<MyResult>(
    `SELECT p.id AS "participantId", e.id AS "eventId", e.name AS "eventName", o.name AS "organisationName",
            r.db, r.id AS "raceId", r.name AS "raceName", to_char(r.race_date, 'YYYY-MM-DD') AS date,
            p.bib, p.first_name AS "firstName", p.last_name AS "lastName", p.tracking_key AS "trackingKey",
            p.name_hidden AS hidden
       FROM participants p JOIN races r ON r.id = p.race_id JOIN contexts c ON c.db = r.db
       JOIN events e ON e.id = c.event_id JOIN organisations o ON o.id = e.organisation_id
      WHERE p.account_id = $1 AND p.deleted_at IS NULL
      ORDER BY r.race_date DESC, r.id`,
    [accountId],
  );
}

/** Whether the account hides its name from every public result. */
export async function hidesAll(sql: Sql, accountId: string): Promise<boolean> {
  const [row] = await sql.query<{ hide: boolean }>('SELECT hide_results AS hide FROM users WHERE sub = $1', [
    accountId,
  ]);
  return row?.hide ?? false;
}

export async function setHideAll(sql: Sql, accountId: string, hide: boolean): Promise<void> {
  await sql.query('UPDATE users SET hide_results = $2, updated_at = now() WHERE sub = $1', [accountId, hide]);
}
