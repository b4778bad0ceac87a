import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type DecoderListener, startDecoderListener } from './decoder-tcp.ts';
import { createFrontDoor, decoderIngest, type FrontDoor } from './ingest.ts';
import { type ConnectorManager, createConnectorManager } from './manager.ts';
import { deviceNetworkRules } from './network-rules.ts';
import { racedayRoutes } from './routes.ts';
import { createRacedayService, type RacedayService } from './service.ts';
import { createReadSink } from './sink.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Race day (issue 15): device connectors and the passings desk. */
    raceday: { service: RacedayService; manager: ConnectorManager; door: FrontDoor };
  }
}

/**
 * The devices module: the race-day service, its routes, and the connector manager, which starts
 * the configured connectors once the server listens (tests start it themselves) and stops them,
 * their reads settled, when the app closes.
 */
export const devicesModule = fp(
  async (app: FastifyInstance) => {
    const service = createRacedayService({ database: app.database, results: app.results });
    const rules = deviceNetworkRules(app.config);
    // The one front door every transport stores through (./ingest.ts).
    const door = createFrontDoor({
      database: app.database,
      ingest: (db, reads, source, meta, opts) => service.ingest(db, reads, source, meta, opts),
      status: (deviceId) => manager.status(deviceId),
    });
    const manager = createConnectorManager({
      database: app.database,
      sink: createReadSink(door),
      log: app.log,
      rules,
    });
    app.decorate('raceday', { service, manager, door });
    await app.register(racedayRoutes, { service, manager, door, rules });
    const decoderPort = app.config.DECODER_TCP_PORT;
    if (decoderPort !== undefined) {
      // The TCP line decoder, beside the HTTP server: opened when it listens, closed with the app
      // (acknowledged reads are stored first). Its reads go through the front door too.
      let listener: DecoderListener | undefined;
      app.addHook('onListen', async () => {
        listener = await startDecoderListener({
          host: app.config.DECODER_TCP_HOST ?? app.config.HOST,
          port: decoderPort,
          database: app.database,
          service: decoderIngest(door),
          log: app.log,
        });
      });
      app.addHook('onClose', async () => listener?.close());
    }
    app.addHook('onListen', async () => {
      await manager.start();
    });
    app.addHook('onClose', async () => manager.stop());
  },
  { name: 'devices', dependencies: ['results', 'realtime'] },
);
