import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendProblem } from './errors.ts';

/** Hashed build outputs (Vite's `assets/name-[hash].js`) never change: cache them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built single-page app from `root`, preferring the `.br`/`.gz` files written at build
 * time (`scripts/precompress.mjs`) per the request's Accept-Encoding. `index.html` is never cached
 * so a deploy is seen at the next load. With no build, `/` explains how to make one.
 */
export async function staticPlugin(app: FastifyInstance, opts: { root: string }) {
  if (!fs.existsSync(path.join(opts.root, 'index.html'))) {
    app.log.warn({ root: opts.root }, 'web client not built; run `npm run build`');
    app.get('/', (_request, reply) =>
      sendProblem(reply, {
        status: 503,
        code: 'WEB_NOT_BUILT',
        detail: 'The web client is not built. Run `npm run build` (or `npm start`, which builds it).',
      }),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: opts.root,
    preCompressed: true,
    wildcard: true,
    index: ['index.html'],
    cacheControl: false,
    setHeaders(reply, filePath) {
      const rel = path.relative(opts.root, filePath);
      reply.header('cache-control', rel.startsWith('assets') ? IMMUTABLE : 'no-cache');
      if (rel.endsWith('.html')) reply.header('x-content-type-options', 'nosniff');
    },
  });
}
