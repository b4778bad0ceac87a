import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers.ts';
import { createForeignRows, type ForeignRows } from './foreign-rows.ts';
import {
  type Actors,
  createActors,
  expectedRefusal,
  fillUrl,
  refusedBy,
  routeKey,
  routesWithAccess,
  tableDigests,
} from './route-table.ts';

/**
 * The authorization matrix (issues 13 and 25), generated from the app's own route table: every
 * route that is not public × every caller its access must refuse (route-access.ts) → exactly the
 * code of the 404-vs-403 rule (route-access.ts header), and no table changed. Every id in a path
 * is a real row of the demo organisation (foreign-rows.ts), so a refusal proves the access check,
 * not a missing row; and where a refused outsider got an answer for a real row, the same call with
 * a missing id must answer the same (no existence oracle for anyone outside the organisation). A route registered without a line in
 * route-access.ts fails the first test, naming it: add the line (see the header of
 * route-access.ts).
 */

let app: FastifyInstance;
let actors: Actors;
let foreign: ForeignRows;
beforeAll(async () => {
  app = await buildTestApp({ AUTH_RATE_LIMIT: '100000' });
  await app.ready();
  actors = await createActors(app);
  foreign = await createForeignRows(app);
}, 120_000);
afterAll(() => app.close());

describe('authorization matrix', () => {
  it('every registered route has an entry in route-access.ts', () => {
    expect(() => routesWithAccess(app)).not.toThrow();
  });

  it('refuses every caller a route does not admit with the rule’s code, and changes nothing', async () => {
    const routes = routesWithAccess(app).filter((r) => r.access !== 'public');
    const before = await tableDigests(app);
    const unexpected: string[] = [];
    let checks = 0;
    let realChecks = 0;
    let twins = 0;
    const realRoutes = new Set<string>();
    const call = async (method: string, url: string, who: keyof Actors, body: unknown) => {
      const authorization = actors[who];
      const withBody = !(method === 'GET' || method === 'DELETE');
      return app.inject({
        method: method as 'GET',
        url,
        headers: {
          ...(authorization ? { authorization } : {}),
          ...(withBody ? { 'content-type': 'application/json' } : {}),
        },
        ...(withBody ? { payload: JSON.stringify(body ?? {}) } : {}),
      });
    };
    for (const route of routes) {
      const real = foreign.realParams(route.url);
      const url = fillUrl(route.url, { ...route.options.params, ...foreign.paramsFor(route.url) });
      // The same route with route-access's placeholders: ids that do not exist.
      const missingUrl = fillUrl(route.url, route.options.params);
      for (const who of refusedBy[route.access]) {
        const res = await call(route.method, url, who, route.options.body);
        const expected = expectedRefusal(route, who);
        checks++;
        if (real.length) {
          realChecks++;
          realRoutes.add(routeKey(route));
        }
        if (res.statusCode !== expected)
          unexpected.push(
            `${routeKey(route)} as ${who}: ${res.statusCode} (rule: ${expected}) ${res.body.slice(0, 160)}`,
          );
        // Outsiders only: a member of the organisation may learn that its own row exists (403).
        const outsider = who === 'user' || who === 'otherOrganiser' || route.access === 'party';
        if (real.length && expected !== 401 && outsider) {
          const twin = await call(route.method, missingUrl, who, route.options.body);
          twins++;
          if (twin.statusCode !== res.statusCode)
            unexpected.push(
              `${routeKey(route)} as ${who}: ${res.statusCode} for a real row but ${twin.statusCode} for a missing one`,
            );
        }
      }
    }
    const after = await tableDigests(app);
    const changed = Object.keys(after).filter((t) => after[t] !== before[t]);
    console.info(
      `authorization matrix: ${routes.length} routes, ${checks} refused calls checked with the rule's code; ` +
        `${realRoutes.size} routes with ids hold real rows of another organisation: ${realChecks} route × caller ` +
        `calls on them, all refused; ${twins} real-vs-missing twins answered the same`,
    );
    expect(unexpected).toEqual([]);
    expect(changed).toEqual([]);
    expect(checks).toBeGreaterThan(200);
    // Every route with an id param (other than the context, event, race and organisation, which
    // are the demo's own real ids) has a real row.
    const parent = new Set([
      'db',
      'eventId',
      'raceId',
      'orgId',
      'event',
      'context',
      'raceKey',
      'appId',
      'channelName',
      'userId',
      'format',
      'group',
      'report',
    ]);
    const withoutRow = routes
      .filter((r) => [...r.url.matchAll(/:(\w+)/g)].some(([, name]) => !parent.has(name as string)))
      .filter((r) => !r.url.startsWith('/apps/'))
      .filter((r) => foreign.realParams(r.url).length === 0)
      .map(routeKey);
    expect(withoutRow).toEqual([]);
  }, 240_000);
});
