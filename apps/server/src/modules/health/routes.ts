import type { FastifyInstance } from 'fastify';
import { errors } from '../../errors.ts';

/** Liveness (`/api/health`: the process answers) and readiness (`/api/ready`: database reachable). */
export async function healthRoutes(app: FastifyInstance) {
  app.get('/api/health', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok', uptime: Math.round(process.uptime()) };
  });
  app.get('/api/ready', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await app.database.ping();
    } catch {
      throw errors.unavailable('DATABASE_UNREACHABLE', 'The database is not reachable');
    }
    return { status: 'ready', database: app.database.kind };
  });
}
