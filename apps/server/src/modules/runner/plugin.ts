import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { runnerRoutes } from './routes.ts';
import { createRunnerService } from './service.ts';

/**
 * The runner's own space (issue 40): my results across events, and privacy by the runner's choice
 * (a hidden name reaches every public view through the results' public projection).
 */
export const runnerModule = fp(
  async (app: FastifyInstance) => {
    const service = createRunnerService({
      database: app.database,
      reload: (db) => app.results.reload(db),
      card: (key) => app.results.tracking(key),
      send: (mail) => app.outbox.send(mail),
      publicUrl: app.config.publicUrl,
    });
    await app.register(runnerRoutes, { service });
  },
  { name: 'runner', dependencies: ['identity', 'results'] },
);
