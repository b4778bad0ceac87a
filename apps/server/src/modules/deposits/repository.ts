import crypto from 'node:crypto';
import type { CategoryDef } from '@tempora/domain';
import type { Sql } from '../../db/database.ts';
import { iso } from '../../lib/iso-time.ts';

/**
 * SQL of group deposits (issue 18). Ids are bigserials read as text; dates as ISO strings so both
 * drivers (PGlite, pg) hand back the same shapes.
 */

export interface SettingsRow {
  eventId: string;
  open: boolean;
  entryDeadline: string | null;
  currency: string;
  fees: Record<string, number>;
  capacities: Record<string, number>;
  orderExpiryDays: number;
  refundPolicy: unknown;
  beneficiary: string;
  iban: string;
}

export interface DepositRow {
  id: string;
  eventId: string;
  eventName: string;
  eventStart: string;
  organisationId: string;
  organisationName: string;
  vat: string | null;
  type: string;
  captainSub: string;
  captainName: string;
  captainEmail: string;
  joinCode: string;
  payerMode: string;
  companyCap: number | null;
  companyUntil: string | null;
  minTeamSize: number;
  state: string;
  createdAt: string;
  submittedAt: string | null;
}

export interface EntryRow {
  id: string;
  depositId: string;
  state: string;
  memberSub: string | null;
  raceId: string | null;
  firstName: string;
  lastName: string;
  gender: 'M' | 'F' | 'X' | null;
  birthDate: string | null;
  email: string;
  nationality: string;
  category: string | null;
  bib: string | null;
  substitution: Record<string, unknown> | null;
  createdAt: string;
}

export interface RaceInfo {
  id: string;
  db: string;
  name: string;
  date: string;
  categories: CategoryDef[];
  /** Console (0007): ages on race day, or reached during the race's year. */
  ageBasis: 'raceDay' | 'birthYear';
}

const SETTINGS = `event_id AS "eventId", open, entry_deadline AS "entryDeadline", currency, fees, capacities,
  order_expiry_days AS "orderExpiryDays", refund_policy AS "refundPolicy", beneficiary, iban`;

export async function findSettings(sql: Sql, eventId: string): Promise<SettingsRow | null> {
  const [row] = await sql.query<SettingsRow>(`SELECT ${SETTINGS} FROM deposit_settings WHERE event_id = $1`, [
    eventId,
  ]);
  return row ? { ...row, entryDeadline: iso(row.entryDeadline) } : null;
}

export async function upsertSettings(sql: Sql, s: Omit<SettingsRow, 'eventId'> & { eventId: string }) {
  await sql.query(
    `INSERT INTO deposit_settings (event_id, open, entry_deadline, currency, fees, capacities, order_expiry_days,
                                   refund_policy, beneficiary, iban, updated_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8::jsonb, $9, $10, now())
     ON CONFLICT (event_id) DO UPDATE SET open = $2, entry_deadline = $3, currency = $4, fees = $5::jsonb,
       capacities = $6::jsonb, order_expiry_days = $7, refund_policy = $8::jsonb, beneficiary = $9, iban = $10,
       updated_at = now()`,
    [
      s.eventId,
      s.open,
      s.entryDeadline,
      s.currency,
      JSON.stringify(s.fees),
      JSON.stringify(s.capacities),
      s.orderExpiryDays,
      JSON.stringify(s.refundPolicy),
      s.beneficiary,
      s.iban,
    ],
  );
}

/** The races of an event (all its contexts), in order. */
export async function racesOfEvent(sql: Sql, eventId: string): Promise<RaceInfo[]> {
  return sql.query<RaceInfo>(
    `SELECT r.id, r.db, r.name, to_char(r.race_date, 'YYYY-MM-DD') AS date, r.categories, r.age_basis AS "ageBasis"
       FROM races r JOIN contexts c ON c.db = r.db WHERE c.event_id = $1 ORDER BY r.position, r.id`,
    [eventId],
  );
}

/** Places taken per race: confirmed entries plus those held by orders awaiting payment. */
export async function placesTaken(sql: Sql, eventId: string): Promise<Map<string, number>> {
  const rows = await sql.query<{ raceId: string; n: number }>(
    `SELECT e.race_id AS "raceId", count(*)::int AS n
       FROM deposit_entries e JOIN deposits d ON d.id = e.deposit_id
      WHERE d.event_id = $1 AND e.race_id IS NOT NULL AND (e.state = 'confirmed' OR EXISTS (
        SELECT 1 FROM order_lines l JOIN orders o ON o.id = l.order_id
         WHERE l.entry_id = e.id AND o.state IN ('awaiting_payment', 'paid')))
      GROUP BY e.race_id`,
    [eventId],
  );
  return new Map(rows.map((r) => [r.raceId, r.n]));
}

