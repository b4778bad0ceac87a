import type { Environments } from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';

/** `GET /api/env-config`: the three environment configurations (spec §9). Never cached long. */
export async function envConfigRoutes(app: FastifyInstance, opts: { environments: Environments }) {
  app.get('/api/env-config', async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return opts.environments;
  });
}
