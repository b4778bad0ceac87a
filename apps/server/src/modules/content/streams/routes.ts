import { noContentSchema, streamInputSchema, streamSchema } from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errors } from '../../../errors.ts';
import { afterAccess, checked, type ZodTypeProvider } from '../../../lib/zod-routes.ts';
import { findEventOwner, requireEventAbility } from '../../../policy/policy.ts';
import { eventParams } from '../events/routes.ts';
import * as repo from './repository.ts';
import { flagCurrent } from './service.ts';

const streamParams = eventParams.extend({ streamId: z.string().uuid() });

/**
 * Streams (issue 8): YouTube (allowed hosts only, the same list the CSP frames) or https HLS,
 * with a schedule; `GET` flags the current one. Organiser writes need the Stream ability.
 */
export async function streamsRoutes(fastify: FastifyInstance, opts: { now?: () => number }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const now = opts.now ?? Date.now;

  app.get(
    '/api/events/:eventId/streams',
    { schema: { access: 'public', params: eventParams, response: { 200: z.array(streamSchema) } } },
    async (request) => {
      const { eventId: id } = request.params;
      await findEventOwner(app.database, id);
      return flagCurrent(await repo.listStreams(app.database, id), now());
    },
  );

  app.post(
    '/api/events/:eventId/streams',
    {
      schema: {
        access: 'manager',
        params: eventParams,
        body: afterAccess(streamInputSchema),
        response: { 201: streamSchema },
      },
    },
    async (request, reply) => {
      const { eventId: id } = request.params;
      await requireEventAbility(request, app.database, id, 'create', 'Stream');
      const input = checked(request, 'body');
      const row = await repo.insertStream(app.database, id, input);
      reply.code(201);
      return flagCurrent([row], now())[0];
    },
  );

  app.put(
    '/api/events/:eventId/streams/:streamId',
    {
      schema: {
        access: 'manager',
        params: streamParams,
        body: afterAccess(streamInputSchema),
        response: { 200: streamSchema },
      },
    },
    async (request) => {
      const { eventId: id, streamId } = request.params;
      await requireEventAbility(request, app.database, id, 'update', 'Stream');
      const input = checked(request, 'body');
      const row = await repo.replaceStream(app.database, id, streamId, input);
      if (!row) throw errors.notFound('STREAM_NOT_FOUND', 'No such stream');
      return flagCurrent([row], now())[0];
    },
  );

  app.delete(
    '/api/events/:eventId/streams/:streamId',
    { schema: { access: 'manager', params: streamParams, response: { 204: noContentSchema } } },
    async (request, reply) => {
      const { eventId: id, streamId } = request.params;
      await requireEventAbility(request, app.database, id, 'delete', 'Stream');
      if (!(await repo.deleteStream(app.database, id, streamId))) {
        throw errors.notFound('STREAM_NOT_FOUND', 'No such stream');
      }
      reply.code(204);
    },
  );
}
