import crypto from 'node:crypto';
import { type StructuredDigits, structuredFromNumber } from '@tempora/domain';
import type { Sql } from '../../db/database.ts';
import { recordAudit } from '../../lib/audit.ts';
import { iso } from '../../lib/iso-time.ts';
import type { EntryInvoiceLine } from './documents.ts';

/** SQL of orders, payments, bank statements, the audit trail and refunds (issue 18). */

export interface OrderRow {
  id: string;
  /** Null for the order of a confirmation document (`documentId`). */
  depositId: string | null;
  documentId: string | null;
  /** An online entries order (issue 38): its lines are its entries. */
  registration: boolean;
  eventId: string;
  eventName: string;
  organisationId: string;
  organisationName: string;
  payerSub: string | null;
  payerName: string;
  payerEmail: string;
  company: boolean;
  state: 'awaiting_payment' | 'paid' | 'expired' | 'cancelled' | 'refunded';
  provider: 'bank' | 'mollie' | 'stripe';
  amountCents: number;
  paidCents: number;
  refundedCents: number;
  currency: string;
  structured: string;
  providerPaymentId: string | null;
  /** What Tempora asked the provider for when it opened `providerPaymentId`. */
  providerAmountCents: number | null;
  expiresAt: string;
  createdAt: string;
  paidAt: string | null;
}

// A document's order (issue 29) has its sender for team and its contact for payer.
const ORDER = `o.id::text AS id, o.deposit_id::text AS "depositId", o.document_id::text AS "documentId",
  o.registration, o.event_id AS "eventId", ev.name AS "eventName", ev.organisation_id::text AS "organisationId",
  coalesce(d.organisation_name, cd.sender_name, ev.name) AS "organisationName", o.payer_sub::text AS "payerSub",
  coalesce(trim(u.first_name || ' ' || u.last_name), cd.contact_name) AS "payerName",
  coalesce(u.email, cd.contact_email) AS "payerEmail", o.company, o.state, o.provider,
  o.amount_cents AS "amountCents", o.paid_cents AS "paidCents", o.refunded_cents AS "refundedCents", o.currency,
  o.structured, o.provider_payment_id AS "providerPaymentId",
  o.provider_amount_cents AS "providerAmountCents", o.expires_at AS "expiresAt", o.created_at AS "createdAt",
  o.paid_at AS "paidAt"`;
const ORDER_FROM = `orders o JOIN events ev ON ev.id = o.event_id LEFT JOIN deposits d ON d.id = o.deposit_id
  LEFT JOIN users u ON u.sub = o.payer_sub LEFT JOIN confirmation_documents cd ON cd.id = o.document_id`;

const orderOf = (r: OrderRow): OrderRow => ({
  ...r,
  expiresAt: iso(r.expiresAt) as string,
  createdAt: iso(r.createdAt) as string,
  paidAt: iso(r.paidAt),
});

export async function ordersWhere(sql: Sql, where: string, params: unknown[]): Promise<OrderRow[]> {
  const rows = await sql.query<OrderRow>(
    `SELECT ${ORDER} FROM ${ORDER_FROM} WHERE ${where} ORDER BY o.id`,
    params,
  );
  return rows.map(orderOf);
}

export async function findOrder(sql: Sql, id: string): Promise<OrderRow | null> {
  if (!/^\d{1,15}$/.test(id)) return null;
  const [row] = await ordersWhere(sql, 'o.id = $1::bigint', [id]);
  return row ?? null;
}

/** The next order id, so its structured communication can be derived before the insert. */
/**
 * A structured communication no order holds yet, from 10 random digits (issue 29: derived from
 * the order number, they were sequential across the whole instance and told every organiser how
 * many orders the others had). 10^10 bases: a clash is rare, and retried.
 */
export async function freeStructured(sql: Sql): Promise<StructuredDigits> {
  for (;;) {
    const candidate = structuredFromNumber(crypto.randomInt(0, 10_000_000_000));
    const [taken] = await sql.query('SELECT 1 FROM orders WHERE structured = $1', [candidate]);
    if (!taken) return candidate;
  }
}

/**
 * `n` structured communications no order holds, none twice (the registration rush's batches,
 * issue 38): one lookup for all of them, clashes drawn again.
 */
export async function freeStructuredMany(sql: Sql, n: number): Promise<StructuredDigits[]> {
  const draw = () => structuredFromNumber(crypto.randomInt(0, 10_000_000_000));
  const out = new Set<StructuredDigits>();
  while (out.size < n) {
    const candidates = [...new Set(Array.from({ length: n - out.size }, draw))].filter((c) => !out.has(c));
    const taken = new Set(
      (
        await sql.query<{ structured: string }>(
          'SELECT structured FROM orders WHERE structured = ANY($1::text[])',
          [candidates],
        )
      ).map((r) => r.structured),
    );
    for (const c of candidates) if (!taken.has(c)) out.add(c);
  }
  return [...out];
}

