import { createOnline } from './service/online.ts';
import { createOrders } from './service/orders.ts';
import { createReconciliation } from './service/reconciliation.ts';
import { createRefunds } from './service/refunds.ts';
import { createContext, type PaymentsDeps } from './service/shared.ts';
import { createStatements } from './service/statements.ts';

export type { PaymentsDeps } from './service/shared.ts';

/**
 * Payments (issue 18): orders paid by bank transfer (statements imported and matched, a manual
 * queue, an audit of every match) or through Mollie / Stripe (webhooks, idempotent on the
 * provider's id), refunds, receipts and the accountant's exports.
 *
 * Composed of parts that each hold one responsibility (issue 30), over one shared context
 * (`service/shared.ts`: dependencies, clock, money received): `service/orders.ts` (providers,
 * detail, paying), `service/online.ts` (providers' webhooks), `service/statements.ts` (bank
 * statements matched), `service/reconciliation.ts` (the manual queue) and `service/refunds.ts`.
 */
export function createPaymentsService(deps: PaymentsDeps) {
  const ctx = createContext(deps);
  const orders = createOrders(ctx);
  const online = createOnline(ctx);
  const { importStatement } = createStatements(ctx);
  const reconciliation = createReconciliation(ctx);
  const refunds = createRefunds(ctx);

  return {
    providers: orders.providers,
    details: orders.details,
    pay: orders.pay,
    mollieWebhook: online.mollieWebhook,
    stripeWebhook: online.stripeWebhook,
    importStatement,
    queue: reconciliation.queue,
    manualMatch: reconciliation.manualMatch,
    ignoreLine: reconciliation.ignoreLine,
    refund: refunds.refund,
    refundExport: refunds.refundExport,
    /** Registers what follows each payment recorded, after its transaction (issue 38). */
    onPaid: (hook: (order: import('./repository.ts').OrderRow) => Promise<void>) => {
      ctx.paidHooks.push(hook);
    },
    /** Registers a wait before an order's pay step (issue 38: places first in a rush). */
    beforePay: (turn: (order: import('./repository.ts').OrderRow) => Promise<(() => void) | undefined>) => {
      ctx.payTurns.push(turn);
    },
    /** Records money received for an order in the caller's transaction (issue 38: paid on site). */
    receive: ctx.receive,
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
