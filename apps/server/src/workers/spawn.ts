import fs from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread from the bundle's `<name>.mjs` beside `dist/server.mjs` in production
 * (scripts/build-server.mjs builds each worker as an entry of its own), else from its TypeScript
 * source (development, tests, benches), loading tsx in the worker first.
 *
 * `from` is the caller's `import.meta.url`: in the bundle every module's is the bundle's, so
 * `bundled` resolves beside it.
 */
export function spawnWorker(
  from: string,
  bundled: string,
  source: URL,
  options: Pick<WorkerOptions, 'workerData' | 'transferList'> = {},
): Worker {
  const built = new URL(`./${bundled}`, from);
  if (from.endsWith('.mjs') && fs.existsSync(built)) return new Worker(built, options);
  // `--import tsx` in a worker's execArgv loads the entry before tsx's hooks (Node 20): register
  // them first from a small bootstrap, then import the TypeScript entry.
  const api = createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const tsx = pathToFileURL(api).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(source.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}
