import type { RefundInput } from '@tempora/contracts';
import { checkPartialRefund, policyRefundCents, type RefundPolicy } from '@tempora/domain';
import { errors } from '../../../errors.ts';
import { assignCreditNote } from '../document-orders.ts';
import * as repo from '../repository.ts';
import type { PaymentsContext } from './shared.ts';

/**
 * Refunds (issue 18): of paid orders, full, partial or by the event's policy, through the
 * provider or as pending bank refunds, each audited; and the export of pending bank refunds.
 */
export function createRefunds(ctx: PaymentsContext) {
  const { deps, database, now } = ctx;

  /**
   * Refunds of paid orders: full, partial (an amount per order) or by the event's policy on
   * today's date; for a list of orders or every paid order of a race (cancelled). By provider
   * when the order was paid online and `method` is provider; otherwise a pending bank refund
   * for the export.
   */
  async function refund(
    eventId: string,
    organisationId: string,
    input: RefundInput,
    actorSub: string | null,
  ) {
    const orders = input.raceId
      ? await repo.ordersWhere(
          database,
          `o.event_id = $1 AND o.state = 'paid' AND EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = o.id AND l.race_id = $2)`,
          [eventId, input.raceId],
        )
      : await repo.ordersWhere(database, 'o.event_id = $1 AND o.id = ANY($2::bigint[])', [
          eventId,
          input.orderIds ?? [],
        ]);
    if (!orders.length) throw errors.notFound('ORDER_NOT_FOUND', 'No paid order to refund');
    const settings = await repo.paymentTerms(database, eventId);
    const policy = (settings?.refundPolicy as RefundPolicy | undefined) ?? { kind: 'none' };
    const today = now().toISOString().slice(0, 10);
    // A cancelled race refunds only its own lines of each order (an order may hold other races).
    const raceShare = new Map<string, number>();
    if (input.raceId) {
      for (const l of await repo.linesOf(
        database,
        orders.map((o) => o.id),
      )) {
        if (l.raceId === input.raceId)
          raceShare.set(l.orderId, (raceShare.get(l.orderId) ?? 0) + l.amountCents);
      }
    }
    const plan = orders.map((o) => {
      if (o.state !== 'paid') throw errors.conflict('ORDER_STATE', `Order ${o.id} is ${o.state}`);
      const left = o.paidCents - o.refundedCents;
      const base = input.raceId ? Math.min(raceShare.get(o.id) ?? 0, o.paidCents) : o.paidCents;
      const amount =
        input.kind === 'full'
          ? Math.min(base, left)
          : input.kind === 'partial'
            ? (input.amountCents as number)
            : Math.min(policyRefundCents(policy, today, base, 0), left);
      if (input.kind === 'partial') {
        const problem = checkPartialRefund(amount, o.paidCents, o.refundedCents);
        if (problem) throw errors.badRequest('REFUND_INVALID', `Order ${o.id}: ${problem}`);
      }
      return { order: o, amount };
    });
    const created: string[] = [];
    for (const { order, amount } of plan.filter((p) => p.amount > 0)) {
      const online = input.method === 'provider' && order.provider !== 'bank' && order.providerPaymentId;
      let providerRef: string | null = null;
      if (online) {
        const provider = order.provider === 'mollie' ? deps.mollie : deps.stripe;
        if (!provider) throw errors.conflict('PROVIDER_DISABLED', `${order.provider} is not configured`);
        providerRef = await provider.refund(order.providerPaymentId as string, amount, order.currency);
      }
      const [counterparty] = await database.query<{ account: string }>(
        `SELECT b.counterparty_account AS account FROM payments p JOIN bank_lines b ON p.provider_ref LIKE 'line:' || b.id || '%'
          WHERE p.order_id = $1::bigint AND p.provider = 'bank' ORDER BY p.id LIMIT 1`,
        [order.id],
      );
      await database.transaction(async (sql) => {
        const [row] = await sql.query<{ id: string }>(
          `INSERT INTO refunds (order_id, amount_cents, reason, method, state, iban, provider_ref, created_by)
           VALUES ($1::bigint, $2, $3, $4, $5, $6, $7, $8) RETURNING id::text`,
          [
            order.id,
            amount,
            input.reason ?? '',
            online ? 'provider' : 'bank',
            online ? 'done' : 'pending',
            counterparty?.account ?? '',
            providerRef,
            actorSub,
          ],
        );
        created.push((row as { id: string }).id);
        // An invoiced order's refund gets its credit note, numbered in the invoices' sequence.
        await assignCreditNote(sql, (row as { id: string }).id);
        await sql.query(
          `UPDATE orders SET refunded_cents = refunded_cents + $2,
             state = CASE WHEN refunded_cents + $2 >= paid_cents THEN 'refunded' ELSE state END WHERE id = $1::bigint`,
          [order.id, amount],
        );
        await repo.audit(sql, {
          organisationId,
          orderId: order.id,
          action: 'refund',
          amountCents: amount,
          actorSub,
          note: input.reason ?? '',
        });
      });
    }
    return repo
      .refundsOf(
        database,
        plan.map((p) => p.order.id),
      )
      .then((r) => r.filter((x) => created.includes(x.id)));
  }

  /** Pending bank refunds of an event as a CSV for the bank (marked exported). */
  async function refundExport(eventId: string) {
    const rows = await database.query<{
      id: string;
      orderId: string;
      amountCents: number;
      iban: string;
      name: string;
      reason: string;
    }>(
      `UPDATE refunds r SET state = 'exported', exported_at = now()
         FROM orders o LEFT JOIN users u ON u.sub = o.payer_sub
              LEFT JOIN confirmation_documents cd ON cd.id = o.document_id
        WHERE o.id = r.order_id AND o.event_id = $1 AND r.method = 'bank' AND r.state = 'pending'
        RETURNING r.id::text AS id, r.order_id::text AS "orderId", r.amount_cents AS "amountCents", r.iban,
                  coalesce(trim(u.first_name || ' ' || u.last_name), cd.sender_name) AS name, r.reason`,
      [eventId],
    );
    return rows;
  }

  return { refund, refundExport };
}
