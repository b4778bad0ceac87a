import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser, type TestUser } from '../../../test/identity-helpers.ts';

/**
 * Issue 25 (low): race ids were unique across organisations, so `409 A race 'r10k-a' exists`
 * named another organisation's race and let anyone take a name first. Now the rule is per context
 * (results/setup.ts raceIdFor): the caller's own context answers 409; another context's race is
 * never named, and the new race gets an id of its own.
 */
describe('race ids are unique per context', () => {
  let app: FastifyInstance;
  let alice: TestUser;
  let bob: TestUser;
  const call = async (method: InjectOptions['method'], url: string, who: TestUser, payload?: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers: { authorization: who.authorization },
      payload: payload as never,
    });
    return { status: res.statusCode, body: res.body ? res.json() : null, raw: res.body };
  };
  /** An organisation of `who` with a draft event and one context, all through the console API. */
  async function organisation(who: TestUser, slug: string) {
    const org = await call('POST', '/api/console/organisations', who, {
      name: `Club ${slug}`,
      country: 'BE',
      contactEmail: `${slug}@example.test`,
    });
    expect(org.status).toBe(201);
    const event = await call('POST', `/api/console/organisations/${org.body.id}/events`, who, {
      id: `${slug}-run`,
      name: `${slug} run`,
      startDate: '2026-10-04',
      endDate: '2026-10-04',
      place: 'Brussels',
      placeLat: 50.85,
      placeLon: 4.35,
      timeZone: 'Europe/Brussels',
    });
    expect(event.status).toBe(201);
    const ctx = await call('POST', `/api/console/events/${slug}-run/contexts`, who, {
      db: `${slug}-ctx`,
      name: 'Main',
    });
    expect(ctx.status).toBe(201);
    return `${slug}-ctx`;
  }
  const race = { id: 'r10k-a', name: '10 km', date: '2026-10-04', distanceM: 10000, startType: 'mass' };

  beforeAll(async () => {
    app = await buildTestApp({ SEED_DEMO: 'false' });
    alice = await createTestUser(app);
    bob = await createTestUser(app);
  });
  afterAll(() => app.close());

  it('another organisation’s race id is neither named nor blocking (console route)', async () => {
    const a = await organisation(alice, 'alpha');
    const b = await organisation(bob, 'bravo');
    const first = await call('POST', `/api/console/contexts/${a}/races`, alice, race);
    expect(first.status).toBe(201);
    expect(first.body.id).toBe('r10k-a');

    const second = await call('POST', `/api/console/contexts/${b}/races`, bob, race);
    expect(second.status).toBe(201);
    expect(second.body.id).toMatch(/^r10k-a-[a-z0-9]{5}$/);
    expect(second.raw).not.toContain(a);
    // Bob's race is his: readable and editable by its id, and Alice's is untouched.
    expect((await call('GET', `/api/console/races/${second.body.id}`, bob)).status).toBe(200);
    expect((await call('GET', '/api/console/races/r10k-a', bob)).status).toBe(404);
    expect((await call('GET', '/api/console/races/r10k-a', alice)).body.name).toBe('10 km');

    // The same id twice in one's own context is a conflict, naming only one's own race.
    const again = await call('POST', `/api/console/contexts/${a}/races`, alice, race);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('RACE_EXISTS');
  });

  it('the results API follows the same rule', async () => {
    const b = 'bravo-ctx';
    const body = {
      id: 'r10k-a',
      name: '10 km',
      date: '2026-10-04',
      distanceM: 10000,
      startType: 'mass',
      points: [{ key: 'finish', name: 'Finish', distanceM: 10000 }],
    };
    const created = await call('POST', `/api/results/contexts/${b}/races`, bob, { ...body, id: 'r5k' });
    expect(created.status).toBe(201);
    const again = await call('POST', `/api/results/contexts/${b}/races`, bob, { ...body, id: 'r5k' });
    expect(again.status).toBe(409);
    // 'r10k-a' is Alice's: Bob gets a race of his own, not a 409 naming hers.
    const foreign = await call('POST', `/api/results/contexts/${b}/races`, bob, body);
    expect(foreign.status).toBe(201);
    expect(foreign.body.id).toMatch(/^r10k-a-[a-z0-9]{5}$/);
  });
});
