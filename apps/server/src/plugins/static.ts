import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { fileAnswer } from '../lib/zod-routes.ts';
import { sendProblem } from './errors.ts';

/** Hashed build outputs (Vite's `assets/name-[hash].js`) never change: cache them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The page's Content-Security-Policy. Scripts only from this origin; frames only from YouTube's
 * embed hosts (issue 8: streams embed from the allowed host list, the same hosts the server
 * accepts for a YouTube stream); no plugins. Styles inline are needed by MUI (emotion); images,
 * media and API calls may come from other https origins (map tiles, HLS streams, an operator's
 * API hosts in the environment configuration).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self' https: wss: ws:",
  "media-src 'self' blob: https:",
  'frame-src https://www.youtube-nocookie.com https://www.youtube.com',
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  // Issue 13: no site may frame the page (X-Frame-Options: DENY from plugins/edge.ts for old browsers).
  "frame-ancestors 'none'",
].join('; ');

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
  // The catch-all's shape for the API reference (issue 41: it was documented as errors only, and
  // without its path parameter): any path, answered with one of the client's files.
  app.addHook('onRoute', (route) => {
    if (route.url !== '/*') return;
    // In place: the app's route table (app.ts) already holds this object.
    route.schema = Object.assign(route.schema ?? {}, {
      summary: 'The web client: its page (any path the client routes) and its files',
      access: 'public',
      params: z.object({ '*': z.string() }),
      response: {
        200: fileAnswer(
          ['text/html', 'text/javascript', 'text/css', 'image/*', 'font/*', 'application/*', 'text/plain'],
          'A file of the web client (index.html for a path it routes itself)',
        ),
      },
    });
  });
  await app.register(fastifyStatic, {
    root: opts.root,
    preCompressed: true,
    wildcard: true,
    index: ['index.html'],
    cacheControl: false,
    setHeaders(reply, filePath) {
      // With preCompressed, the file sent may be `index.html.br` or `.gz`.
      const rel = path.relative(opts.root, filePath).replace(/\.(br|gz)$/, '');
      reply.setHeader('cache-control', rel.startsWith('assets') ? IMMUTABLE : 'no-cache');
      if (rel.endsWith('.html')) {
        reply.setHeader('x-content-type-options', 'nosniff');
        reply.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
        reply.setHeader('referrer-policy', 'strict-origin-when-cross-origin');
      }
    },
  });
}
