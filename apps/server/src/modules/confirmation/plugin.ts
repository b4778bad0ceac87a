import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { confirmationRoutes } from './routes.ts';
import { createConfirmationService } from './service.ts';
import { yielding } from './yielding.ts';

/**
 * The confirmation module (issue 17): registration documents sent by clubs, companies and
 * schools, reviewed and confirmed into participants. Mails go through the identity outbox;
 * confirmed participants reach the live results through the results module's reload command.
 */
export const confirmationModule = fp(
  async (app: FastifyInstance) => {
    const database = yielding(app.database);
    const service = createConfirmationService({
      database,
      outbox: app.outbox,
      invalidateContext: (db) => void app.results.reload(db),
      publicUrl: app.config.PUBLIC_URL,
    });
    await app.register(confirmationRoutes, { service, database });
  },
  { name: 'confirmation', dependencies: ['identity'] },
);
