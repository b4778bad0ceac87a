import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, type FieldError } from '../errors.ts';

/** RFC 9457 problem details, plus our stable `code` and optional field `errors`. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  code: string;
  errors?: FieldError[];
}

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** Fastify's own client-error codes mapped to our stable codes. */
const fastifyCodes: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_CONTENT_LENGTH',
  FST_ERR_VALIDATION: 'VALIDATION_FAILED',
};

/** Sends a problem+json reply. Exported for routes that answer a problem without throwing. */
export function sendProblem(reply: FastifyReply, problem: Omit<Problem, 'type' | 'title'>) {
  const body: Problem = {
    type: `about:blank`,
    title: titles[problem.status] ?? 'Error',
    ...problem,
  };
  return reply.status(problem.status).type('application/problem+json').send(body);
}

function toProblem(error: FastifyError | AppError | Error): Omit<Problem, 'type' | 'title'> {
  if (error instanceof AppError) {
    return error.report
      ? { status: error.status, code: error.code, detail: error.message }
      : { status: error.status, code: error.code, detail: error.message, errors: error.errors };
  }
  const fe = error as FastifyError;
  // JSON.parse errors from the body parser arrive as SyntaxError with statusCode 400.
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    const code =
      (fe.code && fastifyCodes[fe.code]) ?? (error instanceof SyntaxError ? 'INVALID_JSON' : 'BAD_REQUEST');
    return { status: fe.statusCode, code, detail: fe.message };
  }
  return { status: 500, code: 'INTERNAL', detail: 'An unexpected error occurred; it has been logged.' };
}

/** One error handler for the whole server: problem+json always, 5xx details hidden and logged. */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error, request, reply) => {
      const problem = toProblem(error as Error);
      if (problem.status >= 500) request.log.error({ err: error }, 'request failed');
      else request.log.info({ code: problem.code, status: problem.status }, 'client error');
      return sendProblem(reply, problem);
    });
    app.setNotFoundHandler((request, reply) =>
      sendProblem(reply, {
        status: 404,
        code: 'ROUTE_NOT_FOUND',
        detail: `No route for ${request.method} ${request.url.split('?')[0]}`,
      }),
    );
  },
  { name: 'errors' },
);
