import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/helpers.ts';
import { organisers } from '../test-helpers.ts';

describe('series API', () => {
  let app: FastifyInstance;
  let who: Awaited<ReturnType<typeof organisers>>;
  beforeAll(async () => {
    app = await buildTestApp();
    who = await organisers(app);
  });
  afterAll(() => app.close());

  it('computes the seeded standings per category, live', async () => {
    const series = (await app.inject('/api/series/demo-challenge')).json();
    expect(series).toMatchObject({ name: 'Demo Running Challenge', live: true });
    expect(series.races).toHaveLength(3);
    const women = series.categories.find((c: { category: string }) => c.category === 'F');
    expect(women.standings[0]).toMatchObject({ rank: 1, name: 'Emma Janssens', total: 295 });
    expect((await app.inject('/api/series/nope')).statusCode).toBe(404);
  });

  it('lets the organiser replace a race, not another organisation', async () => {
    const put = (headers: Record<string, string>, payload: object) =>
      app.inject({
        method: 'PUT',
        url: '/api/series/demo-challenge/races/spring-5k/results',
        headers,
        payload,
      });
    const results = [{ athleteKey: 'a3', name: 'Julie Martin', category: 'F', position: 1 }];
    expect((await put(who.b, { results })).statusCode).toBe(403);
    expect((await put(who.a, { results: [{ ...results[0], position: 0 }] })).statusCode).toBe(400);
    const res = await put(who.a, { results, live: false });
    expect(res.statusCode).toBe(200);
    const women = res.json().categories.find((c: { category: string }) => c.category === 'F');
    expect(women.standings[0]).toMatchObject({ name: 'Julie Martin', total: 100 + 90 + 95 });
  });
});
