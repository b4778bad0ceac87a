import type { OrderDetail, RefundInput, StatementImportResult } from '@tempora/contracts';
import {
  checkAllocation,
  checkPartialRefund,
  formatStructured,
  matchStatement,
  policyRefundCents,
  type RefundPolicy,
  referencesOf,
} from '@tempora/domain';
import type { Database, Sql } from '../../db/database.ts';
import { AppError, errors } from '../../errors.ts';
import type { Results } from '../results/port.ts';
import type { MollieProvider } from './providers/mollie.ts';
import type { OnlineProvider } from './providers/provider.ts';
import type { StripeProvider } from './providers/stripe.ts';
import * as repo from './repository.ts';
import { type ParsedStatement, StatementError } from './statements/statement.ts';

export interface PaymentsDeps {
  database: Database;
  results: Results;
  mollie: MollieProvider | null;
  stripe: StripeProvider | null;
  publicUrl: string | undefined;
  now?: () => Date;
  /**
   * What a paid order settles, in the payment's transaction: the deposits module settles the
   * order's deposit (its runners become participants) and answers the contexts to reload. Given
   * by whoever composes the modules (deposits/plugin.ts), so payments import nothing of deposits.
   */
  settle?: (sql: Sql, order: repo.OrderRow) => Promise<string[]>;
}

/**
 * Payments (issue 18): orders paid by bank transfer (statements imported and matched, a manual
 * queue, an audit of every match) or through Mollie / Stripe (webhooks, idempotent on the
 * provider's id), refunds, receipts and the accountant's exports.
 */
