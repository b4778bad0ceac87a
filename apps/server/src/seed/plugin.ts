import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { warmFinishedResults } from '../modules/results/port.ts';
import { repoRoot } from '../paths.ts';
import { seedBoston, seedDemoRace, startDemoSimulator } from './demo-races.ts';

const BOSTON = path.join(repoRoot, 'fixtures/boston-2017.csv');

/**
 * The demo races when SEED_DEMO is on: a marathon and a 10 km replayed live (DEMO_SPEED times
 * faster than the clock, by simulated decoders going through the timing front door) and Boston
 * 2017 imported in the background. Tests (NODE_ENV=test) get the demo races but no simulator and
 * no Boston. Seeding is composition, not a module's job: registered by `app.ts` right after the
 * results module, so no module imports the seed (no `modules ↔ seed` cycle).
 */
export const demoSeedPlugin = fp(
  async (app: FastifyInstance) => {
    if (!app.config.SEED_DEMO) return;
    await seedDemoRace(app.database, Date.now(), { speed: app.config.DEMO_SPEED });
    if (app.config.NODE_ENV === 'test') return;
    if (app.config.DEMO_REPLAY) {
      const simulator = startDemoSimulator(app.database, app.results, app.log);
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
            await warmFinishedResults(app); // its snapshot, for the next start
          })
          .catch((error) => app.log.warn({ err: error }, 'Boston demo import failed'));
      }, 1_000).unref();
    });
  },
  { name: 'demo-seed', dependencies: ['results'] },
);
