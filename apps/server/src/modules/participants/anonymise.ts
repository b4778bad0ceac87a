import { type Participant, participantAge } from '@tempora/domain';
import type { Sql } from '../../db/database.ts';

/**
 * Anonymises participants for good (issue 40: an erased account, an event's data past its
 * retention): the name, e-mail, birth date, nationality, club and status reason go, the account
 * link goes, and the row is shown as "Hidden runner" (results/public-runner.ts). What ranks are
 * computed from stays: gender, bib, chips, status, the category, and the age — frozen from the
 * birth date on race day (or by birth year, as the race counts it) before the date goes, so every
 * category rank is unchanged. Answers the contexts whose participants changed.
 */
export async function anonymiseParticipants(sql: Sql, ids: readonly string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await sql.query<{
    id: string;
    age: number | null;
    birthDate: string | null;
    raceDate: string;
    ageBasis: 'raceDay' | 'birthYear';
    db: string;
  }>(
    `SELECT p.id, p.age, to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate",
            to_char(r.race_date, 'YYYY-MM-DD') AS "raceDate", r.age_basis AS "ageBasis", r.db
       FROM participants p JOIN races r ON r.id = p.race_id WHERE p.id = ANY($1::uuid[])`,
    [ids],
  );
  if (!rows.length) return [];
  const ages = rows.map((r) => {
    if (r.age !== null) return r.age;
    if (r.birthDate === null) return null;
    return participantAge({ birthDate: r.birthDate } as Participant, r.raceDate, r.ageBasis) ?? null;
  });
  await sql.query(
    `UPDATE participants p
        SET first_name = '', last_name = '', email = '', birth_date = NULL, age = u.age, nationality = '',
            club = '', status_reason = NULL, search_folded = '', account_id = NULL, name_hidden = true
       FROM unnest($1::uuid[], $2::int[]) AS u(id, age) WHERE p.id = u.id`,
    [rows.map((r) => r.id), ages],
  );
  return [...new Set(rows.map((r) => r.db))];
}
