import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createImportHistory } from './history-service.ts';
import { participantsRoutes } from './routes.ts';
import { createParticipantsService } from './service.ts';

/**
 * The console's participants (issue 14, part B): the grid, imports with a column mapping, bibs,
 * chips and result lists. After a change the results module reloads the context.
 */
export const participantsModule = fp(
  async (app: FastifyInstance) => {
    const service = createParticipantsService({
      database: app.database,
      publisher: app.realtime,
      reload: (db) => app.results.reload(db),
    });
    const history = createImportHistory({ database: app.database, reload: (db) => app.results.reload(db) });
    await app.register(participantsRoutes, { service, history });
  },
  { name: 'participants', dependencies: ['identity', 'realtime', 'results'] },
);
