import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { repoRoot } from '../../paths.ts';
import { type DecoderListener, startDecoderListener } from './decoder-tcp.ts';
import { resultsRoutes } from './routes.ts';
import { seedBoston, seedDemoRace, startDemoSimulator } from './seed.ts';
import { createResultsService, type ResultsService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Timing and results: live state per context, ingest, reports (issue 6). */
    results: ResultsService;
  }
}

const BOSTON = path.join(repoRoot, 'fixtures/boston-2017.csv');

/**
 * The results module: routes, the live results service publishing through `app.realtime`, and
 * the demo (a marathon and a 10 km replayed live, DEMO_SPEED times faster than the clock, by
 * simulated decoders; Boston 2017 imported in the background) when SEED_DEMO is on. Tests
 * (NODE_ENV=test) get the demo races but no simulator and no Boston.
 */
export const resultsModule = fp(
  async (app: FastifyInstance) => {
    const service = createResultsService({ database: app.database, publisher: app.realtime });
    app.decorate('results', service);
    await app.register(resultsRoutes, { service });
    const decoderPort = app.config.DECODER_TCP_PORT;
    if (decoderPort !== undefined) {
      // Beside the HTTP server: opened when it listens, closed with the app (acknowledged reads
      // are stored first).
      let listener: DecoderListener | undefined;
      app.addHook('onListen', async () => {
        listener = await startDecoderListener({
          host: app.config.DECODER_TCP_HOST ?? app.config.HOST,
          port: decoderPort,
          database: app.database,
          service,
          log: app.log,
        });
      });
      app.addHook('onClose', async () => listener?.close());
    }
    if (!app.config.SEED_DEMO) return;
    await seedDemoRace(app.database, Date.now(), { speed: app.config.DEMO_SPEED });
    if (app.config.NODE_ENV === 'test') return;
    if (app.config.DEMO_REPLAY) {
      const simulator = startDemoSimulator(app.database, service, app.log);
      app.addHook('onClose', async () => simulator.stop());
    }
    if (!app.config.SEED_BOSTON) return;
    // After listening, so a first start answers at once; PGlite interleaves other queries.
    app.addHook('onListen', async () => {
      setTimeout(() => {
        seedBoston(app.database, BOSTON)
          .then(async (done) => {
            if (!done) return;
            app.log.info('Boston 2017 demo imported');
            await app.database.housekeep();
          })
          .catch((error) => app.log.warn({ err: error }, 'Boston demo import failed'));
      }, 1_000).unref();
    });
  },
  { name: 'results', dependencies: ['identity', 'realtime'] },
);
