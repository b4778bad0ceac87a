import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser, type TestUser } from '../../../test/identity-helpers.ts';
import { startMollieStub } from '../../../test/mollie-stub.ts';
import { ORG_A, organisers } from '../content/test-helpers.ts';
import { caller, deferralSettings, EVENT, payWithMollie, runner } from './test-helpers.ts';
import { createNextEdition } from './test-next-edition.ts';

const NEXT = 'demo-city-run-2028';
const NEXT_10K = 'city-10k-2028';
const NEXT_5K = 'city-5k-2028';

/**
 * Issue 38, what a deferral still lacked: a deferred runner's place is kept in the next edition
 * (RunSignup-style: reserved in the matching race until the credit is used there or registration
 * closes; the places left, the rush's holds and the waitlist count it), and a credit larger than
 * the new entry pays the rest back through the refund flow.
 */
describe('a deferral keeps its place in the next edition; a larger credit refunds the rest', () => {
  const mollie = startMollieStub();
  let app: FastifyInstance;
  let staff: { authorization: string };
  const runners: TestUser[] = [];
  const tlsBefore = process.env.NODE_TLS_REJECT_UNAUTHORIZED;

  /** The demo event: the 10 km at 25 €, deferral allowed for a fee of 5 € (a credit of 20 €). */
  const settings = deferralSettings;
  /** The next edition: a 10 km of 3 places at 20 €, a 5 km at 12 €. */
  const nextSettings = (opensAt: string, closesAt = '2099-12-31T00:00:00.000Z') => ({
    holdMinutes: 15,
    waitlistMinutes: 60,
    currency: 'EUR',
    races: [
      {
        raceId: NEXT_10K,
        opensAt,
        closesAt,
        capacity: 3,
        prices: { tiers: [{ from: '2020-01-01T00:00:00.000Z', cents: 2000 }] },
        required: [],
      },
      {
        raceId: NEXT_5K,
        opensAt,
        closesAt: '2099-12-31T00:00:00.000Z',
        capacity: 100,
        prices: { tiers: [{ from: '2020-01-01T00:00:00.000Z', cents: 1200 }] },
        required: [],
      },
    ],
  });
  const call = caller(() => app);
  const mine = async (who: TestUser) => JSON.parse((await call('GET', '/api/entries/mine', who)).body);
  const counts = async () =>
    (
      await app.database.query<{ taken: number; held: number; capacity: number }>(
        'SELECT taken, held, capacity FROM registration_races WHERE race_id = $1',
        [NEXT_10K],
      )
    )[0]!;
  const placesLeft = async () => {
    const page = JSON.parse((await app.inject({ method: 'GET', url: `/api/entries/events/${NEXT}` })).body);
    return page.races.find((r: { raceId: string }) => r.raceId === NEXT_10K) as {
      placesLeft: number;
      waitlist: boolean;
    };
  };
  const enterNext = (who: TestUser, k: number, extra: Record<string, unknown> = {}) =>
    call('POST', `/api/entries/events/${NEXT}/orders`, who, {
      runners: [{ ...runner(k), raceId: NEXT_10K, answers: {}, waiverVersion: null, ...extra }],
    });
  const credits: string[] = [];
  const paidOrders: string[] = [];

  beforeAll(async () => {
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    const url = await mollie.listen();
    app = await buildTestApp({ MOLLIE_API_KEY: 'test_abcdefghijklmnopqrstuvwxyz', MOLLIE_API_URL: url });
    staff = (await organisers(app)).a;
    for (let k = 0; k < 5; k++)
      runners.push(await createTestUser(app, { email: `runner${k}@example.test`, profileComplete: true }));
    await createNextEdition(app.database, {
      id: NEXT,
      organisationId: ORG_A,
      name: 'City Run 2028',
      date: '2028-05-07',
      races: [
        [NEXT_10K, '10 km', 10_000],
        [NEXT_5K, '5 km', 5_000],
      ],
    });
    expect(
      (await call('PUT', `/api/entries/staff/events/${EVENT}/settings`, staff, settings())).statusCode,
    ).toBe(200);
    // Runners 0, 3 and 4 enter this year's 10 km, pay, and defer: credits of 20 €.
    for (const k of [0, 3, 4]) {
      const res = await call('POST', `/api/entries/events/${EVENT}/orders`, runners[k]!, {
        runners: [runner(k)],
      });
      expect(res.statusCode, res.body).toBe(201);
      const { orderId } = JSON.parse(res.body);
      await (await payWithMollie(app, mollie, runners[k]!.authorization, orderId)).deliver();
      paidOrders[k] = orderId;
      const code = (await mine(runners[k]!))[0].code as string;
      const done = await call('POST', `/api/entries/entry/${code}/action`, runners[k]!, { action: 'defer' });
      expect(done.statusCode, done.body).toBe(200);
    }
  });
  afterAll(async () => {
    await app.close();
    await mollie.close();
    if (tlsBefore === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = tlsBefore;
  });

  it('once the next edition is named and its 10 km set up, each credit keeps a place there', async () => {
    const named = await call(
      'PUT',
      `/api/entries/staff/events/${EVENT}/settings`,
      staff,
      settings({ nextEventId: NEXT }),
    );
    expect(named.statusCode, named.body).toBe(200);
    // The next edition takes no entries yet: no race to keep a place in.
    expect((await mine(runners[0]!))[0].credit.place).toBeNull();
    const saved = await call(
      'PUT',
      `/api/entries/staff/events/${NEXT}/settings`,
      staff,
      nextSettings('2099-01-01T00:00:00.000Z'),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    // The same race by name (the 10 km, not the 5 km); three places kept of three.
    expect(JSON.parse(saved.body).credits).toMatchObject({ kept: 3 });
    expect(await counts()).toEqual({ taken: 0, held: 3, capacity: 3 });
    const credit = (await mine(runners[0]!))[0].credit;
    expect(credit.place).toEqual({
      raceId: NEXT_10K,
      raceName: '10 km',
      state: 'reserved',
      until: '2099-12-31T00:00:00.000Z',
      timeZone: expect.any(String),
    });
    for (const k of [0, 3, 4]) credits[k] = (await mine(runners[k]!))[0].credit.code;
    // Saving again keeps the same three, no more.
    await call(
      'PUT',
      `/api/entries/staff/events/${NEXT}/settings`,
      staff,
      nextSettings('2099-01-01T00:00:00.000Z'),
    );
    await call('PUT', `/api/entries/staff/events/${EVENT}/settings`, staff, settings({ nextEventId: NEXT }));
    expect(await counts()).toEqual({ taken: 0, held: 3, capacity: 3 });
    // The organiser may not cut the race below the places kept.
    const cut = nextSettings('2099-01-01T00:00:00.000Z');
    cut.races[0]!.capacity = 2;
    expect((await call('PUT', `/api/entries/staff/events/${NEXT}/settings`, staff, cut)).statusCode).toBe(
      400,
    );
  });

  it('the race shows no place left to others, who go on the waitlist; the credit’s runner still enters', async () => {
    await call(
      'PUT',
      `/api/entries/staff/events/${NEXT}/settings`,
      staff,
      nextSettings('2020-01-01T00:00:00.000Z'),
    );
    await new Promise((r) => setTimeout(r, 1100));
    expect(await placesLeft()).toMatchObject({ placesLeft: 0, waitlist: true });
    const other = await enterNext(runners[1]!, 1);
    expect(other.statusCode, other.body).toBe(409);
    expect(JSON.parse(other.body).errors).toContainEqual({ field: 'runners.0.raceId', message: 'RACE_FULL' });
    const joined = await call('POST', `/api/entries/races/${NEXT_10K}/waitlist`, runners[1]!, { lang: 'en' });
    expect(joined.statusCode, joined.body).toBe(200);
    // Runner 0: 20 € of credit on the 10 km at 20 €: nothing to pay, the kept place is theirs.
    const res = await enterNext(runners[0]!, 0, { discountCode: credits[0] });
    expect(res.statusCode, res.body).toBe(201);
    expect(JSON.parse(res.body)).toMatchObject({
      amountCents: 0,
      state: 'paid',
      entries: [{ state: 'confirmed' }],
    });
    expect(await counts()).toEqual({ taken: 1, held: 2, capacity: 3 });
    expect(
      (await mine(runners[0]!)).find((e: { eventId: string }) => e.eventId === EVENT).credit.place.state,
    ).toBe('used');
  });

  it('an entry with the credit that lapses unpaid gives the place back to the credit, not to the waitlist', async () => {
    // Runner 3 enters the 10 km with the credit and a friend in the 5 km (12 € to pay), then leaves it unpaid.
    const res = await call('POST', `/api/entries/events/${NEXT}/orders`, runners[3]!, {
      runners: [
        { ...runner(3), raceId: NEXT_10K, answers: {}, waiverVersion: null, discountCode: credits[3] },
        { ...runner(2), raceId: NEXT_5K, answers: {}, waiverVersion: null },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await counts()).toEqual({ taken: 1, held: 2, capacity: 3 });
    await app.database.query(
      `UPDATE registration_entries SET hold_expires_at = now() - interval '1 minute' WHERE order_id = $1::bigint`,
      [JSON.parse(res.body).orderId],
    );
    await app.database.query(
      `UPDATE orders SET expires_at = now() - interval '1 minute' WHERE id = $1::bigint`,
      [JSON.parse(res.body).orderId],
    );
    const swept = await call('POST', `/api/entries/staff/events/${NEXT}/expire`, staff);
    expect(JSON.parse(swept.body)).toMatchObject({ invited: 0 });
    expect(await counts()).toEqual({ taken: 1, held: 2, capacity: 3 });
    expect(
      (await mine(runners[3]!)).find((e: { eventId: string }) => e.eventId === EVENT).credit.place.state,
    ).toBe('reserved');
  });

  it('a credit used on a cheaper race gives its place to the waitlist and refunds the rest', async () => {
    // Runner 3: 20 € of credit on the 5 km at 12 €: nothing to pay, 8 € back on this year's order.
    const res = await call('POST', `/api/entries/events/${NEXT}/orders`, runners[3]!, {
      runners: [
        { ...runner(3), raceId: NEXT_5K, answers: {}, waiverVersion: null, discountCode: credits[3] },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const order = JSON.parse(res.body);
    expect(order).toMatchObject({ amountCents: 0, state: 'paid' });
    expect(order.entries[0]).toMatchObject({ discountCents: 1200, totalCents: 0, creditRefundCents: 800 });
    const [refund] = await app.database.query<{ amount: number; reason: string; method: string }>(
      `SELECT amount_cents AS amount, reason, method FROM refunds WHERE order_id = $1::bigint`,
      [paidOrders[3]],
    );
    expect(refund).toEqual({ amount: 800, reason: 'CREDIT_REMAINDER', method: 'provider' });
    expect(mollie.refunds.at(-1)).toMatchObject({ amount: '8.00' });
    const credit = (await mine(runners[3]!)).find((e: { eventId: string }) => e.eventId === EVENT).credit;
    expect(credit).toMatchObject({ used: true, remainderCents: 800, place: { state: 'released' } });
    expect(await counts()).toEqual({ taken: 1, held: 1, capacity: 3 });
    // Its place in the 10 km goes to the first on the waitlist (runner 1, invited) at the timer's pass.
    expect(await placesLeft()).toMatchObject({ placesLeft: 1 });
    await call('POST', `/api/entries/staff/events/${NEXT}/expire`, staff);
    expect(await counts()).toEqual({ taken: 1, held: 2, capacity: 3 });
    const [invited] = await app.database.query<{ state: string }>(
      `SELECT state FROM registration_waitlist WHERE race_id = $1 AND email = 'runner1@example.test'`,
      [NEXT_10K],
    );
    expect(invited?.state).toBe('invited');
    // Asked again (the timer's pass): no second refund.
    await app.inject({ method: 'POST', url: `/api/entries/staff/events/${NEXT}/expire`, headers: staff });
    expect(
      (await app.database.query('SELECT 1 FROM refunds WHERE order_id = $1::bigint', [paidOrders[3]])).length,
    ).toBe(1);
  });

  it('when the race closes for entries, a place still kept goes back and nobody is invited into it', async () => {
    // Runner 2 waits for the full 10 km.
    const joined = await call('POST', `/api/entries/races/${NEXT_10K}/waitlist`, runners[2]!, { lang: 'fr' });
    expect(joined.statusCode, joined.body).toBe(200);
    await call(
      'PUT',
      `/api/entries/staff/events/${NEXT}/settings`,
      staff,
      nextSettings('2020-01-01T00:00:00.000Z', new Date(Date.now() + 1000).toISOString()),
    );
    await new Promise((r) => setTimeout(r, 1100));
    // Runner 4's place kept, runner 1's invitation: both held.
    expect(await counts()).toEqual({ taken: 1, held: 2, capacity: 3 });
    const swept = await call('POST', `/api/entries/staff/events/${NEXT}/expire`, staff);
    // The place freed after closing is not offered: an invitation could not be used.
    expect(JSON.parse(swept.body)).toMatchObject({ invited: 0 });
    expect(await counts()).toEqual({ taken: 1, held: 1, capacity: 3 });
    const credit = (await mine(runners[4]!))[0].credit;
    expect(credit.place.state).toBe('released');
    const waiting = async () =>
      (
        await app.database.query<{ state: string }>(
          `SELECT state FROM registration_waitlist WHERE race_id = $1 AND email = 'runner2@example.test'`,
          [NEXT_10K],
        )
      )[0]?.state;
    // Runner 2, still waiting, is told the race closed (waitlist-closed.test.ts): no longer waiting.
    expect(JSON.parse(swept.body)).toMatchObject({ closed: 1 });
    expect(await waiting()).toBe('closed');
    // Runner 1's invitation lapses after closing: it passes on to nobody.
    await app.database.query(
      `UPDATE registration_waitlist SET invited_until = now() - interval '1 minute' WHERE race_id = $1 AND state = 'invited'`,
      [NEXT_10K],
    );
    const again = await call('POST', `/api/entries/staff/events/${NEXT}/expire`, staff);
    expect(JSON.parse(again.body)).toMatchObject({ invited: 0, closed: 0 });
    expect(await counts()).toEqual({ taken: 1, held: 0, capacity: 3 });
    expect(await waiting()).toBe('closed');
  });
});
