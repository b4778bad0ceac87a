import {
  accountPrivacySchema,
  myResultsSchema,
  noContentSchema,
  resultPrivacySchema,
} from '@tempora/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errors } from '../../errors.ts';
import { afterAccess, checked, type ZodTypeProvider } from '../../lib/zod-routes.ts';
import type { RunnerService } from './service.ts';

const resultParams = z.object({ participantId: z.uuid() });

/** The signed-in runner (401 before anything else). */
function accountOf(request: FastifyRequest): string {
  if (!request.user) throw errors.unauthorized();
  return request.user.sub;
}

/**
 * The runner's space (issue 40, contract: packages/contracts/src/runner.ts): a signed-in runner's
 * results across events and organisations, and their privacy choices. Every route is about the
 * caller's own rows only: another runner's result answers 404 like one that does not exist.
 */
export async function runnerRoutes(fastify: FastifyInstance, opts: { service: RunnerService }) {
  const { service } = opts;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/me/results',
    { schema: { access: 'signed-in', response: { 200: myResultsSchema } } },
    async (request, reply) => {
      const account = accountOf(request);
      reply.header('cache-control', 'no-store');
      return service.myResults(account);
    },
  );

  app.put(
    '/api/me/privacy',
    {
      schema: {
        access: 'signed-in',
        body: afterAccess(accountPrivacySchema),
        response: { 204: noContentSchema },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { hideAll } = checked(request, 'body');
      await service.setHideAll(account, hideAll);
      return reply.code(204).send();
    },
  );

  app.put(
    '/api/me/results/:participantId/privacy',
    {
      schema: {
        access: 'signed-in',
        params: afterAccess(resultParams),
        body: afterAccess(resultPrivacySchema),
        response: { 204: noContentSchema },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { participantId } = checked(request, 'params');
      const { hidden } = checked(request, 'body');
      await service.setResultHidden(account, participantId, hidden);
      return reply.code(204).send();
    },
  );
}
