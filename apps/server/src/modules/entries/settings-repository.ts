import type { RegistrationSettings } from '@tempora/contracts';
import type { EntryPolicy, RacePrices } from '@tempora/domain';
import type { Sql } from '../../db/database.ts';
import { iso } from '../../lib/iso-time.ts';

/** SQL of what the organiser sets for entries (issue 38): event terms, races, questions, add-ons, codes, waiver. */

export interface EventTerms {
  eventId: string;
  holdMinutes: number;
  waitlistMinutes: number;
  payOnSite: boolean;
  currency: string;
  policy: EntryPolicy;
  nextEventId: string | null;
}

export interface RaceRegistration {
  raceId: string;
  eventId: string;
  name: string;
  raceDate: string;
  db: string;
  opensAt: string | null;
  closesAt: string | null;
  capacity: number | null;
  taken: number;
  held: number;
  prices: RacePrices;
  minAge: number | null;
  maxAge: number | null;
  required: string[];
  guardianForMinors: boolean;
  teamSize: number | null;
}

export interface AddOnRow {
  id: string;
  key: string;
  name: string;
  priceCents: number;
  capacity: number | null;
  taken: number;
  held: number;
}

export interface CodeRow {
  id: string;
  code: string;
  raceId: string | null;
  kind: 'percent' | 'amount';
  value: number;
  capacity: number | null;
  taken: number;
  held: number;
  validFrom: string | null;
  validUntil: string | null;
  /** A deferral credit's code (issue 38): only the runner of this e-mail may use it. */
  ownerEmail?: string | null;
  /** A deferral credit's code: the race where the credit holds its runner's place (credits.ts). */
  placeRaceId?: string | null;
}

export async function eventTerms(sql: Sql, eventId: string): Promise<EventTerms | null> {
  const [row] = await sql.query<EventTerms>(
    `SELECT event_id AS "eventId", hold_minutes AS "holdMinutes", waitlist_minutes AS "waitlistMinutes",
            pay_on_site AS "payOnSite", currency, policy, next_event_id AS "nextEventId" FROM registration_events WHERE event_id = $1`,
    [eventId],
  );
  return row ?? null;
}

const RACE = `g.race_id AS "raceId", g.event_id AS "eventId", r.name, to_char(r.race_date, 'YYYY-MM-DD') AS "raceDate", r.db,
  g.opens_at AS "opensAt", g.closes_at AS "closesAt", g.capacity, g.taken, g.held, g.prices, g.min_age AS "minAge",
  g.max_age AS "maxAge", g.required, g.guardian_for_minors AS "guardianForMinors",
  g.team_size AS "teamSize"`;

const raceOf = (r: RaceRegistration): RaceRegistration => ({
  ...r,
  opensAt: iso(r.opensAt),
  closesAt: iso(r.closesAt),
});

export async function raceRegistrations(sql: Sql, eventId: string): Promise<RaceRegistration[]> {
  const rows = await sql.query<RaceRegistration>(
    `SELECT ${RACE} FROM registration_races g JOIN races r ON r.id = g.race_id WHERE g.event_id = $1 ORDER BY r.race_date, r.name`,
    [eventId],
  );
  return rows.map(raceOf);
}

export async function raceRegistration(sql: Sql, raceId: string): Promise<RaceRegistration | null> {
  const [row] = await sql.query<RaceRegistration>(
    `SELECT ${RACE} FROM registration_races g JOIN races r ON r.id = g.race_id WHERE g.race_id = $1`,
    [raceId],
  );
  return row ? raceOf(row) : null;
}

export async function addOnsOf(sql: Sql, eventId: string): Promise<AddOnRow[]> {
  return sql.query<AddOnRow>(
    `SELECT id::text AS id, key, name, price_cents AS "priceCents", capacity, taken, held
       FROM registration_addons WHERE event_id = $1 ORDER BY id`,
    [eventId],
  );
}

export async function codesOf(sql: Sql, eventId: string): Promise<CodeRow[]> {
  const rows = await sql.query<CodeRow>(
    `SELECT id::text AS id, code, race_id AS "raceId", kind, value, capacity, taken, held, valid_from AS "validFrom",
            valid_until AS "validUntil" FROM registration_codes WHERE event_id = $1 AND owner_email IS NULL ORDER BY id`,
    [eventId],
  );
  return rows.map((c) => ({ ...c, validFrom: iso(c.validFrom), validUntil: iso(c.validUntil) }));
}

/** The counts of an event's stocks (places, add-on units, code uses) in one statement. */
export async function stockCounts(
  sql: Sql,
  eventId: string,
): Promise<
  { kind: 'race' | 'addOn' | 'code'; id: string; capacity: number | null; taken: number; held: number }[]
> {
  return sql.query(
    `SELECT 'race' AS kind, race_id AS id, capacity, taken, held FROM registration_races WHERE event_id = $1
     UNION ALL SELECT 'addOn', id::text, capacity, taken, held FROM registration_addons WHERE event_id = $1
     UNION ALL SELECT 'code', id::text, capacity, taken, held FROM registration_codes WHERE event_id = $1`,
    [eventId],
  );
}

export async function findCode(sql: Sql, eventId: string, code: string): Promise<CodeRow | null> {
  const [row] = await sql.query<CodeRow>(
    `SELECT id::text AS id, code, race_id AS "raceId", kind, value, capacity, taken, held, valid_from AS "validFrom",
            valid_until AS "validUntil", owner_email AS "ownerEmail",
            (SELECT k.place_race_id FROM registration_credits k WHERE k.code_id = registration_codes.id AND k.place_state = 'reserved') AS "placeRaceId"
       FROM registration_codes WHERE event_id = $1 AND upper(code) = upper($2)`,
    [eventId, code.trim()],
  );
  return row ? { ...row, validFrom: iso(row.validFrom), validUntil: iso(row.validUntil) } : null;
}