/** `n` new order ids, ascending. */
export async function nextOrderIds(sql: Sql, n: number): Promise<string[]> {
  const rows = await sql.query<{ id: string }>(
    "SELECT nextval('orders_id_seq')::text AS id FROM generate_series(1, $1::int)",
    [n],
  );
  return rows.map((r) => r.id).sort((a, b) => Number(a) - Number(b));
}

/**
 * Online entries orders (issue 38) inserted in one statement, awaiting their payment (no lines:
 * their lines are their entries).
 */
export async function insertRegistrationOrders(
  sql: Sql,
  rows: readonly {
    id: string;
    eventId: string;
    payerSub: string;
    amountCents: number;
    currency: string;
    structured: string;
    expiresAt: Date;
  }[],
): Promise<void> {
  if (!rows.length) return;
  const col = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
  await sql.query(
    `INSERT INTO orders (id, deposit_id, event_id, payer_sub, company, state, amount_cents, currency, structured, expires_at,
                         paid_at, document_id, registration)
     SELECT u.id, NULL, u.event_id, u.payer_sub, false, 'awaiting_payment', u.amount_cents, u.currency, u.structured,
            u.expires_at, NULL, NULL, true
       FROM unnest($1::bigint[], $2::text[], $3::uuid[], $4::int[], $5::text[], $6::text[], $7::timestamptz[])
            AS u(id, event_id, payer_sub, amount_cents, currency, structured, expires_at)`,
    [
      col((r) => r.id),
      col((r) => r.eventId),
      col((r) => r.payerSub),
      col((r) => r.amountCents),
      col((r) => r.currency),
      col((r) => r.structured),
      col((r) => r.expiresAt.toISOString()),
    ],
  );
}

export async function nextOrderId(sql: Sql): Promise<string> {
  const [row] = await sql.query<{ id: string }>("SELECT nextval('orders_id_seq')::text AS id");
  return (row as { id: string }).id;
}

export async function insertOrder(
  sql: Sql,
  o: {
    id: string;
    depositId: string | null;
    documentId?: string | null;
    registration?: boolean;
    eventId: string;
    payerSub: string | null;
    company: boolean;
    state: string;
    amountCents: number;
    currency: string;
    structured: string;
    expiresAt: Date;
    lines: { entryId: string; raceId: string; amountCents: number }[];
  },
) {
  await sql.query(
    `INSERT INTO orders (id, deposit_id, event_id, payer_sub, company, state, amount_cents, currency, structured, expires_at,
                         paid_at, document_id, registration)
     VALUES ($1::bigint, $2::bigint, $3, $4, $5, $6, $7, $8, $9, $10, CASE WHEN $6 = 'paid' THEN now() END, $11::uuid, $12)`,
    [
      o.id,
      o.depositId,
      o.eventId,
      o.payerSub,
      o.company,
      o.state,
      o.amountCents,
      o.currency,
      o.structured,
      o.expiresAt,
      o.documentId ?? null,
      o.registration ?? false,
    ],
  );
  if (!o.lines.length) return;
  await sql.query(
    `INSERT INTO order_lines (order_id, entry_id, race_id, amount_cents)
     SELECT $1::bigint, u.entry_id::bigint, u.race_id, u.amount_cents
       FROM unnest($2::text[], $3::text[], $4::int[]) AS u(entry_id, race_id, amount_cents)`,
    [o.id, o.lines.map((l) => l.entryId), o.lines.map((l) => l.raceId), o.lines.map((l) => l.amountCents)],
  );
}

export async function linesOf(sql: Sql, orderIds: readonly string[]) {
  return sql.query<{
    orderId: string;
    entryId: string;
    raceId: string;
    raceName: string;
    participant: string;
    amountCents: number;
  }>(
    `SELECT * FROM (SELECT l.order_id::text AS "orderId", l.entry_id::text AS "entryId", l.race_id AS "raceId",
            coalesce(r.name, l.race_id) AS "raceName", trim(e.first_name || ' ' || e.last_name) AS participant,
            l.amount_cents AS "amountCents"
       FROM order_lines l JOIN deposit_entries e ON e.id = l.entry_id LEFT JOIN races r ON r.id = l.race_id
      WHERE l.order_id = ANY($1::bigint[])
     UNION ALL
     -- An online entries order's lines are its entries (issue 38; the name is the participant's once confirmed).
     SELECT re.order_id::text, re.id::text, re.race_id, coalesce(r.name, re.race_id),
            coalesce(trim(p.first_name || ' ' || p.last_name), trim((re.details->>'firstName') || ' ' || (re.details->>'lastName'))),
            re.entry_cents - re.discount_cents + re.addons_cents
       FROM registration_entries re LEFT JOIN races r ON r.id = re.race_id LEFT JOIN participants p ON p.id = re.participant_id
      WHERE re.order_id = ANY($1::bigint[])) lines
     ORDER BY "orderId"::bigint, "entryId"::bigint`,
    [orderIds],
  );
}

