import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type ConnectorManager, createConnectorManager } from './manager.ts';
import { deviceNetworkRules } from './network-rules.ts';
import { racedayRoutes } from './routes.ts';
import { createRacedayService, type RacedayService } from './service.ts';
import { createReadSink } from './sink.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Race day (issue 15): device connectors and the passings desk. */
    raceday: { service: RacedayService; manager: ConnectorManager };
  }
}

/**
 * The devices module: the race-day service, its routes, and the connector manager, which starts
 * the configured connectors once the server listens (tests start it themselves) and stops them,
 * their reads settled, when the app closes.
 */
export const devicesModule = fp(
  async (app: FastifyInstance) => {
    const service = createRacedayService({
      database: app.database,
      results: app.results,
      publisher: app.realtime,
      channels: (prefix) => app.realtime.channels(prefix),
    });
    const sink = createReadSink((db, reads, meta) => service.ingest(db, reads, 'decoder', meta));
    const rules = deviceNetworkRules(app.config);
    const manager = createConnectorManager({ database: app.database, sink, log: app.log, rules });
    app.decorate('raceday', { service, manager });
    await app.register(racedayRoutes, { service, manager, rules });
    app.addHook('onListen', async () => {
      await manager.start();
    });
    app.addHook('onClose', async () => manager.stop());
  },
  { name: 'devices', dependencies: ['results', 'realtime'] },
);
