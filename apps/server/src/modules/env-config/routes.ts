import { type Environments, environmentsSchema } from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from '../../lib/zod-routes.ts';

/** `GET /api/env-config`: the three environment configurations (spec §9). Never cached long. */
export async function envConfigRoutes(fastify: FastifyInstance, opts: { environments: Environments }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/env-config',
    { schema: { access: 'public', response: { 200: environmentsSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return opts.environments;
    },
  );
}
