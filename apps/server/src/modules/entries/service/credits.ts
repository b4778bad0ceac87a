import crypto from 'node:crypto';
import type { MyEntry } from '@tempora/contracts';
import type { Sql } from '../../../db/database.ts';
import { holdUnits, releaseUnits } from '../counters.ts';
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
 * - A credit reserves its runner's place (0105), as RunSignup's deferrals do: in the next
 *   edition's race matching the deferred one (the same name, else the same distance, else the
 *   edition's only race), as soon as that race is set up for entries and has a place. The place
 *   is counted in the race's `held` like a waitlist invitation's, so the places left, the rush's
 *   conditional holds and the waitlist count it with no rule of their own. Entering that race with
 *   the code takes the reserved place (even when the race is full to others); an entry that
 *   lapses unpaid gives it back to the credit; entering another race with the code releases it;
 *   so does the race's closing time (`releaseClosedPlaces`, on the sweep's timer) and erasure.
 * - A credit larger than the new entry and its add-ons: the rest is refunded (`remainder_cents`)
 *   through the payments module's refund, on the order that paid the deferred entry, once the new
 *   entry is confirmed (`refundRemainders`; the form and the order page show it before).
 * - The code works when the next edition's race opens, like any entry. My entries shows the
 *   credit, the place reserved, the code and a link.
 * - Naming another next edition moves the unused codes (and their places) there; a used code
 *   stays where it was used.
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
  // The places of the codes about to move are given back first.
  await releasePlaces(
    sql,
    `k.event_id = $1 AND c.event_id IS DISTINCT FROM $2 AND c.taken = 0 AND c.held = 0`,
    [eventId, next],
    null,
  );
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
  await reserveCreditPlaces(sql, next);
  return waiting.length;
}

/**
 * Gives the credits whose code is in `nextEventId` and that hold no place yet one in the matching
 * race (the same name, else the same distance, else the edition's only race), while it has one
 * left and has not closed. Called when a credit gets its code and when either edition's settings
 * are saved (a race set up or given more places later).
 */
export async function reserveCreditPlaces(sql: Sql, nextEventId: string, now = new Date()): Promise<number> {
  const waiting = await sql.query<{ id: string; raceId: string | null }>(
    `SELECT k.id::text AS id,
            (SELECT g.race_id FROM registration_races g JOIN races nr ON nr.id = g.race_id
              WHERE g.event_id = c.event_id AND (g.closes_at IS NULL OR g.closes_at > $2)
                AND (lower(trim(nr.name)) = lower(trim(r.name)) OR nr.distance_m = r.distance_m
                     OR (SELECT count(*) FROM registration_races g2 WHERE g2.event_id = c.event_id) = 1)
              ORDER BY lower(trim(nr.name)) = lower(trim(r.name)) DESC, nr.distance_m = r.distance_m DESC, nr.id
              LIMIT 1) AS "raceId"
       FROM registration_credits k JOIN registration_codes c ON c.id = k.code_id
       JOIN registration_entries e ON e.id = k.entry_id JOIN races r ON r.id = e.race_id
      WHERE c.event_id = $1 AND k.place_state IS NULL AND c.taken + c.held = 0
        AND (c.capacity IS NULL OR c.capacity > 0)
      ORDER BY k.id FOR UPDATE OF k`,
    [nextEventId, now],
  );
  let reserved = 0;
  for (const credit of waiting) {
    if (!credit.raceId || !(await holdUnits(sql, 'registration_races', credit.raceId))) continue;
    await sql.query(
      `UPDATE registration_credits SET place_race_id = $2, place_state = 'reserved' WHERE id = $1::bigint`,
      [credit.id, credit.raceId],
    );
    reserved++;
  }
  return reserved;
}

/**
 * Releases the places reserved by the credits `where` names (`k` the credit, `c` its code): each
 * race's `held` less them; state `released`, or none again (`null`: a code moved to another
 * edition reserves there). Answers the races with places back (their waitlists go next).
 */
export async function releasePlaces(
  sql: Sql,
  where: string,
  params: unknown[],
  state: 'released' | null,
): Promise<string[]> {
  const freed = await sql.query<{ raceId: string }>(
    `UPDATE registration_credits k SET place_state = $${params.length + 1}, place_race_id = CASE WHEN $${params.length + 1}::text IS NULL THEN NULL ELSE k.place_race_id END
       FROM registration_credits o LEFT JOIN registration_codes c ON c.id = o.code_id
      WHERE o.id = k.id AND k.place_state = 'reserved' AND ${where}
      RETURNING o.place_race_id AS "raceId"`,
    [...params, state],
  );
  const races = new Map<string, number>();
  for (const f of freed) races.set(f.raceId, (races.get(f.raceId) ?? 0) + 1);
  for (const [raceId, n] of races) await releaseUnits(sql, 'registration_races', raceId, n);
  return [...races.keys()];
}

/** The places reserved by a runner's credits, released (an account erased, issue 40). */
export async function releaseCreditPlacesOf(sql: Sql, email: string): Promise<string[]> {
  return releasePlaces(sql, `k.email <> '' AND lower(k.email) = lower($1)`, [email], 'released');
}

