import { healthAnswerSchema, readyAnswerSchema } from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../../errors.ts';
import type { ZodTypeProvider } from '../../lib/zod-routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Work a node finishes before it takes traffic (`/api/ready` answers 503 until then). */
    readiness: { wait(name: string, work: Promise<unknown>): void; pending(): string[] };
  }
}

/**
 * Liveness (`/api/health`: the process answers) and readiness (`/api/ready`: the database is
 * reachable and the node has warmed up — e.g. the results of live events loaded, so that the
 * first spectator sent here by the load balancer is answered at once: issue 20).
 */
export const healthRoutes = fp(
  async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const pending = new Set<string>();
    app.decorate('readiness', {
      wait(name: string, work: Promise<unknown>) {
        pending.add(name);
        work
          .catch((error: unknown) => app.log.warn({ err: error, name }, 'warm-up failed; ready anyway'))
          .finally(() => pending.delete(name));
      },
      pending: () => [...pending],
    });
    app.get(
      '/api/health',
      { schema: { access: 'public', response: { 200: healthAnswerSchema } } },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        return { status: 'ok' as const, uptime: Math.round(process.uptime()) };
      },
    );
    app.get(
      '/api/ready',
      { schema: { access: 'public', response: { 200: readyAnswerSchema } } },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        try {
          await app.database.ping();
        } catch {
          throw errors.unavailable('DATABASE_UNREACHABLE', 'The database is not reachable');
        }
        if (pending.size) throw errors.unavailable('WARMING_UP', `Warming up: ${[...pending].join(', ')}`);
        return { status: 'ready' as const, database: app.database.kind };
      },
    );
  },
  { name: 'health' },
);
