import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { eventRoutes } from './events/routes.ts';
import { organisationRoutes } from './organisations/routes.ts';
import { reviewRoutes } from './races/review.ts';
import { raceRoutes } from './races/routes.ts';
import { reportRoutes } from './reports/routes.ts';
import { createVisibilityCache, enforceDraftVisibility } from './visibility.ts';

/** Body types of the console's uploads: logos (bytes), courses (GPX or GeoJSON text). */
async function consoleRoutes(
  app: FastifyInstance,
  opts: { visibility: ReturnType<typeof createVisibilityCache> },
) {
  app.addContentTypeParser(
    ['image/png', 'image/jpeg', 'image/webp'],
    { parseAs: 'buffer', bodyLimit: 2 * 1024 * 1024 },
    (_r, body, done) => done(null, body),
  );
  app.addContentTypeParser(
    ['application/gpx+xml', 'application/xml', 'text/xml', 'application/geo+json'],
    { parseAs: 'string', bodyLimit: 20 * 1024 * 1024 },
    (_r, body, done) => done(null, body),
  );
  await app.register(organisationRoutes);
  await app.register(eventRoutes, { visibility: opts.visibility });
  await app.register(raceRoutes);
  await app.register(reviewRoutes);
  await app.register(reportRoutes);
}

/**
 * The organiser console's API (issue 14 part A): organisations, members and invitations, events,
 * contexts, races, timing points, courses, categories, team rules and report definitions, under
 * `/api/console/…`; and the rule that draft events are invisible to spectators, on every route.
 */
export const consoleModule = fp(
  async (app: FastifyInstance) => {
    const visibility = createVisibilityCache(app.database);
    enforceDraftVisibility(app, visibility);
    await app.register(consoleRoutes, { visibility });
  },
  { name: 'console', dependencies: ['identity'] },
);
