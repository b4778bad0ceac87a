import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { cmsRoutes } from './cms/routes.ts';
import { contactsRoutes } from './contacts/routes.ts';
import { eventsRoutes } from './events/routes.ts';
import { photosRoutes } from './photos/routes.ts';
import { seedContent } from './seed.ts';
import { seriesRoutes } from './series/routes.ts';
import { streamsRoutes } from './streams/routes.ts';

/**
 * The content module (issue 8): events, CMS pages and tree, contacts and the contact form,
 * streams, the photo box and series standings; demo content when SEED_DEMO is on. Each feature
 * registers in its own encapsulated scope (the photo box adds @fastify/multipart to its own only).
 */
export const contentModule = fp(
  async (app: FastifyInstance) => {
    if (app.config.SEED_DEMO && (await seedContent(app.database))) app.log.info('demo content pages seeded');
    await app.register(eventsRoutes);
    await app.register(cmsRoutes);
    await app.register(contactsRoutes);
    await app.register(streamsRoutes, {});
    await app.register(photosRoutes);
    await app.register(seriesRoutes);
  },
  { name: 'content', dependencies: ['identity', 'realtime'] },
);
