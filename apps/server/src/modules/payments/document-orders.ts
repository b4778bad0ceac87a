import type { DocumentOrder } from '@tempora/contracts';
import { formatStructured } from '@tempora/domain';
import type { Sql } from '../../db/database.ts';
import * as repo from './repository.ts';

/**
 * The order of a confirmed confirmation document (issue 29): the sender (a school, a club, a
 * company) owes the report's fees. It is an ordinary order (a structured communication, bank
 * statements matched by the payments service, refunds and exports alike) without a deposit or
 * a payer account, and it has an invoice numbered in sequence per organisation. Once per
 * document: a second call returns the first order. No order when the fees are nil.
 */
export async function orderForDocument(
  sql: Sql,
  doc: { id: string; eventId: string; senderKind: string },
  feesCents: number,
  now: Date = new Date(),
): Promise<string | null> {
  const [known] = await sql.query<{ id: string }>(
    'SELECT id::text AS id FROM orders WHERE document_id = $1::uuid',
    [doc.id],
  );
  if (known) return known.id;
  if (feesCents <= 0) return null;
  const settings = await repo.paymentTerms(sql, doc.eventId);
  const id = await repo.nextOrderId(sql);
  await repo.insertOrder(sql, {
    id,
    depositId: null,
    documentId: doc.id,
    eventId: doc.eventId,
    payerSub: null,
    company: doc.senderKind !== 'club',
    state: 'awaiting_payment',
    amountCents: feesCents,
    currency: settings?.currency ?? 'EUR',
    structured: await repo.freeStructured(sql),
    // The due date printed on the invoice; such an order never expires (deposits/confirm.ts).
    expiresAt: new Date(now.getTime() + (settings?.orderExpiryDays ?? 30) * 86_400_000),
    lines: [],
  });
  await assignInvoice(sql, id);
  return id;
}

/**
 * Gives an order its invoice, numbered in the sequence of the event's organisation, once (a
 * second call answers the first number). The number comes from the organisation's counter row
 * (`invoice_counters`, 0099), incremented in the caller's transaction: its row lock makes two
 * nodes numbering at once wait for each other, and a transaction rolled back takes its number
 * back with it — no gap, never twice. Used for confirmation documents (issue 29) and for entries
 * orders when they are paid (issue 38).
 */
export async function assignInvoice(sql: Sql, orderId: string): Promise<number> {
  // One statement (issue 38: the rush invoices 5,000 orders a minute): the order's number if it
  // has one, else the organisation's counter moved on and the invoice inserted with it.
  const [row] = await sql.query<{ number: number }>(
    `WITH known AS (SELECT number FROM invoices WHERE order_id = $1::bigint),
     next AS (
       INSERT INTO invoice_counters (organisation_id, last)
       SELECT ev.organisation_id, 1 FROM orders o JOIN events ev ON ev.id = o.event_id
        WHERE o.id = $1::bigint AND NOT EXISTS (SELECT 1 FROM known)
       ON CONFLICT (organisation_id) DO UPDATE SET last = invoice_counters.last + 1
       RETURNING organisation_id, last),
     made AS (
       INSERT INTO invoices (organisation_id, number, order_id)
       SELECT organisation_id, last, $1::bigint FROM next RETURNING number)
     SELECT number FROM known UNION ALL SELECT number FROM made`,
    [orderId],
  );
  if (!row) throw new Error(`No order '${orderId}' to invoice`);
  return row.number;
}

/**
 * A credit note (avoir, issue 38) for a refund of an order that has its invoice, once per refund
 * (a second call answers the first number; null for an order without an invoice). Numbered from
 * the same counter row as invoices (`invoice_counters`), in the refund's transaction: one
 * sequence per organisation, without gaps, never twice. It refers to the invoice it corrects.
 */
