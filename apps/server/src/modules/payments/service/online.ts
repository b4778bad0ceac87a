import { errors } from '../../../errors.ts';
import type { StripeProvider } from '../providers/stripe.ts';
import * as repo from '../repository.ts';
import { type PaymentsContext, providerCall } from './shared.ts';

/**
 * Online payments' webhooks (issues 18, 29): Mollie's (its status fetched) and Stripe's (its
 * signature verified, each event once), recorded only for the session Tempora opened for the
 * order, at its amount; idempotent on the provider's reference.
 */
export function createOnline(ctx: PaymentsContext) {
  const { deps, database, results, receive } = ctx;

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
    if (fresh) await ctx.afterPaid(order);
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

  return { mollieWebhook, stripeWebhook };
}