export async function questionsOf(sql: Sql, eventId: string) {
  return sql.query<RegistrationSettings['questions'][number]>(
    `SELECT key, label, kind, options, required, public FROM registration_questions WHERE event_id = $1 ORDER BY position, id`,
    [eventId],
  );
}

export async function currentWaiver(
  sql: Sql,
  eventId: string,
): Promise<{ version: number; body: string } | null> {
  const [row] = await sql.query<{ version: number; body: string }>(
    'SELECT version, body FROM registration_waivers WHERE event_id = $1 ORDER BY version DESC LIMIT 1',
    [eventId],
  );
  return row?.body.trim() ? row : null;
}

/**
 * Saves the settings. Deferral credits' codes (`owner_email`, issue 38) are not the organiser's
 * to list or remove: they are left alone. Counters stay: races, add-ons and codes are updated in place by their key,
 * those no longer listed are removed only when nothing was ever taken or held of them (else kept).
 * A waiver whose text changed gets a new version.
 */
export async function saveSettings(sql: Sql, eventId: string, s: RegistrationSettings) {
  await sql.query(
    `INSERT INTO registration_events (event_id, hold_minutes, waitlist_minutes, pay_on_site, currency, policy, next_event_id, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now())
     ON CONFLICT (event_id) DO UPDATE SET hold_minutes = $2, waitlist_minutes = $3, pay_on_site = $4, currency = $5,
       policy = $6, next_event_id = $7, updated_at = now()`,
    [
      eventId,
      s.holdMinutes,
      s.waitlistMinutes,
      s.payOnSite,
      s.currency,
      JSON.stringify(s.policy),
      s.nextEventId ?? null,
    ],
  );
  for (const r of s.races) {
    await sql.query(
      `INSERT INTO registration_races (race_id, event_id, opens_at, closes_at, capacity, prices, min_age, max_age, required,
                                       guardian_for_minors, team_size)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::text[], $10, $11)
       ON CONFLICT (race_id) DO UPDATE SET opens_at = $3, closes_at = $4, capacity = $5, prices = $6, min_age = $7,
         max_age = $8, required = $9::text[], guardian_for_minors = $10, team_size = $11`,
      [
        r.raceId,
        eventId,
        r.opensAt,
        r.closesAt,
        r.capacity,
        JSON.stringify(r.prices),
        r.minAge,
        r.maxAge,
        r.required,
        r.guardianForMinors,
        r.teamSize ?? null,
      ],
    );
  }
  await sql.query(
    'DELETE FROM registration_races WHERE event_id = $1 AND NOT (race_id = ANY($2::text[])) AND taken = 0 AND held = 0',
    [eventId, s.races.map((r) => r.raceId)],
  );
  await sql.query('DELETE FROM registration_questions WHERE event_id = $1', [eventId]);
  for (const [position, q] of s.questions.entries()) {
    await sql.query(
      `INSERT INTO registration_questions (event_id, key, label, kind, options, required, public, position)
       VALUES ($1, $2, $3, $4, $5::text[], $6, $7, $8)`,
      [eventId, q.key, q.label, q.kind, q.options, q.required, q.public, position],
    );
  }
  for (const a of s.addOns) {
    await sql.query(
      `INSERT INTO registration_addons (event_id, key, name, price_cents, capacity) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (event_id, key) DO UPDATE SET name = $3, price_cents = $4, capacity = $5`,
      [eventId, a.key, a.name, a.priceCents, a.capacity],
    );
  }
  await sql.query(
    'DELETE FROM registration_addons WHERE event_id = $1 AND NOT (key = ANY($2::text[])) AND taken = 0 AND held = 0',
    [eventId, s.addOns.map((a) => a.key)],
  );
  for (const c of s.codes) {
    const [known] = await sql.query<{ id: string }>(
      'SELECT id::text AS id FROM registration_codes WHERE event_id = $1 AND upper(code) = upper($2) AND owner_email IS NULL',
      [eventId, c.code],
    );
    const values = [c.raceId, c.kind, c.value, c.capacity, c.validFrom, c.validUntil];
    if (known) {
      await sql.query(
        `UPDATE registration_codes SET race_id = $2, kind = $3, value = $4, capacity = $5, valid_from = $6, valid_until = $7
          WHERE id = $1::bigint`,
        [known.id, ...values],
      );
    } else {
      await sql.query(
        `INSERT INTO registration_codes (event_id, code, race_id, kind, value, capacity, valid_from, valid_until)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [eventId, c.code, ...values],
      );
    }
  }
  await sql.query(
    `DELETE FROM registration_codes WHERE event_id = $1 AND NOT (upper(code) = ANY($2::text[])) AND taken = 0 AND held = 0
       AND owner_email IS NULL
       AND NOT EXISTS (SELECT 1 FROM registration_entries e WHERE e.code_id = registration_codes.id)`,
    [eventId, s.codes.map((c) => c.code.toUpperCase())],
  );
  const waiver = await currentWaiver(sql, eventId);
  if ((waiver?.body ?? '') !== s.waiver) {
    await sql.query(
      `INSERT INTO registration_waivers (event_id, version, body)
       SELECT $1, coalesce(max(version), 0) + 1, $2 FROM registration_waivers WHERE event_id = $1`,
      [eventId, s.waiver],
    );
  }
}
