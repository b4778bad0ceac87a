import https from 'node:https';
import tls from 'node:tls';
import { createMollieClient, type MollieClient, type Payment } from '@mollie/api-client';
import { cents, decimal, type OnlineProvider, type PaymentStatus } from './provider.ts';

/**
 * Mollie (Bancontact, cards…) through its official SDK. Mollie's webhook posts only the payment
 * id: the status is always fetched from Mollie's API (docs.mollie.com "Webhooks"), so a forged
 * notification proves nothing. `MOLLIE_API_URL` points the SDK at another endpoint (the tests'
 * local stub of Mollie's API).
 */
export function createMollieProvider(options: { apiKey: string; apiUrl?: string | undefined }) {
  const client: MollieClient = withSharedTls(() =>
    createMollieClient({
      apiKey: options.apiKey,
      ...(options.apiUrl ? { apiEndpoint: options.apiUrl } : {}),
    }),
  );
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

/** TLS contexts by CA bundle: the SDK's bundle is one string, parsed once per process. */
const contexts = new Map<unknown, tls.SecureContext>();

/**
 * Runs `create` (the SDK's client construction) with `https.Agent` giving its agents one shared
 * TLS context (issue 41, the registration rush). The SDK makes its agent
 * with its own 200 KB CA bundle (`ca`) and no keep-alive, so every call to Mollie opened a
 * connection and parsed the bundle into a new TLS context on the event loop: 88 of 277 s of a
 * rush's CPU (3,000 runners, a pay and a webhook each), holding the entry step and
 * `/api/health` behind it. The same bundle still verifies Mollie's certificate. Sockets are not
 * kept alive (as before): a webhook's status read on a socket the other end just closed would fail.
 */
function withSharedTls<T>(create: () => T): T {
  const Original = https.Agent;
  class SharedTlsAgent extends Original {
    constructor(agentOptions?: https.AgentOptions) {
      const ca = agentOptions?.ca;
      let secureContext = ca === undefined ? undefined : contexts.get(ca);
      if (ca !== undefined && !secureContext) {
        secureContext = tls.createSecureContext({ ca });
        contexts.set(ca, secureContext);
      }
      super({ ...agentOptions, ...(secureContext ? { secureContext } : {}) });
    }
  }
  const mutable = https as { Agent: typeof https.Agent };
  mutable.Agent = SharedTlsAgent;
  try {
    return create();
  } finally {
    mutable.Agent = Original;
  }
}
