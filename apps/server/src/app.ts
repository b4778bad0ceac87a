import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifySchema, LogController } from 'fastify';
import type { Config } from './config/config.ts';
import { loggerOptions, logRequestsOnOneLine, prettyLogs } from './config/log-output.ts';
import { type Database, openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { withInstallSecrets } from './db/secrets.ts';
import { identityPlugin } from './identity/plugin.ts';
import { zodSerializerCompiler, zodValidatorCompiler } from './lib/zod-routes.ts';
import { alertsModule } from './modules/alerts/plugin.ts';
import { confirmationModule } from './modules/confirmation/plugin.ts';
import { consoleModule } from './modules/console/plugin.ts';
import { contentModule } from './modules/content/plugin.ts';
import { depositsModule } from './modules/deposits/plugin.ts';
import { devicesModule } from './modules/devices/plugin.ts';
import { docsRoutes } from './modules/docs/routes.ts';
import { entriesModule } from './modules/entries/plugin.ts';
import { envConfigRoutes } from './modules/env-config/routes.ts';
import { loadEnvironments } from './modules/env-config/service.ts';
import { exportsModule } from './modules/exports/plugin.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { metricsPlugin } from './modules/metrics/plugin.ts';
import { participantsModule } from './modules/participants/plugin.ts';
import { pickupModule } from './modules/pickup/plugin.ts';
import { resultsModule } from './modules/results/plugin.ts';
import { runnerModule } from './modules/runner/plugin.ts';
import { translationRoutes } from './modules/translation/routes.ts';
import { webhooksModule } from './modules/webhooks/plugin.ts';
import { clientErrorHandler, edgePlugin, frameworkErrors } from './plugins/edge.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { staticPlugin } from './plugins/static.ts';
import { visibilityPlugin } from './policy/visibility.ts';
import { realtimePlugin } from './realtime/plugin.ts';
import { seedDemo } from './seed/demo.ts';
import { demoSeedPlugin } from './seed/plugin.ts';

/** One registered route (the fuzz and authorization-matrix tests walk them: test/route-table.ts). */
export interface RouteEntry {
  method: string;
  url: string;
  /** What the route declares (lib/zod-routes.ts; described by `GET /api/docs`). */
  schema?: FastifySchema;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, in order (HEAD routes Fastify adds for GETs left out). */
    routeTable: RouteEntry[];
    config: Config;
    database: Database;
  }
}

/** Trusts the `count` nearest proxies (what Fastify does for a number, which its types omit). */
const hops = (count: number) => (_address: string, hop: number) => hop < count;

export interface BuildOptions {
  /** An already open database (tests share one); otherwise opened from the config and closed with the app. */
  database?: Database;
  /** Whether to log (tests pass false). */
  logger?: boolean;
}

/**
 * Builds the whole server as a Fastify instance without listening (fastify/demo style): opens and
 * migrates the database, seeds the demo when empty, registers every module. `server.ts` listens.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const environments = loadEnvironments(config);
  const app = Fastify({
    logger: options.logger === false ? false : await loggerOptions(config),
    // Readable logs (development on a terminal) say each request on one line (log-output.ts).
    logController: new LogController({
      disableRequestLogging: options.logger !== false && prettyLogs(config),
    }),
    bodyLimit: config.BODY_LIMIT,
    // Off unless configured (issue 13): a forged X-Forwarded-For must not change the client address.
    trustProxy: typeof config.TRUST_PROXY === 'number' ? hops(config.TRUST_PROXY) : config.TRUST_PROXY,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // Fastify's default gives a plugin 10 s to start: at a load of 20 the demo seed took longer and
    // the start failed ("Plugin did not start in time: 'demo-seed'", a journey's server, 4 workers
    // beside a Vitest run). A slow start is slow, not broken; the readiness check says when it is up.
    pluginTimeout: 120_000,
    // Issue 13: errors raised before any route (bad %-encoding, headers too large) as problem+json.
    frameworkErrors,
    clientErrorHandler,
  });
  if (options.logger !== false && prettyLogs(config)) logRequestsOnOneLine(app);
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      if (method !== 'HEAD') routeTable.push({ method, url: route.url, schema: route.schema });
  });
  // Routes declare zod schemas (issue 30): input checked with parseInput's problem, answers
  // checked against their declared shape (a mismatch fails in tests and development, is logged in production).
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(
    zodSerializerCompiler({ strict: config.NODE_ENV !== 'production', log: () => app.log }),
  );
  const database =
    options.database ??
    (await openDatabase({
      url: config.DATABASE_URL,
      dataDir: path.join(config.dataDir, 'pglite'),
      thread: config.PGLITE_THREAD,
    }));
  if (!options.database) app.addHook('onClose', () => database.close());
  // Graceful close: answers still in flight when closing tell the client to drop the keep-alive
  // connection, otherwise the server would wait for the client's idle timeout before exiting.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.decorate('database', database);
  housekeeping(app, database);

  const applied = await migrate(database);
  if (applied.length) app.log.info({ applied }, 'migrations applied');
  app.decorate('config', await withInstallSecrets(config, database));
  if (config.SEED_DEMO && (await seedDemo(database))) app.log.info('demo content seeded');

  await app.register(errorsPlugin);
  await app.register(metricsPlugin);
  await app.register(edgePlugin);
  await app.register(healthRoutes);
  await app.register(envConfigRoutes, { environments });
  await app.register(identityPlugin);
  await app.register(visibilityPlugin);
  await app.register(realtimePlugin);
  await app.register(translationRoutes);
  await app.register(consoleModule);
  await app.register(resultsModule);
  await app.register(demoSeedPlugin);
  await app.register(contentModule);
  await app.register(confirmationModule);
  await app.register(participantsModule);
  await app.register(depositsModule);
  await app.register(entriesModule);
  await app.register(devicesModule);
  await app.register(pickupModule);
  await app.register(exportsModule);
  await app.register(webhooksModule);
  await app.register(runnerModule);
  await app.register(alertsModule);
  await app.register(docsRoutes, { routes: () => routeTable });
  await app.register(staticPlugin, { root: config.WEB_DIST });
  return app;
}

/** Requests with bodies above this size (imports) are followed by a housekeeping pass. */
const LARGE_BODY_BYTES = 1024 * 1024;

/**
 * Disk housekeeping of the embedded database (issue 20): a checkpoint every 10 minutes, and 10 s
 * after a large request (an import) has been answered, so the write-ahead log shrinks back to its
 * limit instead of growing with every import. A checkpoint costs ~0.2 s after a Boston import.
 */
function housekeeping(app: FastifyInstance, database: Database) {
  if (database.kind !== 'pglite') return;
  let soon: NodeJS.Timeout | null = null;
  const run = () => {
    soon = null;
    database.housekeep().catch((error) => app.log.warn({ err: error }, 'checkpoint failed'));
  };
  const every = setInterval(run, 10 * 60_000);
  every.unref();
  app.addHook('onResponse', async (request) => {
    if (soon || Number(request.headers['content-length'] ?? 0) < LARGE_BODY_BYTES) return;
    soon = setTimeout(run, 10_000);
    soon.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(every);
    if (soon) clearTimeout(soon);
  });
}
