import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createEntriesService } from '../entries/port.ts';
import { runnerRoutes } from './routes.ts';
import { createRunnerService } from './service.ts';

/**
 * The runner's own space (issue 40): my results across events, and privacy by the runner's choice
 * (a hidden name reaches every public view through the results' public projection), my data
 * (download, erasure) and each event's retention of personal data.
 */
export const runnerModule = fp(
  async (app: FastifyInstance) => {
    const service = createRunnerService({
      database: app.database,
      reload: (db) => app.results.reload(db),
      card: (key) => app.results.tracking(key),
      send: (mail) => app.outbox.send(mail),
      publicUrl: app.config.publicUrl,
      entries: createEntriesService({
        database: app.database,
        outbox: app.outbox,
        results: app.results,
        payments: app.payments,
        publicUrl: app.config.publicUrl,
      }),
    });
    await app.register(runnerRoutes, { service });
    // The retention job (issue 40): hourly, every node (an event is anonymised once, under its
    // row's lock). Not under NODE_ENV=test: tests run it with a clock of their own.
    if (app.config.NODE_ENV !== 'test') {
      const run = () =>
        service.retention.run().catch((error) => app.log.warn({ err: error }, 'retention job failed'));
      // A minute after start (an event past its time since the last run), then hourly.
      const first = setTimeout(run, 60_000);
      const timer = setInterval(run, 60 * 60_000);
      first.unref();
      timer.unref();
      app.addHook('onClose', async () => {
        clearTimeout(first);
        clearInterval(timer);
      });
    }
  },
  { name: 'runner', dependencies: ['identity', 'results', 'deposits', 'entries'] },
);