export async function assignCreditNote(sql: Sql, refundId: string): Promise<number | null> {
  const [known] = await sql.query<{ number: number }>(
    'SELECT number FROM credit_notes WHERE refund_id = $1::bigint',
    [refundId],
  );
  if (known) return known.number;
  const [invoice] = await sql.query<{
    organisationId: string;
    number: number;
    orderId: string;
    amount: number;
  }>(
    `SELECT i.organisation_id::text AS "organisationId", i.number, i.order_id::text AS "orderId", r.amount_cents AS amount
       FROM refunds r JOIN invoices i ON i.order_id = r.order_id WHERE r.id = $1::bigint`,
    [refundId],
  );
  if (!invoice) return null;
  const [next] = await sql.query<{ last: number }>(
    `INSERT INTO invoice_counters (organisation_id, last) VALUES ($1::uuid, 1)
     ON CONFLICT (organisation_id) DO UPDATE SET last = invoice_counters.last + 1 RETURNING last`,
    [invoice.organisationId],
  );
  await sql.query(
    `INSERT INTO credit_notes (organisation_id, number, order_id, refund_id, invoice_number, amount_cents)
     VALUES ($1::uuid, $2, $3::bigint, $4::bigint, $5, $6)`,
    [invoice.organisationId, next!.last, invoice.orderId, refundId, invoice.number, invoice.amount],
  );
  return next!.last;
}

/** A credit note of an order, with its invoice's number and the organiser's details. */
export async function creditNoteOf(sql: Sql, orderId: string, number: number) {
  const [row] = await sql.query<{
    number: number;
    invoiceNumber: number;
    amountCents: number;
    issuedAt: Date | string;
    reason: string;
    organisationName: string;
    legal: Legal;
  }>(
    `SELECT n.number, n.invoice_number AS "invoiceNumber", n.amount_cents AS "amountCents", n.issued_at AS "issuedAt",
            r.reason, org.name AS "organisationName", org.legal
       FROM credit_notes n JOIN refunds r ON r.id = n.refund_id JOIN organisations org ON org.id = n.organisation_id
      WHERE n.order_id = $1::bigint AND n.number = $2`,
    [orderId, number],
  );
  return row ?? null;
}

/** An invoice number as printed: the organisation's sequence, six digits. */
export const invoiceLabel = (n: number) => String(n).padStart(6, '0');

/** The order and invoice of a document, or null before it is confirmed (or with nil fees). */
export async function documentOrder(sql: Sql, documentId: string): Promise<DocumentOrder | null> {
  const [row] = await sql.query<{
    orderId: string;
    state: DocumentOrder['state'];
    amountCents: number;
    paidCents: number;
    currency: string;
    structured: string;
    number: number;
  }>(
    `SELECT o.id::text AS "orderId", o.state, o.amount_cents AS "amountCents", o.paid_cents AS "paidCents",
            o.currency, o.structured, i.number
       FROM orders o JOIN invoices i ON i.order_id = o.id WHERE o.document_id = $1::uuid`,
    [documentId],
  );
  if (!row) return null;
  const { structured, number, ...rest } = row;
  return { ...rest, communication: formatStructured(structured), invoiceNumber: invoiceLabel(number) };
}

export interface Legal {
  name?: string;
  address?: string;
  vatNumber?: string;
  /** Percent, e.g. 21; absent or 0: no VAT line. */
  vatRate?: number | null;
}

/** The invoice of an order with one (a confirmation document's), with the organiser's details. */
export async function invoiceOf(sql: Sql, orderId: string) {
  const [row] = await sql.query<{
    number: number;
    issuedAt: Date | string;
    organisationName: string;
    legal: Legal;
    title: string;
  }>(
    `SELECT i.number, i.issued_at AS "issuedAt", org.name AS "organisationName", org.legal,
            coalesce(cd.title, '') AS title
       FROM invoices i JOIN organisations org ON org.id = i.organisation_id
       JOIN orders o ON o.id = i.order_id LEFT JOIN confirmation_documents cd ON cd.id = o.document_id
      WHERE i.order_id = $1::bigint`,
    [orderId],
  );
  return row ?? null;
}

/** VAT included in a total: the net and the tax, in cents (the tax rounded, net = total − tax). */
export function vatSplit(totalCents: number, ratePercent: number): { netCents: number; vatCents: number } {
  const netCents = Math.round((totalCents * 100) / (100 + ratePercent));
  return { netCents, vatCents: totalCents - netCents };
}
