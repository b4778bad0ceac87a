import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { eventRoutes } from './events/routes.ts';
import { organisationRoutes } from './organisations/routes.ts';
import { reviewRoutes } from './races/review.ts';
import { raceRoutes } from './races/routes.ts';
import { reportRoutes } from './reports/routes.ts';

/** Body types of the console's uploads: logos (bytes), courses (GPX or GeoJSON text). */
async function consoleRoutes(app: FastifyInstance) {
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
  await app.register(eventRoutes);
  await app.register(raceRoutes);
  await app.register(reviewRoutes);
  await app.register(reportRoutes);
}

/**
 * The organiser console's API (issue 14 part A): organisations, members and invitations, events,
 * contexts, races, timing points, courses, categories, team rules and report definitions, under
 * `/api/console/…`. Draft events and hidden reports are private on every route and channel: the
 * rule is the policy's (policy/visibility.ts); the console forgets its cached copy on a change.
 */
export const consoleModule = fp(
  async (app: FastifyInstance) => {
    await app.register(consoleRoutes);
  },
  { name: 'console', dependencies: ['identity', 'visibility'] },
);