const DEPOSIT = `d.id::text AS id, d.event_id AS "eventId", ev.name AS "eventName",
  to_char(ev.start_date, 'YYYY-MM-DD') AS "eventStart", ev.organisation_id::text AS "organisationId",
  d.organisation_name AS "organisationName", d.vat, d.type, d.captain_sub::text AS "captainSub",
  trim(u.first_name || ' ' || u.last_name) AS "captainName", u.email AS "captainEmail", d.join_code AS "joinCode",
  d.payer_mode AS "payerMode", d.company_cap AS "companyCap", to_char(d.company_until, 'YYYY-MM-DD') AS "companyUntil",
  d.min_team_size AS "minTeamSize", d.state, d.created_at AS "createdAt", d.submitted_at AS "submittedAt"`;
const DEPOSIT_FROM = 'deposits d JOIN events ev ON ev.id = d.event_id JOIN users u ON u.sub = d.captain_sub';

function depositOf(row: DepositRow): DepositRow {
  return { ...row, createdAt: iso(row.createdAt) as string, submittedAt: iso(row.submittedAt) };
}

export async function findDeposit(sql: Sql, id: string): Promise<DepositRow | null> {
  const [row] = await sql.query<DepositRow>(
    `SELECT ${DEPOSIT} FROM ${DEPOSIT_FROM} WHERE d.id = $1::bigint`,
    [id],
  );
  return row ? depositOf(row) : null;
}

export async function findDepositByCode(sql: Sql, code: string): Promise<DepositRow | null> {
  const [row] = await sql.query<DepositRow>(`SELECT ${DEPOSIT} FROM ${DEPOSIT_FROM} WHERE d.join_code = $1`, [
    code.toUpperCase(),
  ]);
  return row ? depositOf(row) : null;
}

/** Deposits where the user is captain or member. */
export async function depositsOfUser(sql: Sql, sub: string) {
  const rows = await sql.query<DepositRow & { entries: number; isCaptain: boolean }>(
    `SELECT ${DEPOSIT}, (d.captain_sub = $1) AS "isCaptain",
            (SELECT count(*)::int FROM deposit_entries e WHERE e.deposit_id = d.id AND e.state <> 'cancelled') AS entries
       FROM ${DEPOSIT_FROM}
      WHERE d.captain_sub = $1 OR EXISTS (SELECT 1 FROM deposit_members m WHERE m.deposit_id = d.id AND m.user_sub = $1)
      ORDER BY d.created_at DESC LIMIT 200`,
    [sub],
  );
  return rows.map((r) => ({ ...depositOf(r), entries: r.entries, isCaptain: r.isCaptain }));
}

export async function depositsOfEvent(sql: Sql, eventId: string) {
  const rows = await sql.query<DepositRow & { entries: number }>(
    `SELECT ${DEPOSIT},
            (SELECT count(*)::int FROM deposit_entries e WHERE e.deposit_id = d.id AND e.state <> 'cancelled') AS entries
       FROM ${DEPOSIT_FROM} WHERE d.event_id = $1 ORDER BY d.created_at DESC`,
    [eventId],
  );
  return rows.map((r) => ({ ...depositOf(r), entries: r.entries }));
}

export async function insertDeposit(
  sql: Sql,
  d: {
    eventId: string;
    organisationName: string;
    vat: string | null;
    type: string;
    captainSub: string;
    joinCode: string;
    payerMode: string;
    companyCap: number | null;
    companyUntil: string | null;
    minTeamSize: number;
  },
): Promise<string> {
  const [row] = await sql.query<{ id: string }>(
    `INSERT INTO deposits (id, event_id, organisation_name, vat, type, captain_sub, join_code, payer_mode, company_cap,
                           company_until, min_team_size)
     VALUES ($11, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id::text`,
    [
      d.eventId,
      d.organisationName,
      d.vat,
      d.type,
      d.captainSub,
      d.joinCode,
      d.payerMode,
      d.companyCap,
      d.companyUntil,
      d.minTeamSize,
      randomDepositId(),
    ],
  );
  return (row as { id: string }).id;
}

/**
 * A deposit's id, drawn at random (issue 25: sequential ids told how many deposits there were and
 * which existed). The id is the one in URLs, API answers, orders and receipts, so it is the key
 * itself rather than a second "public" id beside it: 2^52 + 52 random bits, always 16 digits, a
 * safe JavaScript integer, still a bigint for the tables that reference it. A collision (2^-52
 * per pair) fails the insert's primary key and the caller draws again.
 */
