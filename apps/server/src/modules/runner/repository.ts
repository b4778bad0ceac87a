import type { OrganiserClaim } from '@tempora/contracts';
import { foldText } from '@tempora/domain';
import type { Sql } from '../../db/database.ts';

/** SQL of the runner's space (issue 40): reads only; participants are written by their module. */

/** A participant of mine as stored (its results come from the live state). */
export interface MyRow {
  participantId: string;
  eventId: string;
  eventName: string;
  organisationName: string;
  db: string;
  raceId: string;
  raceName: string;
  date: string;
  bib: string | null;
  firstName: string;
  lastName: string;
  trackingKey: string;
  hidden: boolean;
}

/**
 * My results: the participants linked to my account, newest race first, across organisations;
 * `published` leaves drafts' out (issue 42: a draft is its organisation's until published).
 */
export async function resultsOf(sql: Sql, accountId: string, published = false): Promise<MyRow[]> {
  return sql.query<MyRow>(
    `SELECT p.id AS "participantId", e.id AS "eventId", e.name AS "eventName", o.name AS "organisationName",
            r.db, r.id AS "raceId", r.name AS "raceName", to_char(r.race_date, 'YYYY-MM-DD') AS date,
            p.bib, p.first_name AS "firstName", p.last_name AS "lastName", p.tracking_key AS "trackingKey",
            p.name_hidden AS hidden
       FROM participants p JOIN races r ON r.id = p.race_id JOIN contexts c ON c.db = r.db
       JOIN events e ON e.id = c.event_id JOIN organisations o ON o.id = e.organisation_id
      WHERE p.account_id = $1 AND p.deleted_at IS NULL AND (NOT $2::boolean OR e.visibility <> 'draft')
      ORDER BY r.race_date DESC, r.id`,
    [accountId, published],
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

export interface Account {
  sub: string;
  email: string;
  firstName: string;
  lastName: string;
  birthDate: string | null;
  lng: 'en' | 'fr';
  hideResults: boolean;
  publicProfile: boolean;
  publicSlug: string | null;
}

export async function findAccount(sql: Sql, sub: string): Promise<Account | null> {
  const [row] = await sql.query<Account>(
    `SELECT sub, email, first_name AS "firstName", last_name AS "lastName",
            to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", lng, hide_results AS "hideResults",
            public_profile AS "publicProfile", public_slug AS "publicSlug"
       FROM users WHERE sub = $1`,
    [sub],
  );
  return row ?? null;
}

export async function findAccountBySlug(sql: Sql, slug: string): Promise<Account | null> {
  const [row] = await sql.query<{ sub: string }>(
    'SELECT sub FROM users WHERE public_slug = $1 AND public_profile',
    [slug],
  );
  return row ? findAccount(sql, row.sub) : null;
}

export async function setPublicPage(
  sql: Sql,
  sub: string,
  enabled: boolean,
  slug: string,
): Promise<string | null> {
  const [row] = await sql.query<{ slug: string | null }>(
    `UPDATE users SET public_profile = $2, public_slug = coalesce(public_slug, $3), updated_at = now()
      WHERE sub = $1 RETURNING CASE WHEN public_profile THEN public_slug END AS slug`,
    [sub, enabled, slug],
  );
  return row?.slug ?? null;
}

/** A participant a claim is about, with what proves it. */
export interface Claimable {
  participantId: string;
  eventId: string;
  organisationId: string;
  eventName: string;
  organisationName: string;
  db: string;
  raceName: string;
  date: string;
  bib: string | null;
  email: string;
  accountId: string | null;
}

const CLAIMABLE = `SELECT p.id AS "participantId", e.id AS "eventId", e.organisation_id AS "organisationId",
            e.name AS "eventName", o.name AS "organisationName", r.db, r.name AS "raceName",
            to_char(r.race_date, 'YYYY-MM-DD') AS date, p.bib, p.email, p.account_id AS "accountId"
       FROM participants p JOIN races r ON r.id = p.race_id JOIN contexts c ON c.db = r.db
       JOIN events e ON e.id = c.event_id JOIN organisations o ON o.id = e.organisation_id`;

/**
 * Results that may be mine (issue 40: suggested by name and birth year): not linked to any
 * account, the same first and last name (accents and case folded), and the same birth year (or,
 * without a birth date, an age that fits it on race day).
 */
export async function suggestionsFor(sql: Sql, account: Account): Promise<Claimable[]> {
  if (!account.firstName.trim() || !account.lastName.trim() || !account.birthDate) return [];
  const year = Number(account.birthDate.slice(0, 4));
  // The one fold (packages/domain foldText) is stored as "first last club" (0034): a prefix.
  const folded = foldText(`${account.firstName.trim()} ${account.lastName.trim()} `).replace(
    /[\\%_]/g,
    (c) => `\\${c}`,
  );
  return sql.query<Claimable>(
    `${CLAIMABLE}
      WHERE p.account_id IS NULL AND p.deleted_at IS NULL AND e.visibility <> 'draft'
        AND (p.search_folded LIKE $1
             OR (p.search_folded IS NULL AND lower(p.first_name) = lower($2) AND lower(p.last_name) = lower($3)))
        AND (extract(year FROM p.birth_date) = $4
             OR (p.birth_date IS NULL AND p.age IS NOT NULL
                 AND extract(year FROM r.race_date) - p.age BETWEEN $4::int - 1 AND $4::int))
      ORDER BY r.race_date DESC LIMIT 50`,
    [`${folded}%`, account.firstName.trim(), account.lastName.trim(), year],
  );
}

export async function findClaimable(sql: Sql, participantId: string): Promise<Claimable | null> {
  // A draft's runner answers as one that does not exist (issue 42).
  const [row] = await sql.query<Claimable>(
    `${CLAIMABLE} WHERE p.id = $1 AND p.deleted_at IS NULL AND e.visibility <> 'draft'`,
    [participantId],
  );
  return row ?? null;
}

export interface ClaimRow {
  id: string;
  participantId: string;
  accountId: string;
  method: 'email' | 'organiser';
  codeHash: string | null;
  attempts: number;
  status: 'pending' | 'confirmed' | 'refused' | 'cancelled';
  expired: boolean;
}

/** Opens my claim on a result (a new code replaces the one of an open claim). */
export async function openClaim(
  sql: Sql,
  claim: { participantId: string; accountId: string; method: 'email' | 'organiser'; codeHash: string | null },
  ttlMinutes: number,
): Promise<string> {
  const [row] = await sql.query<{ id: string }>(
    `INSERT INTO runner_claims (participant_id, account_id, method, code_hash, expires_at)
     VALUES ($1, $2, $3, $4, CASE WHEN $3 = 'email' THEN now() + make_interval(mins => $5) END)
     ON CONFLICT (participant_id, account_id) WHERE status = 'pending'
     DO UPDATE SET code_hash = EXCLUDED.code_hash, attempts = 0, expires_at = EXCLUDED.expires_at,
                   method = EXCLUDED.method, created_at = now()
     RETURNING id`,
    [claim.participantId, claim.accountId, claim.method, claim.codeHash, ttlMinutes],
  );
  return row!.id;
}

export async function pendingClaimsOf(sql: Sql, accountId: string): Promise<Map<string, string>> {
  const rows = await sql.query<{ id: string; participantId: string }>(
    `SELECT id, participant_id AS "participantId" FROM runner_claims WHERE account_id = $1 AND status = 'pending'`,
    [accountId],
  );
  return new Map(rows.map((r) => [r.participantId, r.id]));
}

export async function findClaim(sql: Sql, id: string): Promise<ClaimRow | null> {
  const [row] = await sql.query<ClaimRow>(
    `SELECT id, participant_id AS "participantId", account_id AS "accountId", method, code_hash AS "codeHash",
            attempts, status, coalesce(expires_at < now(), false) AS expired
       FROM runner_claims WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return row ?? null;
}

export async function countAttempt(sql: Sql, id: string): Promise<void> {
  await sql.query('UPDATE runner_claims SET attempts = attempts + 1 WHERE id = $1', [id]);
}

export async function decideClaim(
  sql: Sql,
  id: string,
  status: 'confirmed' | 'refused' | 'cancelled',
  by: string | null,
): Promise<void> {
  await sql.query(`UPDATE runner_claims SET status = $2, decided_at = now(), decided_by = $3 WHERE id = $1`, [
    id,
    status,
    by,
  ]);
}

/** The open claims an event's organiser decides (entries without an e-mail). */
export async function organiserClaimsOf(sql: Sql, eventId: string): Promise<OrganiserClaim[]> {
  return sql.query<OrganiserClaim>(
    `SELECT k.id, p.id AS "participantId", r.name AS "raceName", p.bib, p.first_name AS "firstName",
            p.last_name AS "lastName", to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate",
            u.email AS "claimantEmail", trim(u.first_name || ' ' || u.last_name) AS "claimantName",
            to_char(u.birth_date, 'YYYY-MM-DD') AS "claimantBirthDate",
            to_char(k.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "createdAt"
       FROM runner_claims k JOIN participants p ON p.id = k.participant_id
       JOIN races r ON r.id = p.race_id JOIN contexts c ON c.db = r.db JOIN users u ON u.sub = k.account_id
      WHERE c.event_id = $1 AND k.method = 'organiser' AND k.status = 'pending'
      ORDER BY k.created_at`,
    [eventId],
  );
}

/** An organiser's claim of an event (404 for another event's). */
export async function findEventClaim(sql: Sql, eventId: string, id: string): Promise<ClaimRow | null> {
  const [row] = await sql.query<{ id: string }>(
    `SELECT k.id FROM runner_claims k JOIN participants p ON p.id = k.participant_id
       JOIN races r ON r.id = p.race_id JOIN contexts c ON c.db = r.db
      WHERE k.id = $1 AND c.event_id = $2 AND k.method = 'organiser'`,
    [id, eventId],
  );
  return row ? findClaim(sql, row.id) : null;
}
