import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { depositCast, EVENT, TEN_K } from './test-helpers.ts';

/**
 * Every deposits and payments route, for each caller that must be refused: anonymous (401), a
 * signed-in stranger and another organisation's owner (404 on a deposit or order: not theirs to
 * know; 403 on an event's staff pages), a member where only the captain or staff act (403). Bad input is a 4xx,
 * never a 5xx, and nothing changes.
 */
describe('deposits and payments: who may call what', () => {
  let app: FastifyInstance;
  let cast: Awaited<ReturnType<typeof depositCast>>;
  let depositId: string;
  let entryId: string;
  let orderId: string;

  beforeAll(async () => {
    app = await buildTestApp();
    cast = await depositCast(app);
    const h = { authorization: cast.captain.authorization };
    const d = JSON.parse(
      (
        await app.inject({
          method: 'POST',
          url: '/api/deposits',
          headers: h,
          payload: { eventId: EVENT, organisationName: 'Acme', type: 'company' },
        })
      ).body,
    );
    depositId = d.id;
    await app.inject({
      method: 'POST',
      url: '/api/deposits/join',
      headers: { authorization: cast.ann.authorization },
      payload: { code: d.joinCode },
    });
    const withEntry = JSON.parse(
      (
        await app.inject({
          method: 'POST',
          url: `/api/deposits/${depositId}/entries`,
          headers: h,
          payload: { raceId: TEN_K, placeholder: true },
        })
      ).body,
    );
    entryId = withEntry.entries[0].id;
    // A second deposit, submitted, for the order routes.
    const other = JSON.parse(
      (
        await app.inject({
          method: 'POST',
          url: '/api/deposits',
          headers: h,
          payload: { eventId: EVENT, organisationName: 'Acme 2', type: 'club' },
        })
      ).body,
    );
    await app.inject({
      method: 'POST',
      url: `/api/deposits/${other.id}/entries`,
      headers: h,
      payload: { raceId: TEN_K, placeholder: true },
    });
    orderId = JSON.parse(
      (await app.inject({ method: 'POST', url: `/api/deposits/${other.id}/submit`, headers: h })).body,
    ).orders[0].id;
  });
  afterAll(() => app.close());

  type Route = [method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, body?: unknown];
  const captainOnly = (): Route[] => [
    ['PATCH', `/api/deposits/${depositId}`, { organisationName: 'X' }],
    ['POST', `/api/deposits/${depositId}/submit`],
    ['POST', `/api/deposits/${depositId}/reopen`],
    ['POST', `/api/deposits/${depositId}/messages`, { audience: 'all', subject: 's', body: 'b' }],
  ];
  const leaders = (): Route[] => [
    ['GET', `/api/deposits/${depositId}/share`],
    ['POST', `/api/deposits/${depositId}/entries/import`, { csv: 'firstName,race\nA,city-10k\n' }],
    ['POST', `/api/deposits/${depositId}/cancel`],
  ];
  const staffOnly = (): Route[] => [
    ['POST', `/api/deposits/${depositId}/close`],
    ['POST', `/api/deposits/${depositId}/entries/${entryId}/substitution`, { approve: true }],
    ['GET', `/api/deposits/events/${EVENT}/all`],
    ['GET', `/api/payments/staff/events/${EVENT}/settings`],
    ['PUT', `/api/payments/staff/events/${EVENT}/settings`, {}],
    ['GET', `/api/payments/staff/events/${EVENT}/orders`],
    ['POST', `/api/payments/staff/events/${EVENT}/statements`, 'x'],
    ['GET', `/api/payments/staff/events/${EVENT}/queue`],
    [
      'POST',
      `/api/payments/staff/events/${EVENT}/queue/1/match`,
      { allocations: [{ orderId, amountCents: 1 }] },
    ],
    ['POST', `/api/payments/staff/events/${EVENT}/queue/1/ignore`, { note: 'x' }],
    ['GET', `/api/payments/staff/events/${EVENT}/audit`],
    ['POST', `/api/payments/staff/events/${EVENT}/refunds`, { orderIds: [orderId], kind: 'full' }],
    ['GET', `/api/payments/staff/events/${EVENT}/refunds.csv`],
    ['GET', `/api/payments/staff/events/${EVENT}/export.csv`],
    ['GET', `/api/payments/staff/events/${EVENT}/export.xlsx`],
    ['POST', `/api/payments/staff/events/${EVENT}/expire`],
  ];
  const members = (): Route[] => [
    ['GET', `/api/deposits/${depositId}`],
    ['GET', `/api/deposits/${depositId}/messages`],
    ['GET', `/api/deposits/${depositId}/ranking`],
    ['POST', `/api/deposits/${depositId}/entries`, { raceId: TEN_K, placeholder: true }],
    ['PATCH', `/api/deposits/${depositId}/entries/${entryId}`, { firstName: 'X' }],
    ['DELETE', `/api/deposits/${depositId}/entries/${entryId}`],
  ];
  const orders = (): Route[] => [
    ['GET', `/api/payments/orders/${orderId}`],
    ['POST', `/api/payments/orders/${orderId}/pay`, { provider: 'bank' }],
    ['GET', `/api/payments/orders/${orderId}/receipt.pdf`],
  ];
  const signedIn = (): Route[] => [
    ['POST', '/api/deposits', { eventId: EVENT, organisationName: 'A', type: 'club' }],
    ['GET', '/api/deposits/mine'],
    ['POST', '/api/deposits/join', { code: 'ABCDEFGH' }],
    ['GET', '/api/payments/mine'],
    ['GET', '/api/payments/staff/events'],
  ];

  const call = async ([method, url, body]: Route, who?: { authorization: string }) => {
    const res = await app.inject({
      method,
      url,
      headers: { ...(who ?? {}), ...(typeof body === 'string' ? { 'content-type': 'text/plain' } : {}) },
      ...(body !== undefined ? { payload: body as string } : {}),
    });
    return res.statusCode;
  };
  const snapshot = () =>
    app.database.query(
      `SELECT (SELECT count(*) FROM deposit_entries)::int AS e, (SELECT string_agg(state, ',' ORDER BY id) FROM deposits) AS d,
              (SELECT count(*) FROM orders)::int AS o, (SELECT count(*) FROM refunds)::int AS r, (SELECT count(*) FROM deposit_messages)::int AS m`,
    );

  it('anonymous callers get 401 on every private route, and nothing changes', async () => {
    const before = await snapshot();
    for (const route of [
      ...captainOnly(),
      ...leaders(),
      ...staffOnly(),
      ...members(),
      ...orders(),
      ...signedIn(),
    ]) {
      expect(await call(route), `${route[0]} ${route[1]}`).toBe(401);
    }
    expect(await snapshot()).toEqual(before);
  });

  // Issue 25's 404-vs-403 rule: a deposit or order the caller has no part in answers as a missing
  // one (404), so ids cannot be probed; the event's staff pages (the event is public) say 403.
  const eventStaff = () => staffOnly().filter(([, url]) => url.includes('/events/'));
  const depositScoped = () => [
    ...captainOnly(),
    ...leaders(),
    ...staffOnly().filter(([, url]) => !url.includes('/events/')),
    ...members(),
  ];

  it('a stranger and another organisation get 404 on deposits and orders, 403 on event pages', async () => {
    const before = await snapshot();
    for (const who of [cast.stranger, cast.otherOrg]) {
      for (const route of [...depositScoped(), ...orders()]) {
        expect(await call(route, who), `${route[0]} ${route[1]}`).toBe(404);
      }
      for (const route of eventStaff()) expect(await call(route, who), `${route[0]} ${route[1]}`).toBe(403);
    }
    // The same answer as for an id that does not exist.
    const missing = await app.inject({
      method: 'GET',
      url: '/api/deposits/4503599627370497',
      headers: { authorization: cast.stranger.authorization },
    });
    const existing = await app.inject({
      method: 'GET',
      url: `/api/deposits/${depositId}`,
      headers: { authorization: cast.stranger.authorization },
    });
    expect(existing.statusCode).toBe(missing.statusCode);
    expect(JSON.parse(existing.body).code).toBe(JSON.parse(missing.body).code);
    expect(await snapshot()).toEqual(before);
  });

  it('a member is refused what only the captain or staff do, and knows nothing of others’ orders', async () => {
    const before = await snapshot();
    for (const route of [...captainOnly(), ...leaders(), ...staffOnly()]) {
      expect(await call(route, cast.ann), `${route[0]} ${route[1]}`).toBe(403);
    }
    for (const route of orders()) expect(await call(route, cast.ann), `${route[0]} ${route[1]}`).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('deposit ids are random 16-digit numbers, not a sequence', () => {
    expect(depositId).toMatch(/^\d{16}$/);
    expect(Number(depositId)).toBeGreaterThanOrEqual(2 ** 52);
    expect(Number.isSafeInteger(Number(depositId))).toBe(true);
  });

  it('answers malformed input with a 4xx problem, never a 5xx', async () => {
    const junk: unknown[] = [
      null,
      42,
      'text',
      [],
      { a: { b: [1] } },
      { eventId: 1 },
      { code: '' },
      { allocations: 'x' },
    ];
    const routes = [...captainOnly(), ...leaders(), ...staffOnly(), ...members(), ...orders(), ...signedIn()];
    for (const who of [{ authorization: cast.captain.authorization }, cast.staff]) {
      for (const [method, url] of routes) {
        for (const body of method === 'GET' ? [undefined] : junk) {
          const res = await app.inject({
            method,
            url,
            headers: who,
            ...(body !== undefined
              ? { payload: JSON.stringify(body), headers: { ...who, 'content-type': 'application/json' } }
              : {}),
          });
          expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBeLessThan(500);
        }
      }
    }
    for (const url of [
      '/api/deposits/1x',
      '/api/deposits/99999999999999999999',
      '/api/payments/orders/-1',
      '/api/deposits/join/%00',
      '/api/deposits/events/%20/offer',
    ]) {
      const res = await app.inject({
        method: 'GET',
        url,
        headers: { authorization: cast.captain.authorization },
      });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
    const webhook = await app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/stripe',
      payload: { any: 1 },
    });
    expect(webhook.statusCode).toBeLessThan(500);
  });
});