export function randomDepositId(): string {
  const bits = crypto.randomBytes(8).readBigUInt64BE() & ((1n << 52n) - 1n);
  return String((1n << 52n) + bits);
}

export async function updateDeposit(sql: Sql, id: string, patch: Record<string, unknown>) {
  const columns: Record<string, string> = {
    organisationName: 'organisation_name',
    vat: 'vat',
    type: 'type',
    payerMode: 'payer_mode',
    companyCap: 'company_cap',
    companyUntil: 'company_until',
    minTeamSize: 'min_team_size',
    state: 'state',
  };
  const sets: string[] = [];
  const values: unknown[] = [id];
  for (const [key, column] of Object.entries(columns)) {
    if (patch[key] === undefined) continue;
    values.push(patch[key]);
    sets.push(`${column} = $${values.length}`);
  }
  if (patch.submitted) sets.push('submitted_at = now()');
  if (!sets.length) return;
  await sql.query(`UPDATE deposits SET ${sets.join(', ')}, updated_at = now() WHERE id = $1::bigint`, values);
}

export async function isMember(sql: Sql, depositId: string, sub: string): Promise<boolean> {
  const rows = await sql.query(
    'SELECT 1 FROM deposit_members WHERE deposit_id = $1::bigint AND user_sub = $2',
    [depositId, sub],
  );
  return rows.length > 0;
}

export async function addMember(sql: Sql, depositId: string, sub: string) {
  await sql.query(
    'INSERT INTO deposit_members (deposit_id, user_sub) VALUES ($1::bigint, $2) ON CONFLICT DO NOTHING',
    [depositId, sub],
  );
}

export async function membersOf(sql: Sql, depositId: string) {
  return sql.query<{ sub: string; name: string; email: string }>(
    `SELECT m.user_sub::text AS sub, trim(u.first_name || ' ' || u.last_name) AS name, u.email
       FROM deposit_members m JOIN users u ON u.sub = m.user_sub WHERE m.deposit_id = $1::bigint ORDER BY m.joined_at`,
    [depositId],
  );
}

const ENTRY = `id::text AS id, deposit_id::text AS "depositId", state, member_sub::text AS "memberSub", race_id AS "raceId",
  first_name AS "firstName", last_name AS "lastName", gender, to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", email,
  nationality, category, bib, substitution, created_at AS "createdAt"`;

export async function entriesOf(sql: Sql, depositId: string): Promise<EntryRow[]> {
  const rows = await sql.query<EntryRow>(
    `SELECT ${ENTRY} FROM deposit_entries WHERE deposit_id = $1::bigint ORDER BY created_at, id`,
    [depositId],
  );
  return rows.map((r) => ({ ...r, createdAt: iso(r.createdAt) as string }));
}

export type EntryFields = Pick<
  EntryRow,
  | 'raceId'
  | 'firstName'
  | 'lastName'
  | 'gender'
  | 'birthDate'
  | 'email'
  | 'nationality'
  | 'category'
  | 'state'
>;

/** Inserts entries in one statement. */
export async function insertEntries(
  sql: Sql,
  depositId: string,
  rows: (EntryFields & { memberSub: string | null })[],
): Promise<string[]> {
  const out = await sql.query<{ id: string }>(
    `INSERT INTO deposit_entries (deposit_id, state, member_sub, race_id, first_name, last_name, gender, birth_date,
                                  email, nationality, category)
     SELECT $1::bigint, u.state, u.member_sub::uuid, u.race_id, u.first_name, u.last_name, u.gender, u.birth_date::date,
            u.email, u.nationality, u.category
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                   $10::text[], $11::text[])
         AS u(state, member_sub, race_id, first_name, last_name, gender, birth_date, email, nationality, category)
     RETURNING id::text`,
    [
      depositId,
      rows.map((r) => r.state),
      rows.map((r) => r.memberSub),
      rows.map((r) => r.raceId),
      rows.map((r) => r.firstName),
      rows.map((r) => r.lastName),
      rows.map((r) => r.gender),
      rows.map((r) => r.birthDate),
      rows.map((r) => r.email),
      rows.map((r) => r.nationality),
      rows.map((r) => r.category),
    ],
  );
  return out.map((r) => r.id);
}

export async function updateEntry(sql: Sql, id: string, e: EntryFields) {
  await sql.query(
    `UPDATE deposit_entries SET race_id = $2, first_name = $3, last_name = $4, gender = $5, birth_date = $6::date,
       email = $7, nationality = $8, category = $9, state = $10, updated_at = now() WHERE id = $1::bigint`,
    [
      id,
      e.raceId,
      e.firstName,
      e.lastName,
      e.gender,
      e.birthDate,
      e.email,
      e.nationality,
      e.category,
      e.state,
    ],
  );
}

