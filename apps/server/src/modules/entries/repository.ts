import crypto from 'node:crypto';
import type { Sql } from '../../db/database.ts';
import { iso } from '../../lib/iso-time.ts';
import type { EntryUnits } from './counters.ts';

/** SQL of entries, their changes and the waitlist (issue 38; migration 0050_entries.sql). */

/** Crockford's base 32 without I, L, O, U: read aloud or typed at a pickup desk without doubt. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A new entry code: `E` and 20 characters of base 32 from 100 random bits (crypto.randomBytes).
 * Stable for the entry's life (a move or transfer keeps it), unguessable, resolved by the
 * organiser's staff at pickup (issue 39). Never derived from the entry's number.
 */
export function newEntryCode(): string {
  const bytes = crypto.randomBytes(20);
  let code = 'E';
  for (const b of bytes) code += ALPHABET[b & 31];
  return code;
}

/** A waitlist invitation's token (in the invitation link). */
export const newInvitationToken = () => crypto.randomBytes(18).toString('base64url');

export interface EntryDetails {
  firstName: string;
  lastName: string;
  email: string;
  birthDate: string | null;
  gender: 'M' | 'F' | 'X' | null;
  nationality: string;
  club: string;
  licence: string;
  emergencyContact: string;
  phone: string;
  guardianName: string;
  guardianEmail: string;
}

export interface EntryAddOn {
  id: string;
  key: string;
  name: string;
  quantity: number;
  cents: number;
}

export interface EntryRow {
  id: string;
  code: string;
  eventId: string;
  raceId: string;
  orderId: string | null;
  accountSub: string | null;
  email: string;
  lang: 'en' | 'fr';
  state: 'held' | 'confirmed' | 'expired' | 'cancelled' | 'refunded' | 'deferred';
  participantId: string | null;
  details: EntryDetails;
  answers: Record<string, unknown>;
  addOns: EntryAddOn[];
  codeId: string | null;
  entryCents: number;
  discountCents: number;
  addOnsCents: number;
  waiverVersion: number | null;
  waiverAcceptedAt: string | null;
  holdExpiresAt: string | null;
  waitlistId: string | null;
  teamId: string | null;
  source: 'online' | 'manual';
  refundDue: boolean;
  mailedAt: string | null;
  createdAt: string;
}

const ENTRY = `e.id::text AS id, e.code, e.event_id AS "eventId", e.race_id AS "raceId", e.order_id::text AS "orderId",
  e.account_sub::text AS "accountSub", e.email, e.lang, e.state, e.participant_id::text AS "participantId", e.details,
  e.answers, e.addons AS "addOns", e.code_id::text AS "codeId", e.entry_cents AS "entryCents",
  e.discount_cents AS "discountCents", e.addons_cents AS "addOnsCents", e.waiver_version AS "waiverVersion",
  e.waiver_accepted_at AS "waiverAcceptedAt", e.hold_expires_at AS "holdExpiresAt", e.waitlist_id::text AS "waitlistId",
  e.team_id::text AS "teamId", e.source, e.refund_due AS "refundDue", e.mailed_at AS "mailedAt", e.created_at AS "createdAt"`;

const entryOf = (r: EntryRow): EntryRow => ({
  ...r,
  waiverAcceptedAt: iso(r.waiverAcceptedAt),
  holdExpiresAt: iso(r.holdExpiresAt),
  mailedAt: iso(r.mailedAt),
  createdAt: iso(r.createdAt) as string,
});

export async function entriesWhere(
  sql: Sql,
  where: string,
  params: unknown[],
  lock = false,
): Promise<EntryRow[]> {
  const rows = await sql.query<EntryRow>(
    `SELECT ${ENTRY} FROM registration_entries e WHERE ${where} ORDER BY e.id${lock ? ' FOR UPDATE' : ''}`,
    params,
  );
  return rows.map(entryOf);
}

export async function findEntry(sql: Sql, code: string, lock = false): Promise<EntryRow | null> {
  const [row] = await entriesWhere(sql, 'e.code = $1', [code], lock);
  return row ?? null;
}

/** The counted units an entry holds or took. */
export const unitsOf = (e: Pick<EntryRow, 'raceId' | 'addOns' | 'codeId'>): EntryUnits => ({
  raceId: e.raceId,
  addOns: e.addOns.map((a) => ({ id: a.id, quantity: a.quantity })),
  codeId: e.codeId,
});

export interface NewEntry {
  code: string;
  eventId: string;
  raceId: string;
  orderId: string | null;
  accountSub: string | null;
  email: string;
  lang: string;
  state: 'held' | 'confirmed';
  details: EntryDetails;
  answers: Record<string, unknown>;
  addOns: EntryAddOn[];
  codeId: string | null;
  memberCode: string | null;
  entryCents: number;
  discountCents: number;
  addOnsCents: number;
  waiverVersion: number | null;
  holdExpiresAt: Date | null;
  waitlistId: string | null;
  teamId?: string | null;
  source: 'online' | 'manual';
}

