import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { settleEntryOrder } from '../entries/port.ts';
import type { PaymentsService } from '../payments/port.ts';
import {
  createPaymentsService,
  paymentProviders,
  paymentRoutes,
  paymentStaffRoutes,
  paymentWebhookRoutes,
} from '../payments/port.ts';
import { settleDeposit } from './confirm.ts';
import { depositRoutes } from './routes.ts';
import { createDepositsService } from './service.ts';
import { depositStaffRoutes } from './staff-routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The payments service (orders, providers, refunds), shared with the entries module. */
    payments: PaymentsService;
  }
}

/**
 * Group deposits and payments (issue 18): both modules' routes, the payment providers configured
 * by environment (Mollie, Stripe: off unless their keys are set) and a minute timer that expires
 * unpaid orders past their hold (not under NODE_ENV=test: tests call the expiry themselves).
 */
export const depositsModule = fp(
  async (app: FastifyInstance) => {
    const { config } = app;
    const deposits = createDepositsService({
      database: app.database,
      outbox: app.outbox,
      results: app.results,
      publicUrl: config.PUBLIC_URL,
    });
    const payments = createPaymentsService({
      database: app.database,
      results: app.results,
      publicUrl: config.PUBLIC_URL,
      // The providers' SDKs load only when configured (off by default).
      ...(await paymentProviders(config)),
      // A paid deposit order settles its deposit (its runners become participants); a paid entries
      // order (issue 38) confirms its entries.
      settle: (sql, order) =>
        order.depositId
          ? settleDeposit(sql, order.depositId)
          : order.registration
            ? settleEntryOrder(sql, order.id)
            : Promise.resolve([]),
    });
    // The entries module (issue 38) pays through the same service.
    app.decorate('payments', payments);
    await app.register(depositRoutes, { service: deposits });
    await app.register(paymentRoutes, { service: payments });
    await app.register(paymentStaffRoutes, { service: payments });
    await app.register(paymentWebhookRoutes, { service: payments });
    await app.register(depositStaffRoutes);
    if (config.NODE_ENV !== 'test') {
      const timer = setInterval(() => {
        deposits.expire().catch((error) => app.log.warn({ err: error }, 'order expiry failed'));
      }, 60_000);
      timer.unref();
      app.addHook('onClose', async () => clearInterval(timer));
    }
  },
  { name: 'deposits', dependencies: ['identity', 'results'] },
);