/** The invoice numbers of orders (those invoiced), as printed (six digits). */
export async function invoicesOf(sql: Sql, orderIds: readonly string[]): Promise<Map<string, string>> {
  if (!orderIds.length) return new Map();
  const rows = await sql.query<{ orderId: string; number: number }>(
    'SELECT order_id::text AS "orderId", number FROM invoices WHERE order_id = ANY($1::bigint[])',
    [orderIds],
  );
  return new Map(rows.map((r) => [r.orderId, String(r.number).padStart(6, '0')]));
}

export async function refundsOf(sql: Sql, orderIds: readonly string[]) {
  const rows = await sql.query<{
    id: string;
    orderId: string;
    amountCents: number;
    reason: string;
    method: 'bank' | 'provider';
    state: 'pending' | 'exported' | 'done' | 'failed';
    createdAt: string;
    iban: string;
    creditNote: number | null;
  }>(
    `SELECT r.id::text AS id, r.order_id::text AS "orderId", r.amount_cents AS "amountCents", r.reason, r.method, r.state,
            r.created_at AS "createdAt", r.iban, n.number AS "creditNote"
       FROM refunds r LEFT JOIN credit_notes n ON n.refund_id = r.id WHERE r.order_id = ANY($1::bigint[]) ORDER BY r.id`,
    [orderIds],
  );
  return rows.map((r) => ({
    ...r,
    createdAt: iso(r.createdAt) as string,
    creditNote: r.creditNote === null ? null : String(r.creditNote).padStart(6, '0'),
  }));
}

/**
 * Records money received for an order, once per provider reference. Returns false (nothing
 * changed) when that reference was recorded before: webhooks retried, a line matched again.
 */
export async function insertPayment(
  sql: Sql,
  p: { orderId: string; provider: string; providerRef: string; amountCents: number },
): Promise<boolean> {
  const rows = await sql.query(
    `INSERT INTO payments (order_id, provider, provider_ref, amount_cents) VALUES ($1::bigint, $2, $3, $4)
     ON CONFLICT (provider, provider_ref) DO NOTHING RETURNING id`,
    [p.orderId, p.provider, p.providerRef, p.amountCents],
  );
  if (!rows.length) return false;
  await sql.query(
    `UPDATE orders SET paid_cents = paid_cents + $2,
       state = CASE WHEN paid_cents + $2 >= amount_cents AND state IN ('awaiting_payment', 'expired') THEN 'paid' ELSE state END,
       paid_at = CASE WHEN paid_cents + $2 >= amount_cents AND paid_at IS NULL THEN now() ELSE paid_at END
     WHERE id = $1::bigint`,
    [p.orderId, p.amountCents],
  );
  return true;
}

export async function audit(
  sql: Sql,
  a: {
    organisationId: string;
    orderId?: string | null;
    bankLineId?: string | null;
    action: string;
    amountCents?: number | null;
    actorSub?: string | null;
    note?: string;
  },
) {
  await recordAudit(sql, [
    {
      subject: 'payment',
      subjectId: a.orderId ?? a.bankLineId ?? '',
      organisationId: a.organisationId,
      action: a.action,
      actorSub: a.actorSub ?? null,
      detail: {
        orderId: a.orderId ?? null,
        bankLineId: a.bankLineId ?? null,
        amountCents: a.amountCents ?? null,
        note: a.note ?? '',
      },
    },
  ]);
}

export interface BankLineRow {
  id: string;
  bankRef: string;
  amountCents: number;
  currency: string;
  bookingDate: string | null;
  structured: string | null;
  freeText: string;
  counterpartyName: string;
  counterpartyAccount: string;
  state: 'matched' | 'manual' | 'ignored' | 'debit';
  reason: string | null;
  allocatedCents: number;
}

const LINE = `id::text AS id, bank_ref AS "bankRef", amount_cents AS "amountCents", currency,
  to_char(booking_date, 'YYYY-MM-DD') AS "bookingDate", structured, free_text AS "freeText",
  counterparty_name AS "counterpartyName", counterparty_account AS "counterpartyAccount", state, reason,
  allocated_cents AS "allocatedCents"`;

export async function bankLinesWhere(sql: Sql, where: string, params: unknown[]): Promise<BankLineRow[]> {
  return sql.query<BankLineRow>(`SELECT ${LINE} FROM bank_lines WHERE ${where} ORDER BY id`, params);
}

