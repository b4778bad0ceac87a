import { createMollieClient, type MollieClient, type Payment } from '@mollie/api-client';
import { cents, decimal, type OnlineProvider, type PaymentStatus } from './provider.ts';

/**
 * Mollie (Bancontact, cards…) through its official SDK. Mollie's webhook posts only the payment
 * id: the status is always fetched from Mollie's API (docs.mollie.com "Webhooks"), so a forged
 * notification proves nothing. `MOLLIE_API_URL` points the SDK at another endpoint (the tests'
 * local stub of Mollie's API).
 */
export function createMollieProvider(options: { apiKey: string; apiUrl?: string | undefined }) {
  const client: MollieClient = createMollieClient({
    apiKey: options.apiKey,
    ...(options.apiUrl ? { apiEndpoint: options.apiUrl } : {}),
  });
  const provider: OnlineProvider & { status(id: string): Promise<PaymentStatus | null> } = {
    name: 'mollie',
    async start(request) {
      const payment = await client.payments.create({
        amount: { currency: request.currency, value: decimal(request.amountCents) },
        description: request.description,
        redirectUrl: request.returnUrl,
        ...(request.webhookUrl ? { webhookUrl: request.webhookUrl } : {}),
        metadata: { orderId: request.orderId },
      });
      return { providerPaymentId: payment.id, checkoutUrl: payment.getCheckoutUrl() };
    },
    async refund(providerPaymentId, amountCents, currency) {
      const refund = await client.paymentRefunds.create({
        paymentId: providerPaymentId,
        amount: { currency, value: decimal(amountCents) },
      });
      return refund.id;
    },
    /** The payment as Mollie knows it, or null when Mollie does not know the id. */
    async status(id) {
      let payment: Payment;
      try {
        payment = await client.payments.get(id);
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return null;
        throw error;
      }
      const orderId = String((payment.metadata as { orderId?: unknown } | null)?.orderId ?? '');
      return {
        providerRef: payment.id,
        orderId,
        paid: payment.status === 'paid',
        amountCents: cents(payment.amount.value),
      };
    },
  };
  return provider;
}

export type MollieProvider = ReturnType<typeof createMollieProvider>;
