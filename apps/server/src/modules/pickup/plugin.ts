import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createEntriesService } from '../entries/port.ts';
import { pickupRoutes } from './routes.ts';
import { createPickupService } from './service.ts';

/**
 * Race-day pickup (issue 39): the volunteers' list, scans and operations, the organiser's
 * dashboard and paper list. Late entries are the entries module's manual entries (its service,
 * made here over the same dependencies), DNS the passings desk's status path.
 */
export const pickupModule = fp(
  async (app: FastifyInstance) => {
    const entries = createEntriesService({
      database: app.database,
      outbox: app.outbox,
      results: app.results,
      payments: app.payments,
      publicUrl: app.config.publicUrl,
    });
    const service = createPickupService({
      database: app.database,
      entries,
      payments: app.payments,
      results: app.results,
      setStatuses: (db, raceId, bibs, status, reason, actor) =>
        app.raceday.service.setStatuses(db, raceId, bibs, status, reason, actor),
    });
    await app.register(pickupRoutes, { service, dataDir: app.config.dataDir });
  },
  { name: 'pickup', dependencies: ['identity', 'results', 'deposits', 'entries', 'devices'] },
);
