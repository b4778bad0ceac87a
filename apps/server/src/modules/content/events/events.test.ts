import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/helpers.ts';
import { organisers } from '../test-helpers.ts';

describe('events API', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  it('lists and searches events, live first', async () => {
    const all = (await app.inject('/api/events')).json();
    expect(all[0]).toMatchObject({ id: 'demo-city-run', status: 'live', place: 'Bruxelles / Brussels' });
    expect((await app.inject('/api/events?q=brussels')).json()).toHaveLength(1);
    // Issue 27: by place in either language, by race, accent-blind, every word.
    expect((await app.inject('/api/events?q=bruxelles')).json()).toHaveLength(1);
    expect((await app.inject('/api/events?q=MARATHON')).json()).toHaveLength(1);
    expect((await app.inject('/api/events?q=demo%20marathon')).json()).toHaveLength(1);
    expect((await app.inject('/api/events?q=d%C3%A9mo')).json()).toHaveLength(1);
    expect((await app.inject('/api/events?q=marathon%20nowhere')).json()).toHaveLength(0);
    expect((await app.inject('/api/events?q=nowhere')).json()).toHaveLength(0);
    expect((await app.inject('/api/events?when=live')).json()).toHaveLength(1);
    expect((await app.inject('/api/events?when=yesterday')).statusCode).toBe(400);
  });

  it('gives an event with its contexts and races, 404 for an unknown one', async () => {
    const event = (await app.inject('/api/events/demo-city-run')).json();
    // Issue 27: pages show the event's times of day in its zone.
    expect(event.timeZone).toBe('Europe/Brussels');
    expect(event.contexts[0].db).toBe('demo-city-run-10k');
    expect(event.races[0]).toMatchObject({ id: 'city-10k', distanceM: 10_000 });
    // Issue 31: a road race names no format; results are provisional until published.
    expect(event.races[0].format).toBeUndefined();
    expect(event.races[0].publication).toEqual({ state: 'provisional' });
    // Issue 27: the tiles know what is behind them.
    const before = event.available;
    expect(Object.values(before).every((v) => typeof v === 'boolean')).toBe(true);
    await app.database.query('DELETE FROM streams WHERE event_id = $1', ['demo-city-run']);
    expect((await app.inject('/api/events/demo-city-run')).json().available.stream).toBe(false);
    await app.database.query(
      `INSERT INTO streams (event_id, title, kind, url, starts_at, ends_at)
       VALUES ('demo-city-run', 'Finish line', 'hls', 'https://example.org/x.m3u8', now(), now() + interval '1 hour')`,
    );
    expect((await app.inject('/api/events/demo-city-run')).json().available.stream).toBe(true);
    await app.database.query("UPDATE cms_pages SET published = false WHERE event_id = 'demo-city-run'");
    expect((await app.inject('/api/events/demo-city-run')).json().available.info).toBe(false);
    const missing = await app.inject('/api/events/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toContain('problem+json');
  });
});

describe('organiser event edits', () => {
  let app: FastifyInstance;
  let who: Awaited<ReturnType<typeof organisers>>;
  beforeAll(async () => {
    app = await buildTestApp();
    who = await organisers(app);
  });
  afterAll(() => app.close());

  it('lets the owner patch name, place and branding', async () => {
    const res = await app.inject({
      method: 'PATCH',
      url: '/api/events/demo-city-run',
      headers: who.a,
      payload: { place: 'Bruxelles', branding: { color: '#ff6600', tagline: 'Run the city' } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ place: 'Bruxelles', branding: { color: '#ff6600' } });
  });

  it('refuses another organisation, anonymous callers and bad input, changing nothing', async () => {
    const before = (await app.inject('/api/events/demo-city-run')).json();
    const patch = (headers: Record<string, string>, payload: unknown) =>
      app.inject({ method: 'PATCH', url: '/api/events/demo-city-run', headers, payload: payload as object });
    expect((await patch(who.b, { name: 'Hijacked' })).statusCode).toBe(403);
    expect((await patch({}, { name: 'Hijacked' })).statusCode).toBe(401);
    expect((await patch(who.a, { status: 'cancelled' })).statusCode).toBe(400);
    expect((await patch(who.a, { branding: { logoUrl: 'javascript:alert(1)' } })).statusCode).toBe(400);
    expect((await patch(who.a, { startDate: '2030-01-02', endDate: '2030-01-01' })).statusCode).toBe(400);
    expect((await app.inject('/api/events/demo-city-run')).json()).toEqual(before);
  });
});
