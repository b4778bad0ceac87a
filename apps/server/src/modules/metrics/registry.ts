import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import client from 'prom-client';

/** Buckets of request latency (seconds): a cached report answers in ms, an import in seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Buckets of publication lag (seconds): the 250 ms window, then what a busy node adds. */
const LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10];

/**
 * The node's Prometheus metrics (issue 41, prom-client), one registry per app: request latency by
 * route, reads stored per device and point, publication lag, realtime connections and occupied
 * channels, the database's connections, and Node's own (event-loop lag, heap, GC). Every series
 * carries `node` (host and process) so a cluster's nodes stay apart on one dashboard.
 */
export function createMetrics(app: FastifyInstance): client.Registry {
  const registry = new client.Registry();
  registry.setDefaultLabels({ node: `${os.hostname()}:${process.pid}` });
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  const latency = new client.Histogram({
    name: 'tempora_http_request_duration_seconds',
    help: 'HTTP requests by method, route (its template) and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route's template (`/api/results/contexts/:db/…`), never the raw URL: bounded labels.
    const route = request.routeOptions.url ?? 'unmatched';
    latency.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  const reads = new client.Counter({
    name: 'tempora_reads_ingested_total',
    help: 'Reads stored by this node (duplicates left out), by context, device (or source) and timing point',
    labelNames: ['db', 'device', 'point'] as const,
    registers: [registry],
  });
  const lag = new client.Histogram({
    name: 'tempora_publication_lag_seconds',
    help: 'From the oldest read of a publication being stored to its realtime events being sent',
    labelNames: ['db'] as const,
    buckets: LAG_BUCKETS,
    registers: [registry],
  });
  // The results module registers after this one (the latency hook must see every route).
  let stop = () => {};
  app.addHook('onReady', async () => {
    stop = app.results.observe({
      stored(db, rows) {
        for (const row of rows) reads.inc({ db, device: row.device ?? row.source, point: row.pointId });
      },
      published(db, lagMs) {
        lag.observe({ db }, lagMs / 1000);
      },
    });
  });
  app.addHook('onClose', async () => stop());

  new client.Gauge({
    name: 'tempora_realtime_connections',
    help: 'WebSocket connections held by this node',
    registers: [registry],
    collect() {
      this.set(app.realtime.localConnections());
    },
  });
  new client.Gauge({
    name: 'tempora_realtime_channels_occupied',
    help: 'Channels with at least one subscriber on this node',
    registers: [registry],
    collect() {
      this.set(app.realtime.localChannels());
    },
  });
  new client.Gauge({
    name: 'tempora_db_pool_connections',
    help: 'Database connections by state (PGlite: one), and queries waiting for one',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const { total, idle, waiting } = app.database.poolStats();
      this.set({ state: 'total' }, total);
      this.set({ state: 'idle' }, idle);
      this.set({ state: 'waiting' }, waiting);
    },
  });
  return registry;
}
