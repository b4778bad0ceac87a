import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers.ts';
import { createTestUser, type TestUser } from '../../test/identity-helpers.ts';

/**
 * Issue 41, one namespace per organisation: another club's "chronometrage-principal" (a context
 * key) or event id was refused ("A context with this key exists already"), which told the caller
 * that someone else uses it. Now a key held by another organisation is made the caller's with a
 * suffix (db/organisation-keys.ts), on every route that creates one; the answer names the key
 * kept and never the other organisation's; one's own key is still refused; the other
 * organisation's links keep working.
 */
describe('context keys and event ids per organisation', () => {
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
  const event = (id: string) => ({
    id,
    name: `${id} run`,
    startDate: '2026-10-04',
    endDate: '2026-10-04',
    place: 'Brussels',
    placeLat: 50.85,
    placeLon: 4.35,
    timeZone: 'Europe/Brussels',
  });
  async function organisation(who: TestUser, slug: string): Promise<string> {
    const org = await call('POST', '/api/console/organisations', who, {
      name: `Club ${slug}`,
      country: 'BE',
      contactEmail: `${slug}@example.test`,
    });
    expect(org.status).toBe(201);
    return org.body.id;
  }

  beforeAll(async () => {
    app = await buildTestApp({ SEED_DEMO: 'false' });
    alice = await createTestUser(app);
    bob = await createTestUser(app);
  });
  afterAll(() => app.close());

  it('an event id and a context key another organisation holds are given a suffix, never refused', async () => {
    const a = await organisation(alice, 'alpha');
    const b = await organisation(bob, 'bravo');
    const first = await call('POST', `/api/console/organisations/${a}/events`, alice, event('city-run-2026'));
    expect(first.status).toBe(201);
    expect(first.body.id).toBe('city-run-2026');
    const ctx = await call('POST', '/api/console/events/city-run-2026/contexts', alice, {
      db: 'chronometrage-principal',
      name: 'Chronométrage principal',
    });
    expect(ctx.status).toBe(201);
    expect(ctx.body.db).toBe('chronometrage-principal');

    // Bob asks for the same event id and the same context key: his own, with a suffix.
    const second = await call('POST', `/api/console/organisations/${b}/events`, bob, event('city-run-2026'));
    expect(second.status).toBe(201);
    expect(second.body.id).toMatch(/^city-run-2026-[a-z0-9]{5}$/);
    const bobCtx = await call('POST', `/api/console/events/${second.body.id}/contexts`, bob, {
      db: 'chronometrage-principal',
      name: 'Chronométrage principal',
    });
    expect(bobCtx.status).toBe(201);
    expect(bobCtx.body.db).toMatch(/^chronometrage-principal-[a-z0-9]{5}$/);
    // The results API's route too.
    const viaResults = await call('POST', `/api/results/events/${second.body.id}/contexts`, bob, {
      db: 'chronometrage-principal',
      name: 'Second',
    });
    expect(viaResults.status).toBe(201);
    expect(viaResults.body.db).toMatch(/^chronometrage-principal-[a-z0-9]{5}$/);
    expect(viaResults.body.db).not.toBe(bobCtx.body.db);
    for (const raw of [second.raw, bobCtx.raw, viaResults.raw]) expect(raw).not.toContain(a);

    // Each sees its own under the key it was given; Alice's links are untouched.
    expect((await call('GET', `/api/console/events/${second.body.id}`, bob)).status).toBe(200);
    expect((await call('GET', '/api/console/events/city-run-2026', bob)).status).toBe(404);
    expect((await call('GET', '/api/console/events/city-run-2026', alice)).body.name).toBe(
      'city-run-2026 run',
    );
    const aliceCtx = await app.database.query<{ event_id: string }>(
      'SELECT event_id FROM contexts WHERE db = $1',
      ['chronometrage-principal'],
    );
    expect(aliceCtx).toEqual([{ event_id: 'city-run-2026' }]);
  });

  it('one’s own key is still refused, naming only one’s own (and nothing is stored)', async () => {
    const a = await organisation(alice, 'alpha2');
    const made = await call('POST', `/api/console/organisations/${a}/events`, alice, event('own-run'));
    expect(made.status).toBe(201);
    const again = await call('POST', `/api/console/organisations/${a}/events`, alice, event('own-run'));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('EVENT_EXISTS');
    expect(again.body.detail).toMatch(/Your organisation/);
    await call('POST', '/api/console/events/own-run/contexts', alice, { db: 'own-ctx', name: 'Main' });
    const count = async () =>
      (await app.database.query<{ n: number }>('SELECT count(*)::int AS n FROM contexts')).at(0)?.n;
    const before = await count();
    for (const url of ['/api/console/events/own-run/contexts', '/api/results/events/own-run/contexts']) {
      const twice = await call('POST', url, alice, { db: 'own-ctx', name: 'Again' });
      expect(twice.status).toBe(409);
      expect(twice.body.code).toBe('CONTEXT_EXISTS');
    }
    expect(await count()).toBe(before);
  });
});