export async function insertEntry(sql: Sql, e: NewEntry): Promise<string> {
  const [row] = await sql.query<{ id: string }>(
    `INSERT INTO registration_entries (code, event_id, race_id, order_id, account_sub, email, lang, state, details, answers,
       addons, code_id, member_code, entry_cents, discount_cents, addons_cents, waiver_version, waiver_accepted_at,
       hold_expires_at, waitlist_id, source, team_id)
     VALUES ($1, $2, $3, $4::bigint, $5::uuid, $6, $7, $8, $9, $10, $11, $12::bigint, $13, $14, $15, $16, $17,
             CASE WHEN $17::int IS NULL THEN NULL ELSE now() END, $18, $19::bigint, $20, $21::bigint)
     RETURNING id::text`,
    [
      e.code,
      e.eventId,
      e.raceId,
      e.orderId,
      e.accountSub,
      e.email,
      e.lang,
      e.state,
      JSON.stringify(e.details),
      JSON.stringify(e.answers),
      JSON.stringify(e.addOns),
      e.codeId,
      e.memberCode,
      e.entryCents,
      e.discountCents,
      e.addOnsCents,
      e.waiverVersion,
      e.holdExpiresAt,
      e.waitlistId,
      e.source,
      e.teamId ?? null,
    ],
  );
  return (row as { id: string }).id;
}

/**
 * Held entries of several orders in one statement (the registration rush's batches, issue 38),
 * their ids in the order given (the order of arrival).
 */
export async function insertHeldEntries(sql: Sql, rows: readonly NewEntry[]): Promise<void> {
  if (!rows.length) return;
  const col = <T>(f: (e: NewEntry) => T) => rows.map(f);
  await sql.query(
    `INSERT INTO registration_entries (code, event_id, race_id, order_id, account_sub, email, lang, state, details, answers,
       addons, code_id, member_code, entry_cents, discount_cents, addons_cents, waiver_version, waiver_accepted_at,
       hold_expires_at, waitlist_id, source, team_id)
     SELECT u.code, u.event_id, u.race_id, u.order_id, u.account_sub, u.email, u.lang, 'held', u.details::jsonb,
            u.answers::jsonb, u.addons::jsonb, u.code_id, u.member_code, u.entry_cents, u.discount_cents, u.addons_cents,
            u.waiver_version, CASE WHEN u.waiver_version IS NULL THEN NULL ELSE now() END, u.hold_expires_at, NULL,
            'online', NULL
       FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::uuid[], $6::text[], $7::text[], $8::text[],
                   $9::text[], $10::text[], $11::bigint[], $12::text[], $13::int[], $14::int[], $15::int[], $16::int[],
                   $17::timestamptz[])
            WITH ORDINALITY AS u(code, event_id, race_id, order_id, account_sub, email, lang, details, answers, addons,
                                 code_id, member_code, entry_cents, discount_cents, addons_cents, waiver_version,
                                 hold_expires_at, n)
      ORDER BY u.n`,
    [
      col((e) => e.code),
      col((e) => e.eventId),
      col((e) => e.raceId),
      col((e) => e.orderId),
      col((e) => e.accountSub),
      col((e) => e.email),
      col((e) => e.lang),
      col((e) => JSON.stringify(e.details)),
      col((e) => JSON.stringify(e.answers)),
      col((e) => JSON.stringify(e.addOns)),
      col((e) => e.codeId),
      col((e) => e.memberCode),
      col((e) => e.entryCents),
      col((e) => e.discountCents),
      col((e) => e.addOnsCents),
      col((e) => e.waiverVersion),
      col((e) => e.holdExpiresAt?.toISOString() ?? null),
    ],
  );
}

export async function setEntry(sql: Sql, id: string, patch: Record<string, unknown>): Promise<void> {
  const columns: Record<string, string> = {
    state: 'state',
    participantId: 'participant_id',
    details: 'details',
    raceId: 'race_id',
    email: 'email',
    accountSub: 'account_sub',
    entryCents: 'entry_cents',
    discountCents: 'discount_cents',
    refundDue: 'refund_due',
    mailedAt: 'mailed_at',
    confirmedAt: 'confirmed_at',
  };
  const keys = Object.keys(patch).filter((k) => columns[k]);
  const sets = keys.map((k, n) => `${columns[k]} = $${n + 2}`);
  await sql.query(
    `UPDATE registration_entries SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1::bigint`,
    [id, ...keys.map((k) => (k === 'details' ? JSON.stringify(patch[k]) : patch[k]))],
  );
}

export interface ChangeRow {
  id: string;
  entryId: string;
  orderId: string;
  action: 'move' | 'transfer' | 'defer';
  payload: Record<string, unknown>;
}

export async function pendingChanges(sql: Sql, where: string, params: unknown[]): Promise<ChangeRow[]> {
  return sql.query<ChangeRow>(
    `SELECT id::text AS id, entry_id::text AS "entryId", order_id::text AS "orderId", action, payload
       FROM registration_changes WHERE state = 'pending' AND ${where} ORDER BY id FOR UPDATE`,
    params,
  );
}
