import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers.ts';
import {
  type Actors,
  createActors,
  fillUrl,
  refusedBy,
  routeKey,
  routesWithAccess,
  tableDigests,
} from './route-table.ts';

/**
 * The authorization matrix (issue 13), generated from the app's own route table: every route
 * that is not public × every caller its access must refuse (route-access.ts) → 401, 403 or 404,
 * and no table changed. A route registered without a line in route-access.ts fails the first
 * test, naming it: add the line (see the header of route-access.ts).
 */

let app: FastifyInstance;
let actors: Actors;
beforeAll(async () => {
  app = await buildTestApp({ AUTH_RATE_LIMIT: '100000' });
  await app.ready();
  actors = await createActors(app);
});
afterAll(() => app.close());

describe('authorization matrix', () => {
  it('every registered route has an entry in route-access.ts', () => {
    expect(() => routesWithAccess(app)).not.toThrow();
  });

  it('refuses every caller a route does not admit, and changes nothing', async () => {
    const routes = routesWithAccess(app).filter((r) => r.access !== 'public');
    const before = await tableDigests(app);
    const unexpected: string[] = [];
    let checks = 0;
    for (const route of routes) {
      const url = fillUrl(route.url, route.options.params);
      for (const who of refusedBy[route.access]) {
        const authorization = actors[who];
        const res = await app.inject({
          method: route.method as 'GET',
          url,
          headers: {
            ...(authorization ? { authorization } : {}),
            ...(route.method === 'GET' || route.method === 'DELETE'
              ? {}
              : { 'content-type': 'application/json' }),
          },
          ...(route.method === 'GET' || route.method === 'DELETE'
            ? {}
            : { payload: JSON.stringify(route.options.body ?? {}) }),
        });
        checks++;
        if (![401, 403, 404].includes(res.statusCode))
          unexpected.push(`${routeKey(route)} as ${who}: ${res.statusCode} ${res.body.slice(0, 160)}`);
      }
    }
    const after = await tableDigests(app);
    const changed = Object.keys(after).filter((t) => after[t] !== before[t]);
    console.info(`authorization matrix: ${routes.length} routes, ${checks} refused calls checked`);
    expect(unexpected).toEqual([]);
    expect(changed).toEqual([]);
    expect(checks).toBeGreaterThan(200);
  }, 120_000);
});
