import {
  alertSubscribedSchema,
  alertSubscribeSchema,
  alertTokenSchema,
  myAlertsSchema,
  noContentSchema,
  vapidKeySchema,
} from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../errors.ts';
import { afterAccess, checked, type ZodTypeProvider } from '../../lib/zod-routes.ts';
import * as repo from './repository.ts';
import type { AlertsService } from './service.ts';

/** Subscriptions per client address and hour (each e-mail one may send a confirmation). */
const SUBSCRIBE_RULE = { name: 'alert-subscribe', max: 60, windowMs: 60 * 60_000 };

/**
 * Alerts for followers (issue 40, contract: packages/contracts/src/alerts.ts): anyone may
 * subscribe (a follower needs no account); every message carries its one-click unsubscribe.
 */
export async function alertsRoutes(fastify: FastifyInstance, opts: { service: AlertsService }) {
  const { service } = opts;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/alerts/vapid',
    { schema: { access: 'public', response: { 200: vapidKeySchema } } },
    async () => ({ publicKey: await service.publicKey() }),
  );

  app.post(
    '/api/alerts',
    {
      bodyLimit: 8 * 1024,
      schema: { access: 'public', body: alertSubscribeSchema, response: { 201: alertSubscribedSchema } },
    },
    async (request, reply) => {
      await app.limits.hit(request, reply, SUBSCRIBE_RULE, [`ip:${request.ip}`]);
      const answer = await service.subscribe(request.body);
      return reply.code(201).send(answer);
    },
  );

  app.post(
    '/api/alerts/confirm/:token',
    { schema: { access: 'public', params: alertTokenSchema, response: { 204: noContentSchema } } },
    async (request, reply) => {
      await service.confirm(request.params.token);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/alerts/unsubscribe/:token',
    { schema: { access: 'public', params: alertTokenSchema, response: { 204: noContentSchema } } },
    async (request, reply) => {
      await service.unsubscribe(request.params.token);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/me/alerts',
    { schema: { access: 'signed-in', response: { 200: myAlertsSchema } } },
    async (request, reply) => {
      if (!request.user) throw errors.unauthorized();
      reply.header('cache-control', 'no-store');
      return { off: await repo.alertsOff(app.database, request.user.sub) };
    },
  );

  app.put(
    '/api/me/alerts',
    { schema: { access: 'signed-in', body: afterAccess(myAlertsSchema), response: { 200: myAlertsSchema } } },
    async (request) => {
      if (!request.user) throw errors.unauthorized();
      const { off } = checked(request, 'body');
      await repo.setAlertsOff(app.database, request.user.sub, off);
      return { off };
    },
  );
}
