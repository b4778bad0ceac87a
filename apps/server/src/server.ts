import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config/config.ts';
import { startBanner } from './config/log-output.ts';
import { addAcceptHandles } from './lib/accept-handles.ts';

/** The listening socket's queue asked for (the kernel caps it at `net.core.somaxconn`). */
const BACKLOG = 65_535;

/** Entry point: validate config, build, listen, and close gracefully on SIGTERM/SIGINT. */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const app = await buildApp(config);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // A long queue of connections not yet accepted (Node's default: 511; the kernel's somaxconn caps
  // it: 4,096 on this machine, see docs/deployment.md): when a popular race opens, thousands of
  // browsers connect within a second while the event loop is busy; past the queue the kernel drops
  // their SYNs and each waits 1, 3, 7… s to retry, out of their order of arrival (issue 38).
  await app.listen({ port: config.PORT, host: config.HOST, backlog: BACKLOG });
  // And more handles taking connections from that queue (lib/accept-handles.ts): one handle takes
  // one connection per turn of the event loop, and a busy node's turns last 20–600 ms.
  await addAcceptHandles(app.server, config.ACCEPT_HANDLES, BACKLOG);
  app.log.info(startBanner(config));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
