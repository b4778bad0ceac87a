import Stripe from 'stripe';
import type { OnlineProvider, PaymentStatus } from './provider.ts';

/**
 * Stripe Checkout (cards, Bancontact) through its official SDK. Webhooks are verified with the
 * SDK (`webhooks.constructEvent`: the `Stripe-Signature` HMAC over the raw body with the
 * endpoint's secret, within the SDK's tolerance); only a completed, paid session counts.
 */
export function createStripeProvider(options: { secretKey: string; webhookSecret: string }) {
  const stripe = new Stripe(options.secretKey);
  const provider: OnlineProvider & {
    verify(rawBody: string, signature: string): { eventId: string; status: PaymentStatus | null };
  } = {
    name: 'stripe',
    async start(request) {
      const session = await stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: request.currency.toLowerCase(),
              unit_amount: request.amountCents,
              product_data: { name: request.description },
            },
          },
        ],
        success_url: request.returnUrl,
        cancel_url: request.returnUrl,
        client_reference_id: request.orderId,
        metadata: { orderId: request.orderId },
      });
      return { providerPaymentId: session.id, checkoutUrl: session.url };
    },
    async refund(providerPaymentId, amountCents) {
      const session = await stripe.checkout.sessions.retrieve(providerPaymentId);
      const intent =
        typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
      if (!intent) throw new Error('Stripe session without a payment intent');
      const refund = await stripe.refunds.create({ payment_intent: intent, amount: amountCents });
      return refund.id;
    },
    /** Throws when the signature does not verify. */
    verify(rawBody, signature) {
      const event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      if (
        event.type !== 'checkout.session.completed' &&
        event.type !== 'checkout.session.async_payment_succeeded'
      ) {
        return { eventId: event.id, status: null };
      }
      const session = event.data.object as Stripe.Checkout.Session;
      return {
        eventId: event.id,
        status: {
          providerRef: session.id,
          orderId: String(session.metadata?.orderId ?? session.client_reference_id ?? ''),
          paid: session.payment_status === 'paid',
          amountCents: session.amount_total ?? 0,
        },
      };
    },
  };
  return provider;
}

export type StripeProvider = ReturnType<typeof createStripeProvider>;
