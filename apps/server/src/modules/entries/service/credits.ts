import crypto from 'node:crypto';
import type { MyEntry } from '@tempora/contracts';
import type { Sql } from '../../../db/database.ts';
import type * as repo from '../repository.ts';
import * as settingsRepo from '../settings-repository.ts';
import { auditEntry } from './shared.ts';

/**
 * Deferral carried over to the next edition (issue 38).
 *
 * - The organiser names the event's next edition on the registration settings form
 *   (`nextEventId`: another event of the same organisation).
 * - A deferred entry becomes a credit (`registration_credits`): what was paid for it (entry and
 *   add-ons, what the order kept) minus the policy's deferral fee (domain `deferCredit`; the
 *   runner pays only the part of the fee a smaller credit does not cover).
 * - Once the event has a next edition, each credit gets a code of that edition
 *   (`registration_codes`, kind amount, one use) that only its runner can use: the entry's e-mail
 *   must be the one the credit was made for (`owner_email`, checked in runner-check.ts), and the
 *   code is 100 random bits. It takes the credit off the entry and its add-ons (never below
 *   zero: the runner pays the difference, or nothing; a larger credit is not paid out).
 * - The code works when the next edition's race opens, like any entry: the place is not held
 *   meanwhile (a full race has its waitlist). My entries shows the credit, the code and a link.
 * - Naming another next edition moves the unused codes there; a used code stays where it was used.
 */

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A credit's code: `CR` + 20 characters of Crockford base 32 (100 random bits). */
export function newCreditCode(): string {
  let code = 'CR';
  for (const b of crypto.randomBytes(20)) code += ALPHABET[b & 31];
  return code;
}

/** A deferred entry's credit, then its code if the event has a next edition. Once per entry. */
export async function recordCredit(
  sql: Sql,
  entry: repo.EntryRow,
  cents: number,
  actorSub: string | null,
): Promise<void> {
  const terms = await settingsRepo.eventTerms(sql, entry.eventId);
  const rows = await sql.query(
    `INSERT INTO registration_credits (entry_id, event_id, email, cents, currency) VALUES ($1::bigint, $2, $3, $4, $5)
     ON CONFLICT (entry_id) DO NOTHING RETURNING id`,
    [entry.id, entry.eventId, entry.email.toLowerCase(), cents, terms?.currency ?? 'EUR'],
  );
  if (rows.length) await auditEntry(sql, entry, 'credit', actorSub, { cents });
  await issueCredits(sql, entry.eventId);
}

/**
 * Gives each credit of `eventId` without a code one in the event's next edition; moves the codes
 * never used to the next edition named now (a code used, or held by an entry being paid, stays).
 */
export async function issueCredits(sql: Sql, eventId: string): Promise<number> {
  const [ev] = await sql.query<{ next: string | null }>(
    'SELECT next_event_id AS next FROM registration_events WHERE event_id = $1',
    [eventId],
  );
  const next = ev?.next ?? null;
  await sql.query(
    `DELETE FROM registration_codes c USING registration_credits k
      WHERE k.code_id = c.id AND k.event_id = $1 AND c.event_id IS DISTINCT FROM $2 AND c.taken = 0 AND c.held = 0
        AND NOT EXISTS (SELECT 1 FROM registration_entries e WHERE e.code_id = c.id)`,
    [eventId, next],
  );
  if (!next) return 0;
  const waiting = await sql.query<{ id: string; email: string; cents: number }>(
    `SELECT id::text AS id, email, cents FROM registration_credits WHERE event_id = $1 AND code_id IS NULL ORDER BY id FOR UPDATE`,
    [eventId],
  );
  for (const credit of waiting) {
    const [code] = await sql.query<{ id: string }>(
      `INSERT INTO registration_codes (event_id, code, kind, value, capacity, owner_email) VALUES ($1, $2, 'amount', $3, 1, $4)
       RETURNING id::text AS id`,
      [next, newCreditCode(), credit.cents, credit.email],
    );
    await sql.query('UPDATE registration_credits SET code_id = $2::bigint WHERE id = $1::bigint', [
      credit.id,
      code!.id,
    ]);
  }
  return waiting.length;
}

/** The credits of entries, as My entries shows them. */
export async function creditsOf(
  sql: Sql,
  entryIds: readonly string[],
): Promise<Map<string, MyEntry['credit']>> {
  if (!entryIds.length) return new Map();
  const rows = await sql.query<{
    entryId: string;
    cents: number;
    currency: string;
    code: string | null;
    nextEventId: string | null;
    nextEventName: string | null;
    used: boolean;
  }>(
    `SELECT k.entry_id::text AS "entryId", k.cents, k.currency, c.code, c.event_id AS "nextEventId", ev.name AS "nextEventName",
            coalesce(c.taken + c.held > 0, false) AS used
       FROM registration_credits k LEFT JOIN registration_codes c ON c.id = k.code_id LEFT JOIN events ev ON ev.id = c.event_id
      WHERE k.entry_id = ANY($1::bigint[])`,
    [entryIds],
  );
  return new Map(rows.map(({ entryId, ...c }) => [entryId, c]));
}