export async function knownBankRefs(
  sql: Sql,
  organisationId: string,
  refs: readonly string[],
): Promise<Set<string>> {
  const rows = await sql.query<{ ref: string }>(
    'SELECT bank_ref AS ref FROM bank_lines WHERE organisation_id = $1 AND bank_ref = ANY($2::text[])',
    [organisationId, refs],
  );
  return new Set(rows.map((r) => r.ref));
}

export async function auditOf(sql: Sql, organisationId: string, eventId: string) {
  const rows = await sql.query<{
    id: string;
    orderId: string | null;
    bankLineId: string | null;
    action: string;
    amountCents: number | null;
    actor: string;
    note: string;
    createdAt: string;
  }>(
    `SELECT a.id::text AS id, a.detail->>'orderId' AS "orderId", a.detail->>'bankLineId' AS "bankLineId", a.action,
            (a.detail->>'amountCents')::int AS "amountCents", coalesce(u.email, 'automatic') AS actor,
            coalesce(a.detail->>'note', '') AS note, a.at AS "createdAt"
       FROM audit_trail a LEFT JOIN users u ON u.sub::text = a.actor_sub
       LEFT JOIN orders o ON o.id = (a.detail->>'orderId')::bigint
      WHERE a.organisation_id = $1 AND a.subject = 'payment' AND (o.event_id = $2 OR a.detail->>'orderId' IS NULL)
      ORDER BY a.id DESC LIMIT 500`,
    [organisationId, eventId],
  );
  return rows.map((r) => ({ ...r, createdAt: iso(r.createdAt) as string }));
}

/**
 * The payment terms of an event (currency, order expiry, refund policy, the beneficiary's account),
 * read from `deposit_settings`: the deposits module owns and writes that table (its settings
 * route); payments only read these columns.
 */
export interface PaymentTerms {
  currency: string;
  orderExpiryDays: number;
  refundPolicy: unknown;
  beneficiary: string;
  iban: string;
}

export async function paymentTerms(sql: Sql, eventId: string): Promise<PaymentTerms | null> {
  const [row] = await sql.query<PaymentTerms>(
    `SELECT currency, order_expiry_days AS "orderExpiryDays", refund_policy AS "refundPolicy", beneficiary, iban
       FROM deposit_settings WHERE event_id = $1`,
    [eventId],
  );
  return row ?? null;
}

/** The VAT number printed on a deposit's receipt (the deposit's company), if any. */
export async function depositVat(sql: Sql, depositId: string): Promise<string | null> {
  const [row] = await sql.query<{ vat: string | null }>('SELECT vat FROM deposits WHERE id = $1::bigint', [
    depositId,
  ]);
  return row?.vat ?? null;
}

/**
 * The lines of an entries order's invoice (issue 38): its entries that were not refunded for want
 * of a place (runner, race, entry price, discount and its code, add-ons), or the change it paid
 * (a move, a transfer, a deferral); and the runner's language.
 */
export async function entryInvoiceLines(
  sql: Sql,
  orderId: string,
): Promise<[{ entries: EntryInvoiceLine[]; changes: ('move' | 'transfer' | 'defer')[] }, 'en' | 'fr']> {
  const entries = await sql.query<
    EntryInvoiceLine & { lang: 'en' | 'fr'; addOns: { name: string; quantity: number; cents: number }[] }
  >(
    `SELECT coalesce(trim(p.first_name || ' ' || p.last_name), trim((re.details->>'firstName') || ' ' || (re.details->>'lastName'))) AS runner,
            coalesce(r.name, re.race_id) AS "raceName", re.entry_cents AS "entryCents", re.discount_cents AS "discountCents",
            c.code AS "discountCode", re.addons AS "addOns", re.lang
       FROM registration_entries re LEFT JOIN races r ON r.id = re.race_id LEFT JOIN participants p ON p.id = re.participant_id
       LEFT JOIN registration_codes c ON c.id = re.code_id
      WHERE re.order_id = $1::bigint AND NOT re.refund_due AND re.state <> 'expired' ORDER BY re.id`,
    [orderId],
  );
  const changes = await sql.query<{ action: 'move' | 'transfer' | 'defer'; lang: 'en' | 'fr' }>(
    `SELECT ch.action, e.lang FROM registration_changes ch JOIN registration_entries e ON e.id = ch.entry_id
      WHERE ch.order_id = $1::bigint ORDER BY ch.id`,
    [orderId],
  );
  const lang = entries[0]?.lang ?? changes[0]?.lang ?? 'en';
  return [
    {
      entries: entries.map(({ lang: _l, ...e }) => ({
        ...e,
        addOns: (e.addOns ?? []).map((a) => ({ name: a.name, quantity: a.quantity, cents: a.cents })),
      })),
      changes: changes.map((c) => c.action),
    },
    lang,
  ];
}
