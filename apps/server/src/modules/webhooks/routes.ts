import crypto from 'node:crypto';
import {
  noContentSchema,
  type WebhookCreated,
  webhookCreatedSchema,
  webhookCreateSchema,
  webhookDeliverySchema,
  webhookQueuedSchema,
  webhookSchema,
  webhookUpdateSchema,
} from '@tempora/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errors } from '../../errors.ts';
import { webhookPolicy } from '../../lib/egress/policies.ts';
import { RefusedAddress } from '../../lib/egress/policy.ts';
import { assertUrlAllowed } from '../../lib/egress/url.ts';
import { afterAccess, checked, type ZodTypeProvider } from '../../lib/zod-routes.ts';
import { findEventOwner, hideFromOutsiders, requireEventAbility } from '../../policy/policy.ts';
import * as repo from './repository.ts';
import type { WebhooksService } from './service.ts';

const eventParams = z.object({ eventId: z.string().min(1).max(100) });
const hookParams = z.object({ id: z.uuid() });
const deliveryParams = hookParams.extend({
  deliveryId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
const deliveriesQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });
const MAX_WEBHOOKS = 20;

/**
 * Webhook endpoints of an event (organisers: update Event — owner, staff). The secret is answered
 * once, at creation; deliveries can be listed with every attempt's answer code, and replayed.
 */
export async function webhooksRoutes(fastify: FastifyInstance, opts: { service: WebhooksService }) {
  const { service } = opts;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const database = app.database;

  /**
   * The webhook, if the caller may manage its event's webhooks: 401 anonymous (before any
   * lookup), 404 unknown or another organisation's (policy/policy.ts hideFromOutsiders, issue
   * 25), 403 a member of its organisation without the right. Its id is checked once the caller is
   * signed in (routes declare `afterAccess(hookParams)`, or the replay's params up front).
   */
  async function requireHook(request: FastifyRequest) {
    if (!request.user) throw errors.unauthorized();
    const { id }: { id: string } = checked(request, 'params');
    const notFound = () => errors.notFound('WEBHOOK_NOT_FOUND', 'No such webhook');
    const hook = await repo.findWebhook(database, id);
    if (!hook) throw notFound();
    const { organisationId } = await findEventOwner(database, hook.eventId);
    await requireEventAbility(request, database, hook.eventId, 'update', 'Event').catch(
      hideFromOutsiders(request, organisationId, notFound),
    );
    return hook;
  }

  const egress = webhookPolicy(app.config);
  /** 400 for a URL that may not receive webhooks (lib/egress: SSRF). */
  async function requirePublicUrl(url: string) {
    try {
      await assertUrlAllowed(url, egress);
    } catch (e) {
      if (!(e instanceof RefusedAddress)) throw e;
      throw errors.badRequest('WEBHOOK_URL_REFUSED', `This URL may not receive webhooks: ${e.message}`, [
        { field: 'url', message: e.message },
      ]);
    }
  }

  app.get(
    '/api/webhooks/events/:eventId',
    { schema: { access: 'manager', params: eventParams, response: { 200: z.array(webhookSchema) } } },
    async (request) => {
      const { eventId } = request.params;
      await requireEventAbility(request, database, eventId, 'update', 'Event');
      return repo.webhooksOf(database, eventId);
    },
  );

  app.post(
    '/api/webhooks/events/:eventId',
    {
      schema: {
        access: 'manager',
        params: eventParams,
        body: afterAccess(webhookCreateSchema),
        response: { 201: webhookCreatedSchema },
      },
    },
    async (request, reply) => {
      const { eventId } = request.params;
      await requireEventAbility(request, database, eventId, 'update', 'Event');
      const body = checked(request, 'body');
      await requirePublicUrl(body.url);
      if ((await repo.webhooksOf(database, eventId)).length >= MAX_WEBHOOKS)
        throw errors.conflict('WEBHOOK_LIMIT', `At most ${MAX_WEBHOOKS} webhooks per event`);
      const secret = `whsec_${crypto.randomBytes(24).toString('base64url')}`;
      const id = await repo.insertWebhook(database, {
        eventId,
        url: body.url,
        types: [...new Set(body.types)],
        secret,
        createdBy: request.user?.sub ?? null,
      });
      service.changed(eventId);
      const created: WebhookCreated = { ...(await repo.findWebhook(database, id))!, secret };
      const { organisationId: _o, ...answer } = created as WebhookCreated & { organisationId?: string };
      return reply.code(201).header('cache-control', 'no-store').send(answer);
    },
  );

  app.patch(
    '/api/webhooks/:id',
    {
      schema: {
        access: 'manager',
        params: afterAccess(hookParams),
        body: afterAccess(webhookUpdateSchema),
        response: { 200: webhookSchema },
      },
    },
    async (request) => {
      const hook = await requireHook(request);
      const body = checked(request, 'body');
      if (body.url !== undefined) await requirePublicUrl(body.url);
      await repo.updateWebhook(database, hook.id, body);
      service.changed(hook.eventId);
      const { organisationId: _o, ...answer } = (await repo.findWebhook(database, hook.id))!;
      return answer;
    },
  );

  app.delete(
    '/api/webhooks/:id',
    { schema: { access: 'manager', params: afterAccess(hookParams), response: { 204: noContentSchema } } },
    async (request, reply) => {
      const hook = await requireHook(request);
      await repo.deleteWebhook(database, hook.id);
      service.changed(hook.eventId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/webhooks/:id/deliveries',
    {
      schema: {
        access: 'manager',
        params: afterAccess(hookParams),
        querystring: afterAccess(deliveriesQuery),
        response: { 200: z.array(webhookDeliverySchema) },
      },
    },
    async (request) => {
      const hook = await requireHook(request);
      const { limit } = checked(request, 'querystring');
      return repo.deliveriesOf(database, hook.id, limit);
    },
  );

  app.post(
    '/api/webhooks/:id/deliveries/:deliveryId/replay',
    { schema: { access: 'manager', params: deliveryParams, response: { 202: webhookQueuedSchema } } },
    async (request, reply) => {
      const { deliveryId } = request.params;
      const hook = await requireHook(request);
      if (!(await repo.replay(database, hook.id, deliveryId)))
        throw errors.notFound('DELIVERY_NOT_FOUND', 'No such delivery');
      service.changed(hook.eventId);
      return reply.code(202).send({ queued: true });
    },
  );

  app.post(
    '/api/webhooks/:id/test',
    {
      schema: { access: 'manager', params: afterAccess(hookParams), response: { 202: webhookQueuedSchema } },
    },
    async (request, reply) => {
      const hook = await requireHook(request);
      await service.ping(hook.id, hook.eventId);
      return reply.code(202).send({ queued: true });
    },
  );
}