export async function setEntryState(sql: Sql, ids: readonly string[], state: string) {
  if (!ids.length) return;
  await sql.query(`UPDATE deposit_entries SET state = $2, updated_at = now() WHERE id = ANY($1::bigint[])`, [
    ids,
    state,
  ]);
}

export async function setSubstitution(sql: Sql, id: string, substitution: unknown) {
  await sql.query(
    'UPDATE deposit_entries SET substitution = $2::jsonb, updated_at = now() WHERE id = $1::bigint',
    [id, substitution === null ? null : JSON.stringify(substitution)],
  );
}

/**
 * Other entries of the event (any deposit, not cancelled) and registered participants of the race
 * with the same name and birth date: the duplicates rule of participants (product.md
 * "Confirmation": by name + birth date).
 */
export async function findDuplicate(
  sql: Sql,
  eventId: string,
  e: { id?: string; raceId: string; firstName: string; lastName: string; birthDate: string },
): Promise<boolean> {
  const rows = await sql.query(
    `SELECT 1 FROM deposit_entries x JOIN deposits d ON d.id = x.deposit_id
      WHERE d.event_id = $1 AND x.state <> 'cancelled' AND x.race_id = $2 AND lower(x.first_name) = lower($3)
        AND lower(x.last_name) = lower($4) AND x.birth_date = $5::date AND x.id::text <> $6
     UNION ALL
     SELECT 1 FROM participants p WHERE p.race_id = $2 AND lower(p.first_name) = lower($3)
        AND lower(p.last_name) = lower($4) AND p.birth_date = $5::date
        AND NOT EXISTS (SELECT 1 FROM deposit_entries y WHERE y.id::text = $6 AND y.bib = p.bib AND y.race_id = p.race_id)
     LIMIT 1`,
    [eventId, e.raceId, e.firstName, e.lastName, e.birthDate, e.id ?? ''],
  );
  return rows.length > 0;
}

export async function insertMessage(
  sql: Sql,
  m: {
    depositId: string;
    authorSub: string;
    audience: string;
    subject: string;
    body: string;
    recipients: string[];
  },
) {
  const [row] = await sql.query<{ id: string; createdAt: string }>(
    `INSERT INTO deposit_messages (deposit_id, author_sub, audience, subject, body, recipients)
     VALUES ($1::bigint, $2, $3, $4, $5, $6::text[]) RETURNING id::text, created_at AS "createdAt"`,
    [m.depositId, m.authorSub, m.audience, m.subject, m.body, m.recipients],
  );
  return {
    id: (row as { id: string }).id,
    createdAt: iso((row as { createdAt: string }).createdAt) as string,
  };
}

export async function messagesOf(sql: Sql, depositId: string) {
  const rows = await sql.query<{
    id: string;
    authorName: string;
    audience: 'all' | 'missing' | 'unpaid' | 'organiser';
    subject: string;
    body: string;
    recipients: number;
    createdAt: string;
  }>(
    `SELECT m.id::text AS id, trim(u.first_name || ' ' || u.last_name) AS "authorName", m.audience, m.subject, m.body,
            coalesce(array_length(m.recipients, 1), 0) AS recipients, m.created_at AS "createdAt"
       FROM deposit_messages m JOIN users u ON u.sub = m.author_sub
      WHERE m.deposit_id = $1::bigint ORDER BY m.created_at, m.id`,
    [depositId],
  );
  return rows.map((r) => ({ ...r, authorName: r.authorName || '—', createdAt: iso(r.createdAt) as string }));
}

/** E-mails of the owners and staff of an organisation (messages to the organiser). */
/** The organisation's owners and staff with the language of their account (their notices). */
export function organiserRecipients(
  sql: Sql,
  organisationId: string,
): Promise<{ email: string; lng: 'en' | 'fr' }[]> {
  return sql.query<{ email: string; lng: 'en' | 'fr' }>(
    `SELECT u.email, u.lng FROM organisation_members m JOIN users u ON u.sub = m.user_sub
      WHERE m.organisation_id = $1 AND m.role IN ('owner', 'staff')`,
    [organisationId],
  );
}

export async function organiserEmails(sql: Sql, organisationId: string): Promise<string[]> {
  const rows = await sql.query<{ email: string }>(
    `SELECT u.email FROM organisation_members m JOIN users u ON u.sub = m.user_sub
      WHERE m.organisation_id = $1 AND m.role IN ('owner', 'staff')`,
    [organisationId],
  );
  return rows.map((r) => r.email);
}
