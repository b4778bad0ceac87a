import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';

/**
 * Where and how the server's log lines go. JSON lines (pino's own, one per request) for machines:
 * production, tests, and any output that is not a terminal (the e2e journeys and log collectors
 * read them). In development on a terminal, `npm start` and `npm run dev` print readable lines
 * (pino-pretty: time, level, message, the request's method, URL, status and duration) instead.
 * `LOG_FORMAT=json|pretty` overrides the choice.
 */
export function prettyLogs(
  config: Pick<Config, 'NODE_ENV' | 'LOG_FORMAT'>,
  isTty = Boolean(process.stdout.isTTY),
): boolean {
  if (config.LOG_FORMAT === 'json') return false;
  if (config.LOG_FORMAT === 'pretty') return true;
  return config.NODE_ENV === 'development' && isTty;
}

/** The Fastify `logger` option: pino at LOG_LEVEL, through pino-pretty when {@link prettyLogs}. */
export async function loggerOptions(config: Config): Promise<object> {
  if (!prettyLogs(config)) return { level: config.LOG_LEVEL };
  const { default: pretty } = await import('pino-pretty');
  // A stream in this thread (not a pino transport's worker: the bundled server has no file for it).
  const stream = pretty({
    colorize: Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,reqId',
    singleLine: true,
  });
  return { level: config.LOG_LEVEL, stream };
}

/**
 * The one line a newcomer needs after `npm start`: where to open the app, and where the links of
 * e-mails (sign-up verification, password reset, invitations) appear.
 */
export function startBanner(config: Pick<Config, 'publicUrl' | 'NODE_ENV' | 'SMTP_URL'>): string {
  const mail = config.SMTP_URL
    ? `e-mails are sent through ${new URL(config.SMTP_URL).host}`
    : config.NODE_ENV === 'development'
      ? 'e-mail links (sign-up, password reset, invitations) are printed in this console as "e-mail link: …"'
      : 'no SMTP_URL: e-mails stay in the outbox (platform staff: /api/dev/outbox)';
  return `Tempora is ready: open ${config.publicUrl}/ — ${mail}`;
}

/**
 * In readable mode, one line per request (`GET /api/health 200 1.2 ms`) instead of pino's two
 * entries ("incoming request", "request completed") with their objects.
 */
export function logRequestsOnOneLine(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const line = `${request.method} ${request.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`;
    if (reply.statusCode >= 500) request.log.error(line);
    else request.log.info(line);
  });
}