export function createPaymentsService(deps: PaymentsDeps) {
  const { database, results } = deps;
  const now = deps.now ?? (() => new Date());

  function providers() {
    return ['bank', ...(deps.mollie ? ['mollie'] : []), ...(deps.stripe ? ['stripe'] : [])] as (
      | 'bank'
      | 'mollie'
      | 'stripe'
    )[];
  }

  async function details(orders: repo.OrderRow[]): Promise<OrderDetail[]> {
    const ids = orders.map((o) => o.id);
    const lines = await repo.linesOf(database, ids);
    const refunds = await repo.refundsOf(database, ids);
    const settings = new Map<string, repo.PaymentTerms | null>();
    for (const eventId of new Set(orders.map((o) => o.eventId))) {
      settings.set(eventId, await repo.paymentTerms(database, eventId));
    }
    return orders.map((o) => ({
      id: o.id,
      depositId: o.depositId,
      documentId: o.documentId,
      eventId: o.eventId,
      eventName: o.eventName,
      organisationName: o.organisationName,
      payerName: o.payerName || o.payerEmail,
      payerEmail: o.payerEmail,
      company: o.company,
      state: o.state,
      provider: o.provider,
      amountCents: o.amountCents,
      paidCents: o.paidCents,
      refundedCents: o.refundedCents,
      currency: o.currency,
      communication: formatStructured(o.structured),
      beneficiary: settings.get(o.eventId)?.beneficiary ?? '',
      iban: settings.get(o.eventId)?.iban ?? '',
      expiresAt: o.expiresAt,
      createdAt: o.createdAt,
      paidAt: o.paidAt,
      lines: lines.filter((l) => l.orderId === o.id).map(({ orderId: _o, ...l }) => l),
      refunds: refunds.filter((r) => r.orderId === o.id).map(({ iban: _i, ...r }) => r),
    }));
  }

  /**
   * Records money received, once per provider reference, audits it and settles the deposit
   * (paid, entries confirmed as participants). Returns false when the reference was known.
   */
  async function receive(
    sql: Sql,
    order: repo.OrderRow,
    p: {
      provider: 'bank' | 'mollie' | 'stripe';
      providerRef: string;
      amountCents: number;
      actorSub?: string | null;
      bankLineId?: string | null;
      note?: string;
    },
  ): Promise<{ fresh: boolean; contexts: string[] }> {
    const fresh = await repo.insertPayment(sql, { orderId: order.id, ...p });
    if (!fresh) return { fresh, contexts: [] };
    await repo.audit(sql, {
      organisationId: order.organisationId,
      orderId: order.id,
      bankLineId: p.bankLineId ?? null,
      action: p.actorSub ? 'manual_match' : p.provider === 'bank' ? 'auto_match' : `${p.provider}_paid`,
      amountCents: p.amountCents,
      actorSub: p.actorSub ?? null,
      note: p.note ?? '',
    });
    // A document's order (issue 29) has no deposit to settle: its runners are participants already.
    return { fresh, contexts: order.depositId && deps.settle ? await deps.settle(sql, order) : [] };
  }

  async function pay(
    order: repo.OrderRow,
    provider: 'bank' | 'mollie' | 'stripe',
    returnUrl: string | undefined,
  ) {
    if (order.state !== 'awaiting_payment')
      throw errors.conflict('ORDER_STATE', `The order is ${order.state}`);
    const settings = await repo.paymentTerms(database, order.eventId);
    const base = {
      communication: formatStructured(order.structured),
      iban: settings?.iban ?? '',
      beneficiary: settings?.beneficiary ?? '',
      amountCents: order.amountCents - order.paidCents,
      currency: order.currency,
    };
    if (provider === 'bank') {
      await database.query(`UPDATE orders SET provider = 'bank' WHERE id = $1::bigint`, [order.id]);
      return { provider, checkoutUrl: null, ...base };
    }
    const online: OnlineProvider | null = provider === 'mollie' ? deps.mollie : deps.stripe;
    if (!online) throw errors.conflict('PROVIDER_DISABLED', `${provider} is not configured on this server`);
    const publicUrl = deps.publicUrl?.replace(/\/+$/, '');
    const back =
      returnUrl ??
      (order.depositId
        ? `${publicUrl ?? ''}/#/deposit/${order.eventId}/${order.depositId}/paymentok`
        : `${publicUrl ?? ''}/`);
    const started = await providerCall(() =>
      online.start({
        orderId: order.id,
        amountCents: base.amountCents,
        currency: order.currency,
        description: `${order.eventName} — ${order.organisationName} #${order.id}`,
        returnUrl: back,
        webhookUrl: publicUrl ? `${publicUrl}/api/payments/webhooks/${provider}` : null,
      }),
    );
    await database.query(
      'UPDATE orders SET provider = $2, provider_payment_id = $3, provider_amount_cents = $4 WHERE id = $1::bigint',
      [order.id, provider, started.providerPaymentId, base.amountCents],
    );
    return { provider, checkoutUrl: started.checkoutUrl, ...base };
  }

  /** A provider's verified word that a payment is paid. Idempotent on the provider's reference. */
  async function providerPaid(
    provider: 'mollie' | 'stripe',
    status: { providerRef: string; orderId: string; amountCents: number },
  ) {
    const order = await repo.findOrder(database, status.orderId);
    if (!order) return { recorded: false };
    // Only the session (or payment) Tempora opened for this order, at the amount it asked (issue
    // 29: a validly signed event about a session someone else created is no payment of ours).
    if (
      order.provider !== provider ||
      !order.providerPaymentId ||
      status.providerRef !== order.providerPaymentId ||
      status.amountCents !== order.providerAmountCents
    ) {
      return { recorded: false };
    }
    const { fresh, contexts } = await database.transaction((sql) =>
      receive(sql, order, { provider, providerRef: status.providerRef, amountCents: status.amountCents }),
    );
    for (const db of contexts) await results.reload(db);
    return { recorded: fresh };
  }

  async function mollieWebhook(paymentId: string) {
    if (!deps.mollie) throw errors.notFound('PROVIDER_DISABLED', 'Mollie is not configured');
    const mollie = deps.mollie;
    const status = await providerCall(() => mollie.status(paymentId));
    if (!status?.paid) return { recorded: false };
    return providerPaid('mollie', status);
  }

  async function stripeWebhook(rawBody: string, signature: string) {
    if (!deps.stripe) throw errors.notFound('PROVIDER_DISABLED', 'Stripe is not configured');
    let verified: ReturnType<StripeProvider['verify']>;
    try {
      verified = deps.stripe.verify(rawBody, signature);
    } catch (error) {
      throw errors.badRequest('SIGNATURE_INVALID', (error as Error).message);
    }
    const first = await database.query(
      `INSERT INTO provider_webhooks (provider, event_id) VALUES ('stripe', $1) ON CONFLICT DO NOTHING RETURNING event_id`,
      [verified.eventId],
    );
    if (!first.length || !verified.status?.paid) return { recorded: false };
    return providerPaid('stripe', verified.status);
  }

  async function importStatement(
    organisationId: string,
    actorSub: string,
    text: string,
    format: 'coda' | 'camt053' | undefined,
    fileName: string,
  ): Promise<StatementImportResult> {
    const kind = format ?? (text.trimStart().startsWith('<') ? 'camt053' : 'coda');
    let statement: ParsedStatement;
    try {
      // Parsers load on first use (fast-xml-parser is not needed to start the server).
      statement =
        kind === 'coda'
          ? (await import('./statements/coda.ts')).parseCoda(text)
          : (await import('./statements/camt053.ts')).parseCamt053(text);
    } catch (error) {
      if (error instanceof StatementError) {
        throw errors.badRequest('STATEMENT_INVALID', error.message, [
          { field: error.where, message: error.message },
        ]);
      }
      throw error;
    }
    const known = await repo.knownBankRefs(
      database,
      organisationId,
      statement.movements.map((m) => m.bankRef),
    );
    const orders = await repo.ordersWhere(database, 'ev.organisation_id = $1', [organisationId]);
    const decisions = matchStatement(
      statement.movements,
      orders.map((o) => ({
        id: o.id,
        structured: o.structured,
        amountCents: o.amountCents,
        paidCents: o.paidCents,
        state: o.state,
      })),
      known,
    );
    const counts = { matched: 0, manual: 0, duplicates: 0, debits: 0 };
    const contexts = await database.transaction(async (sql) => {
      const touched: string[] = [];
      const [st] = await sql.query<{ id: string }>(
        `INSERT INTO bank_statements (organisation_id, format, file_name, account, imported_by, movements, matched)
         VALUES ($1, $2, $3, $4, $5, $6, 0) RETURNING id::text`,
        [organisationId, statement.format, fileName, statement.account, actorSub, statement.movements.length],
      );
      const statementId = (st as { id: string }).id;
      for (const [k, m] of statement.movements.entries()) {
        const d = decisions[k]!;
        if (d.kind === 'duplicate') {
          counts.duplicates++;
          continue;
        }
        const state = d.kind === 'matched' ? 'matched' : d.kind === 'debit' ? 'debit' : 'manual';
        const [line] = await sql.query<{ id: string }>(
          `INSERT INTO bank_lines (statement_id, organisation_id, bank_ref, amount_cents, currency, booking_date, structured,
                                   free_text, counterparty_name, counterparty_account, state, reason, allocated_cents)
           VALUES ($1::bigint, $2, $3, $4, $5, $6::date, $7, $8, $9, $10, $11, $12, $13)
           ON CONFLICT (organisation_id, bank_ref) DO NOTHING RETURNING id::text`,
          [
            statementId,
            organisationId,
            m.bankRef,
            m.amountCents,
            m.currency,
            m.bookingDate,
            m.structured,
            m.freeText,
            m.counterpartyName,
            m.counterpartyAccount,
            state,
            d.kind === 'manual' ? d.reason : null,
            d.kind === 'matched' ? d.amountCents : 0,
          ],
        );
        if (!line) {
          counts.duplicates++;
          continue;
        }
        if (d.kind === 'matched') {
          counts.matched++;
          const order = orders.find((o) => o.id === d.orderId) as repo.OrderRow;
          const r = await receive(sql, order, {
            provider: 'bank',
            providerRef: `line:${line.id}`,
            amountCents: d.amountCents,
            bankLineId: line.id,
            note: `${statement.format} ${m.bankRef}`,
          });
          touched.push(...r.contexts);
        } else if (d.kind === 'manual') counts.manual++;
        else counts.debits++;
      }
      await sql.query('UPDATE bank_statements SET matched = $2 WHERE id = $1::bigint', [
        statementId,
        counts.matched,
      ]);
      await repo.audit(sql, {
        organisationId,
        action: 'statement_import',
        actorSub,
        note: `${statement.format} ${statement.account} ${fileName}: ${statement.movements.length} movements, ${counts.matched} matched, ${counts.manual} to the queue`,
      });
      return { touched, statementId };
    });
    for (const db of new Set(contexts.touched)) await results.reload(db);
    return {
      statementId: contexts.statementId,
      format: statement.format,
      account: statement.account,
      movements: statement.movements.length,
      ...counts,
    };
  }

  async function queue(organisationId: string) {
    const lines = await repo.bankLinesWhere(database, `organisation_id = $1 AND state = 'manual'`, [
      organisationId,
    ]);
    const orders = await repo.ordersWhere(database, 'ev.organisation_id = $1', [organisationId]);
    const byRef = new Map(orders.map((o) => [o.structured, o.id]));
    return lines.map((l) => ({
      ...l,
      communication: l.structured ? formatStructured(l.structured) : '',
      candidates: referencesOf({
        bankRef: l.bankRef,
        amountCents: l.amountCents,
        structured: l.structured,
        freeText: l.freeText,
      })
        .map((r) => byRef.get(r))
        .filter((x): x is string => Boolean(x)),
    }));
  }

  async function manualMatch(
    organisationId: string,
    lineId: string,
    allocations: { orderId: string; amountCents: number }[],
    actorSub: string,
    note: string,
  ) {
    const [line] = await repo.bankLinesWhere(database, 'id = $1::bigint AND organisation_id = $2', [
      lineId,
      organisationId,
    ]);
    if (!line) throw errors.notFound('BANK_LINE_NOT_FOUND', `No bank line '${lineId}'`);
    if (line.state !== 'manual') throw errors.conflict('BANK_LINE_STATE', `The line is ${line.state}`);
    const problem = checkAllocation(line.amountCents - line.allocatedCents, allocations);
    if (problem)
      throw errors.badRequest('ALLOCATION_INVALID', problem, [{ field: 'allocations', message: problem }]);
    const orders = await Promise.all(allocations.map((a) => repo.findOrder(database, a.orderId)));
    orders.forEach((o, k) => {
      if (!o || o.organisationId !== organisationId) {
        throw errors.badRequest(
          'ORDER_NOT_FOUND',
          `No order '${allocations[k]!.orderId}' of this organisation`,
        );
      }
    });
    const contexts = await database.transaction(async (sql) => {
      const touched: string[] = [];
      for (const [k, a] of allocations.entries()) {
        const r = await receive(sql, orders[k] as repo.OrderRow, {
          provider: 'bank',
          providerRef: `line:${line.id}:order:${a.orderId}`,
          amountCents: a.amountCents,
          actorSub,
          bankLineId: line.id,
          note,
        });
        touched.push(...r.contexts);
      }
      const total = allocations.reduce((s, a) => s + a.amountCents, 0);
      await sql.query(
        `UPDATE bank_lines SET state = 'matched', allocated_cents = allocated_cents + $2 WHERE id = $1::bigint`,
        [line.id, total],
      );
      return touched;
    });
    for (const db of new Set(contexts)) await results.reload(db);
  }

  async function ignoreLine(organisationId: string, lineId: string, actorSub: string, note: string) {
    const rows = await database.query(
      `UPDATE bank_lines SET state = 'ignored' WHERE id = $1::bigint AND organisation_id = $2 AND state = 'manual' RETURNING id`,
      [lineId, organisationId],
    );
    if (!rows.length) throw errors.notFound('BANK_LINE_NOT_FOUND', `No line '${lineId}' in the queue`);
    await repo.audit(database, { organisationId, bankLineId: lineId, action: 'ignore', actorSub, note });
  }

  /**
   * Refunds of paid orders: full, partial (an amount per order) or by the event's policy on
   * today's date; for a list of orders or every paid order of a race (cancelled). By provider
   * when the order was paid online and `method` is provider; otherwise a pending bank refund
   * for the export.
   */
  async function refund(eventId: string, organisationId: string, input: RefundInput, actorSub: string) {
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

  return {
    providers,
    details,
    pay,
    mollieWebhook,
    stripeWebhook,
    importStatement,
    queue,
    manualMatch,
    ignoreLine,
    refund,
    refundExport,
  };
}

/** A provider's failure is a 502 the caller (or the provider's webhook retry) may try again. */
async function providerCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(502, 'PROVIDER_FAILED', `The payment provider failed: ${(error as Error).message}`);
  }
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
