import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../../errors.ts';
import { fileAnswer, type ZodTypeProvider } from '../../lib/zod-routes.ts';
import { createMetrics } from './registry.ts';

const sha = (text: string) => crypto.createHash('sha256').update(text).digest();

/** Whether `header` is `Bearer <METRICS_TOKEN>` (compared in constant time). */
function holdsToken(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header?.startsWith('Bearer ')) return false;
  return crypto.timingSafeEqual(sha(header.slice(7)), sha(token));
}

/**
 * `GET /metrics` (issue 41): this node's metrics in Prometheus' text format, for a scraper holding
 * `METRICS_TOKEN`; 401 for anyone else, and for everyone while the token is unset. Registered
 * before the modules (not encapsulated): the latency hook sees every route.
 */
export const metricsPlugin = fp(
  async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const registry = createMetrics(fastify);
    app.get(
      '/metrics',
      {
        schema: {
          summary: "This node's metrics, Prometheus text format (Authorization: Bearer METRICS_TOKEN)",
          access: 'key',
          response: { 200: fileAnswer(['text/plain'], 'Prometheus exposition format 0.0.4') },
        },
      },
      async (request, reply) => {
        if (!holdsToken(request.headers.authorization, app.config.METRICS_TOKEN))
          throw errors.unauthorized('Send the metrics token: Authorization: Bearer METRICS_TOKEN');
        return reply.type(registry.contentType).send(await registry.metrics());
      },
    );
  },
  { name: 'metrics' },
);
