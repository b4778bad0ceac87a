import crypto from 'node:crypto';
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
      // One key for the call and its retry: Mollie creates one payment whichever attempt reached it.
      const idempotencyKey = crypto.randomUUID();
      const payment = await onFreshSocket(() =>
        client.payments.create({
          idempotencyKey,
          amount: { currency: request.currency, value: decimal(request.amountCents) },
          description: request.description,
          redirectUrl: request.returnUrl,
          ...(request.webhookUrl ? { webhookUrl: request.webhookUrl } : {}),
          metadata: { orderId: request.orderId },
        }),
      );
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
        payment = await onFreshSocket(() => client.payments.get(id));
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

/**
 * A call made again once when the kept-alive socket it went out on was closed by the other end
 * meanwhile (a connection reset before any answer: the request did not reach Mollie, or a creation
 * is deduplicated by its idempotency key).
 */
async function onFreshSocket<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    const message = (error as Error).message ?? '';
    if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/.test(message)) return call();
    throw error;
  }
}

/** TLS contexts by CA bundle: the SDK's bundle is one string, parsed once per process. */
const contexts = new Map<unknown, tls.SecureContext>();

/**
 * Runs `create` (the SDK's client construction) with `https.Agent` giving its agents one shared
 * TLS context (issue 41, the registration rush). The SDK makes its agent
 * with its own 200 KB CA bundle (`ca`) and no keep-alive, so every call to Mollie opened a
 * connection and parsed the bundle into a new TLS context on the event loop: 88 of 277 s of a
 * rush's CPU (3,000 runners, a pay and a webhook each), holding the entry step and
 * `/api/health` behind it. The same bundle still verifies Mollie's certificate. Sockets are kept
 * alive (issue 38, the rush: a new TLS connection per call was 2.3 of a 1,000-place rush's 23 CPU
 * seconds); a call whose reused socket the other end had just closed is made again
 * (`onFreshSocket`).
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
      super({ ...agentOptions, keepAlive: true, ...(secureContext ? { secureContext } : {}) });
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
