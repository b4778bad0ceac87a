import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { webhookPolicy } from '../../lib/egress/policies.ts';
import { alertsRoutes } from './routes.ts';
import { type AlertsService, createAlertsService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Alerts for followers (issue 40): e-mail and web push at the points they chose. */
    alerts: AlertsService;
  }
}

/**
 * Alerts for followers (issue 40): observes the reads this node stores and sends one message per
 * passing and subscription. Push services are the public internet: the webhooks' egress policy
 * (`WEBHOOK_ALLOW_PRIVATE` lifts it for a local receiver).
 */
export const alertsModule = fp(
  async (app: FastifyInstance) => {
    const service = createAlertsService({
      database: app.database,
      log: app.log,
      card: (db, key) => app.results.trackingIn(db, key),
      send: (mail) => app.outbox.send(mail),
      sendMany: (mails) => app.outbox.sendMany(mails),
      publicUrl: app.config.publicUrl,
      egress: webhookPolicy(app.config),
      vapidSubject: `mailto:${app.config.MAIL_FROM.replace(/^.*<|>.*$/g, '')}`,
    });
    app.decorate('alerts', service);
    const stop = app.results.observe(service.observer);
    await app.register(alertsRoutes, { service });
    app.addHook('preClose', async () => {
      stop();
      await service.idle();
    });
  },
  { name: 'alerts', dependencies: ['identity', 'results'] },
);
