import type { Sql } from '../../../db/database.ts';
import { inBackground } from '../../../db/turns.ts';
import { errors } from '../../../errors.ts';
import type { StripeProvider } from '../providers/stripe.ts';
import * as repo from '../repository.ts';
import { type PaymentsContext, providerCall } from './shared.ts';

/** The most payments one transaction records, and how long it takes more (see `providerPaid`). */
const SETTLE_BATCH = 64;
const SETTLE_MS = 25;

/**
 * Online payments' webhooks (issues 18, 29): Mollie's (its status fetched) and Stripe's (its
 * signature verified, each event once), recorded only for the session Tempora opened for the
 * order, at its amount; idempotent on the provider's reference.
 */
export function createOnline(ctx: PaymentsContext) {
  const { deps, database, results, receive } = ctx;

  /** A payment checked against its order, waiting for the next batch to record it. */
  interface Paid {
    provider: 'mollie' | 'stripe';
    status: { providerRef: string; amountCents: number };
    order: repo.OrderRow;
    resolve(fresh: boolean): void;
    reject(error: unknown): void;
  }
  const queue: Paid[] = [];
  let draining = false;

  /**
   * A provider's verified word that a payment is paid. Idempotent on the provider's reference.
   * Background work (issue 38, the rush): on PGlite its statements wait behind the requests' (a
   * runner's entry step is not queued behind other runners' payments), and the payments that
   * wait are recorded in batches, one transaction for as many as arrived meanwhile (at most
   * `SETTLE_BATCH`, and no more after `SETTLE_MS` in it: a long transaction would hold the
   * requests behind it). The provider gets its answer once its payment is committed: nothing
   * acknowledged is lost (an unanswered webhook is sent again).
   */
  function providerPaid(
    provider: 'mollie' | 'stripe',
    status: { providerRef: string; orderId: string; amountCents: number },
  ) {
    return inBackground(async () => {
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
      const fresh = await new Promise<boolean>((resolve, reject) => {
        queue.push({ provider, status, order, resolve, reject });
        if (!draining) void drain();
      });
      return { recorded: fresh };
    });
  }

  async function drain() {
    draining = true;
    try {
      while (queue.length) await recordBatch();
    } finally {
      draining = false;
    }
  }

  /** One batch of payments recorded in one transaction; taken when it begins. */
  async function recordBatch() {
    let batch: Paid[] = [];
    let outcome: { fresh: boolean; contexts: string[] }[];
    const receiveOne = (sql: Sql, p: Paid) =>
      receive(sql, p.order, {
        provider: p.provider,
        providerRef: p.status.providerRef,
        amountCents: p.status.amountCents,
      });
    try {
      outcome = await database.transaction(async (sql) => {
        batch = queue.splice(0, SETTLE_BATCH);
        const started = performance.now();
        const out: { fresh: boolean; contexts: string[] }[] = [];
        for (const [k, p] of batch.entries()) {
          if (k > 0 && performance.now() - started > SETTLE_MS) {
            queue.unshift(...batch.splice(k));
            break;
          }
          out.push(await receiveOne(sql, p));
        }
        return out;
      });
    } catch (error) {
      if (!batch.length) {
        for (const p of queue.splice(0, SETTLE_BATCH)) p.reject(error);
        return;
      }
      // One payment's failure (or a deadlock between nodes) fails the batch: each alone.
      outcome = [];
      for (const p of batch) {
        try {
          outcome.push(await database.transaction((sql) => receiveOne(sql, p)));
        } catch (error) {
          outcome.push({ fresh: false, contexts: [] });
          p.reject(error);
        }
      }
    }
    for (const db of new Set(outcome.flatMap((o) => o.contexts))) await results.reload(db);
    // What follows each payment (late refunds, confirmation mails), then the providers' answers.
    await Promise.all(batch.map((p, k) => (outcome[k]?.fresh ? ctx.afterPaid(p.order) : undefined)));
    for (const [k, p] of batch.entries()) p.resolve(outcome[k]?.fresh ?? false);
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

  return { mollieWebhook, stripeWebhook };
}