/** Reserved places of races whose registration has closed, released (the sweep's timer). */
export async function releaseClosedPlaces(sql: Sql, now: Date): Promise<string[]> {
  return releasePlaces(
    sql,
    `EXISTS (SELECT 1 FROM registration_races g WHERE g.race_id = k.place_race_id AND g.closes_at <= $1)`,
    [now],
    'released',
  );
}

/**
 * An entry with a credit's code (`codeId`) in `raceId`, in its order's transaction: whether it
 * takes the credit's reserved place (then it holds no other). A credit reserved in another race
 * gives that place back (the runner chose another race).
 */
export async function takeCreditPlace(sql: Sql, codeId: string, raceId: string): Promise<boolean> {
  const [taken] = await sql.query(
    `UPDATE registration_credits SET place_state = 'used'
      WHERE code_id = $1::bigint AND place_state = 'reserved' AND place_race_id = $2 RETURNING 1`,
    [codeId, raceId],
  );
  if (taken) return true;
  await releasePlaces(sql, 'k.code_id = $1::bigint', [codeId], 'released');
  return false;
}

/**
 * A payment arriving after its entry (with a credit's code) lapsed and its place went back to the
 * credit (`restoreCreditPlaces`): the credit's kept place in that race is let go for the entry to
 * take late (in the payment's transaction), as the runner would have had it in time. Answers
 * whether there was one; `keepCreditPlaceAgain` undoes it when the entry cannot be confirmed.
 */
export async function yieldCreditPlace(sql: Sql, codeId: string, raceId: string): Promise<boolean> {
  const [kept] = await sql.query(
    `UPDATE registration_credits SET place_state = 'used'
      WHERE code_id = $1::bigint AND place_state = 'reserved' AND place_race_id = $2 RETURNING 1`,
    [codeId, raceId],
  );
  if (kept) await releaseUnits(sql, 'registration_races', raceId);
  return Boolean(kept);
}

/** A place `yieldCreditPlace` let go, kept again (the late entry could not take its other units). */
export async function keepCreditPlaceAgain(sql: Sql, codeId: string, raceId: string): Promise<void> {
  // The race's row is locked by this transaction since the release: the place is still free.
  const back = await holdUnits(sql, 'registration_races', raceId);
  await sql.query(`UPDATE registration_credits SET place_state = $2 WHERE code_id = $1::bigint`, [
    codeId,
    back ? 'reserved' : 'released',
  ]);
}

/**
 * Places given back by entries that took a credit's place and lapsed unpaid (their holds just
 * expired, the place released with them): held again for the credit, in the same transaction,
 * before the waitlist is offered the place. Answers how many.
 */
export async function restoreCreditPlaces(sql: Sql): Promise<number> {
  const lapsed = await sql.query<{ id: string; raceId: string }>(
    `SELECT k.id::text AS id, k.place_race_id AS "raceId" FROM registration_credits k
      WHERE k.place_state = 'used'
        AND EXISTS (SELECT 1 FROM registration_entries e WHERE e.code_id = k.code_id AND e.race_id = k.place_race_id AND e.state = 'expired')
        AND NOT EXISTS (SELECT 1 FROM registration_entries e WHERE e.code_id = k.code_id AND e.state IN ('held', 'confirmed', 'cancelled', 'deferred', 'refunded'))
      FOR UPDATE OF k`,
  );
  let n = 0;
  for (const credit of lapsed) {
    const back = await holdUnits(sql, 'registration_races', credit.raceId);
    await sql.query(`UPDATE registration_credits SET place_state = $2 WHERE id = $1::bigint`, [
      credit.id,
      back ? 'reserved' : 'released',
    ]);
    if (back) n++;
  }
  return n;
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
    placeRaceId: string | null;
    placeRaceName: string | null;
    placeState: 'reserved' | 'used' | 'released' | null;
    placeUntil: Date | string | null;
    placeZone: string | null;
    remainderCents: number | null;
  }>(
    `SELECT k.entry_id::text AS "entryId", k.cents, k.currency, c.code, c.event_id AS "nextEventId", ev.name AS "nextEventName",
            coalesce(c.taken + c.held > 0, false) AS used, k.place_race_id AS "placeRaceId", r.name AS "placeRaceName",
            k.place_state AS "placeState", g.closes_at AS "placeUntil", nev.time_zone AS "placeZone", CASE WHEN k.remainder_refund_id IS NOT NULL THEN k.remainder_cents END AS "remainderCents"
       FROM registration_credits k LEFT JOIN registration_codes c ON c.id = k.code_id LEFT JOIN events ev ON ev.id = c.event_id
       LEFT JOIN races r ON r.id = k.place_race_id LEFT JOIN registration_races g ON g.race_id = k.place_race_id
       LEFT JOIN events nev ON nev.id = g.event_id
      WHERE k.entry_id = ANY($1::bigint[])`,
    [entryIds],
  );
  return new Map(
    rows.map(({ entryId, placeRaceId, placeRaceName, placeState, placeUntil, placeZone, ...c }) => [
      entryId,
      {
        ...c,
        place:
          placeRaceId && placeState
            ? {
                raceId: placeRaceId,
                raceName: placeRaceName ?? placeRaceId,
                state: placeState,
                until: placeUntil ? new Date(placeUntil).toISOString() : null,
                timeZone: placeZone ?? 'UTC',
              }
            : null,
      },
    ]),
  );
}
