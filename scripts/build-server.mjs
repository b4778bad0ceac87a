#!/usr/bin/env node
// `npm run build:server`: compiles the server into one ES module, `apps/server/dist/server.mjs`,
// so that production runs plain `node` with no TypeScript transpiler at run time (issue 20). Our
// workspace packages (@tempora/domain, @tempora/contracts) are bundled in; every dependency from
// node_modules stays an import (native and WASM packages — sharp, argon2, PGlite — load their own
// files). The SQL migrations are copied beside the bundle, where `migrate.ts` looks for them.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const server = path.join(root, 'apps/server');
const dist = path.join(server, 'dist');
/** Every bare import but our own packages stays external (resolved from node_modules at run time). */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@tempora/') || args.path.startsWith('node:')
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

fs.rmSync(dist, { recursive: true, force: true });
const started = Date.now();
await build({
  entryPoints: {
    server: path.join(server, 'src/server.ts'),
    cli: path.join(server, 'src/cli.ts'),
    // The heavy-work thread (src/workers/pool.ts loads `heavy-worker.mjs`, built from src/heavy.worker.ts, beside the bundle).
    'heavy-worker': path.join(server, 'src/heavy.worker.ts'),
    // The database thread (src/db/pglite-thread.ts loads `pglite-worker.mjs` beside the bundle).
    'pglite-worker': path.join(server, 'src/pglite.worker.ts'),
  },
  outdir: dist,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: true,
  plugins: [externalPackages],
  // Some dependencies are CommonJS: give the bundle a `require` for them.
  banner: {
    js: "import { createRequire as __tmpCreateRequire } from 'node:module'; const require = __tmpCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
fs.cpSync(path.join(server, 'src/db/migrations'), path.join(dist, 'migrations'), { recursive: true });
const size = fs.statSync(path.join(dist, 'server.mjs')).size;
console.log(
  `server built: apps/server/dist/server.mjs (${(size / 1024).toFixed(0)} KiB) in ${Date.now() - started} ms`,
);
