import type { Socket } from 'node:net';
import helmet from '@fastify/helmet';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';
import { type Problem, sendProblem } from './errors.ts';

/**
 * The server's edge (issue 13): what every request and answer goes through before and after the
 * routes. Text that PostgreSQL or a UTF-8 encoder cannot hold is refused with one 400 here, and
 * the security headers come from a maintained plugin (@fastify/helmet).
 */

/** Deepest nesting inspected in a body (deeper is refused: no route takes such input). */
const MAX_DEPTH = 64;

/** NUL (PostgreSQL text refuses it) or a lone UTF-16 surrogate (not encodable as UTF-8). */
function badText(text: string): 'NUL' | 'surrogate' | null {
  if (text.includes('\u0000')) return 'NUL';
  if (!(text as string & { isWellFormed(): boolean }).isWellFormed()) return 'surrogate';
  return null;
}

/** The first bad string in a value (keys included), with where it is; null when all are fine. */
export function findBadText(
  value: unknown,
  where: string,
  depth = 0,
): { where: string; what: string } | null {
  if (typeof value === 'string') {
    const what = badText(value);
    return what ? { where, what } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (depth > MAX_DEPTH) return { where, what: 'nesting' };
  if (Buffer.isBuffer(value)) return null;
  for (const [key, item] of Object.entries(value)) {
    const keyProblem = badText(key);
    if (keyProblem) return { where: `${where}.${key}`, what: keyProblem };
    const found = findBadText(item, `${where}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

const messages: Record<string, string> = {
  NUL: 'contains a NUL character',
  surrogate: 'contains an unpaired UTF-16 surrogate',
  nesting: 'is nested too deeply',
};

function refuse(found: { where: string; what: string }): AppError {
  return new AppError(400, 'INVALID_TEXT', `The ${found.where.split('.')[0]} ${messages[found.what]}`, [
    { field: found.where, message: messages[found.what] ?? 'invalid' },
  ]);
}

/** Fastify `frameworkErrors`: a bad %-encoding in the URL is a problem+json 400 too. */
export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: Parameters<typeof sendProblem>[0],
) {
  const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
  request.log.info({ code: error.code }, 'client error (framework)');
  return sendProblem(reply, {
    status,
    code: error.code === 'FST_ERR_BAD_URL' ? 'BAD_URL' : 'BAD_REQUEST',
    detail: error.code === 'FST_ERR_BAD_URL' ? 'The URL is not valid (bad %-encoding)' : error.message,
  });
}

const clientErrors: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'HEADERS_TOO_LARGE', 'The request headers are too large'],
  HPE_URI_TOO_LONG: [414, 'URI_TOO_LONG', 'The URL is too long'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT', 'The request took too long'],
};

/**
 * Fastify `clientErrorHandler`: errors Node's HTTP parser raises before any route (headers too
 * large, URL too long, malformed request) answered as problem+json, not Node's bare text.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
  if (!socket.writable) return socket.destroy();
  const [status, code, detail] = clientErrors[error.code ?? ''] ?? [400, 'BAD_REQUEST', 'Malformed request'];
  const body = JSON.stringify({
    type: 'about:blank',
    title:
      status === 431 ? 'Request Header Fields Too Large' : status === 414 ? 'URI Too Long' : 'Bad Request',
    status,
    code,
    detail,
  } satisfies Problem);
  socket.end(
    `HTTP/1.1 ${status} ${code}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The edge plugin: the text guard on params, query and body (every route, `preValidation`), and
 * the headers of every answer: `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY` (the
 * page's CSP adds `frame-ancestors 'none'`, plugins/static.ts), a referrer policy, and HSTS when
 * the request came over HTTPS (directly, or through a proxy trusted by TRUST_PROXY).
 */
export const edgePlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(helmet, {
      global: true,
      // The single-page app's CSP is set with the page (static.ts); API answers are data.
      contentSecurityPolicy: false,
      // Photos and files may be shown by other sites (event pages embedding a photo).
      crossOriginResourcePolicy: false,
      frameguard: { action: 'deny' },
      hsts: false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    });
    app.addHook('onSend', async (request, reply) => {
      if (request.protocol === 'https')
        reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    });
    app.addHook('preValidation', async (request) => {
      const found =
        findBadText(request.params, 'params') ??
        findBadText(request.query, 'query') ??
        findBadText(request.body, 'body');
      if (found) throw refuse(found);
    });
  },
  { name: 'edge', dependencies: ['errors'] },
);
