import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { exportsRoutes } from './routes.ts';
import { createExportsService } from './service.ts';

/**
 * Results out (issue 16): report exports (CSV, XLSX, printed PDF lists), finisher certificates
 * and their verification, broadcast feeds. Webhooks are their own module (../webhooks).
 */
export const exportsModule = fp(
  async (app: FastifyInstance) => {
    const service = createExportsService({
      database: app.database,
      results: app.results,
      dataDir: app.config.dataDir,
    });
    await app.register(exportsRoutes, { service });
  },
  { name: 'exports', dependencies: ['identity', 'results', 'visibility'] },
);
