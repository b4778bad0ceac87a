import type { Sql } from '../../db/database.ts';
import { randomKey, searchFoldedOf } from '../results/port.ts';
import { bumpEpoch, softDelete, updateParticipant } from './repository.ts';

/**
 * Runners who entered online (issue 38): the entries module asks here, the participants module
 * writes the one participants table. An entrant is a participant like any imported runner — no
 * bib until the organiser assigns one from the race's range (so two nodes confirming entries at
 * once never race for the next number) — seen by start lists, bibs, chips, results, certificates.
 */
export interface Entrant {
  raceId: string;
  firstName: string;
  lastName: string;
  gender: 'M' | 'F' | 'X';
  birthDate: string | null;
  nationality: string;
  club: string;
  email: string;
  /** The account the entry was made with (issue 40's runner's space reads `participants.account_id`). */
  accountSub?: string | null;
}

/** Adds an entrant; returns its participant id. */
export async function enrolEntrant(sql: Sql, p: Entrant): Promise<string> {
  const [row] = await sql.query<{ id: string }>(
    `INSERT INTO participants (race_id, bib, first_name, last_name, gender, birth_date, nationality, club, status,
                               tracking_key, email, search_folded, account_id, name_hidden)
     VALUES ($1, NULL, $2, $3, $4, $5::date, $6, $7, 'registered', $8, $9, $10, $11::uuid,
             -- The account's "hide my name everywhere" (issue 40) reaches its new entries.
             coalesce((SELECT u.hide_results FROM users u WHERE u.sub = $11::uuid), false))
     RETURNING id::text`,
    [
      p.raceId,
      p.firstName,
      p.lastName,
      p.gender,
      p.birthDate,
      p.nationality.toUpperCase(),
      p.club,
      randomKey(),
      p.email,
      searchFoldedOf(p),
      p.accountSub ?? null,
    ],
  );
  // No epoch bump: a runner without a bib is not in the live state (participantsOf), so nothing
  // cached changes — and thousands of entries confirmed at once do not all queue on the race's row.
  return (row as { id: string }).id;
}

/** An entrant who cancelled or deferred: no longer on the start list (soft delete, bib freed). */
export async function withdrawEntrant(sql: Sql, id: string): Promise<void> {
  const [row] = await sql.query<{ raceId: string }>(
    'SELECT race_id AS "raceId" FROM participants WHERE id = $1',
    [id],
  );
  await softDelete(sql, id);
  if (row) await bumpEpoch(sql, [row.raceId]);
}

/** An entrant moved to another race of the event: the bib of the old race does not follow. */
export async function moveEntrant(sql: Sql, id: string, raceId: string): Promise<void> {
  const [row] = await sql.query<{ raceId: string }>(
    'SELECT race_id AS "raceId" FROM participants WHERE id = $1',
    [id],
  );
  await sql.query('UPDATE participants SET race_id = $2, bib = NULL WHERE id = $1', [id, raceId]);
  await bumpEpoch(sql, row ? [row.raceId, raceId] : [raceId]);
}

/** An entrant's details changed by themself (edit) or replaced by another runner (transfer). */
export async function updateEntrant(
  sql: Sql,
  id: string,
  patch: Partial<Omit<Entrant, 'raceId'>>,
): Promise<void> {
  const [row] = await sql.query<{ raceId: string }>(
    'SELECT race_id AS "raceId" FROM participants WHERE id = $1',
    [id],
  );
  await updateParticipant(sql, id, patch);
  if (row) await bumpEpoch(sql, [row.raceId]);
}

/** The bibs of entrants (null until assigned), by participant id. */
export async function entrantBibs(sql: Sql, ids: readonly string[]): Promise<Map<string, string | null>> {
  if (!ids.length) return new Map();
  const rows = await sql.query<{ id: string; bib: string | null }>(
    'SELECT id::text AS id, bib FROM participants WHERE id = ANY($1::uuid[])',
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r.bib]));
}
