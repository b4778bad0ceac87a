import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { webhookPolicy } from '../../lib/egress/policies.ts';
import { webhooksRoutes } from './routes.ts';
import { createWebhooksService, type WebhooksService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Webhooks: the durable delivery queue and its worker (issue 16). */
    webhooks: WebhooksService;
  }
}

/**
 * Webhooks (issue 16): observes the results service and delivers signed occurrences to the
 * organisers' URLs. Every node runs a worker; deliveries are claimed row by row in the database.
 */
export const webhooksModule = fp(
  async (app: FastifyInstance) => {
    const service = createWebhooksService({
      database: app.database,
      log: app.log,
      egress: webhookPolicy(app.config),
    });
    app.decorate('webhooks', service);
    const stopObserving = app.results.observe(service.observer);
    await app.register(webhooksRoutes, { service });
    service.start();
    // Before the database closes (onClose): no round may run on a closed database.
    app.addHook('preClose', async () => {
      stopObserving();
      await service.stop();
    });
  },
  { name: 'webhooks', dependencies: ['identity', 'results'] },
);
