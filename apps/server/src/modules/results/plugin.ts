import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { resultsRoutes } from './routes.ts';
import { seedBoston, seedDemoRace, startDemoSimulator } from './seed.ts';
import { createResultsService, type ResultsService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Timing and results: live state per context, ingest, reports (issue 6). */
    results: ResultsService;
  }
}

const BOSTON = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../fixtures/boston-2017.csv',
);

/**
 * The results module: routes, the live results service publishing through `app.realtime`, and
 * the demo (a live 10 km posted by a simulated decoder; Boston 2017 imported in the background)
 * when SEED_DEMO is on. Tests (NODE_ENV=test) get the demo race but no simulator and no Boston.
 */
export const resultsModule = fp(
  async (app: FastifyInstance) => {
    const service = createResultsService({ database: app.database, publisher: app.realtime });
    app.decorate('results', service);
    await app.register(resultsRoutes, { service });
    if (!app.config.SEED_DEMO) return;
    await seedDemoRace(app.database);
    if (app.config.NODE_ENV === 'test') return;
    const stop = startDemoSimulator(app.database, service, app.log);
    app.addHook('onClose', async () => stop());
    if (!app.config.SEED_BOSTON) return;
    // After listening, so a first start answers at once; PGlite interleaves other queries.
    app.addHook('onListen', async () => {
      setTimeout(() => {
        seedBoston(app.database, BOSTON)
          .then((done) => done && app.log.info('Boston 2017 demo imported'))
          .catch((error) => app.log.warn({ err: error }, 'Boston demo import failed'));
      }, 1_000).unref();
    });
  },
  { name: 'results', dependencies: ['identity', 'realtime'] },
);
