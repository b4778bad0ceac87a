import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { inBackground } from '../../db/turns.ts';
import { entryRoutes } from './routes.ts';
import { createEntriesService } from './service.ts';
import { entryStaffRoutes } from './staff-routes.ts';

/**
 * Online entries (issue 38): the runner's and the organiser's routes, the payments' hook (after a
 * payment: late refunds, confirmation mails) and a timer every 20 s that expires holds and
 * invitations and retries what is left (not under NODE_ENV=test: tests call the expiry route).
 */
export const entriesModule = fp(
  async (app: FastifyInstance) => {
    const service = createEntriesService({
      database: app.database,
      outbox: app.outbox,
      results: app.results,
      payments: app.payments,
      publicUrl: app.config.publicUrl,
    });
    app.payments.onPaid(async (order) => {
      if (order.registration) await service.sweep.afterPaid(order.id);
    });
    app.payments.beforePay(async (order) => (order.registration ? service.enter.payTurn() : undefined));
    await app.register(entryRoutes, { service });
    await app.register(entryStaffRoutes, { service });
    if (app.config.NODE_ENV !== 'test') {
      const timer = setInterval(() => {
        inBackground(() => service.sweep.run()).catch((error) =>
          app.log.warn({ err: error }, 'entries sweep failed'),
        );
      }, 20_000);
      timer.unref();
      app.addHook('onClose', async () => clearInterval(timer));
    }
  },
  { name: 'entries', dependencies: ['identity', 'results', 'deposits', 'visibility'] },
);
