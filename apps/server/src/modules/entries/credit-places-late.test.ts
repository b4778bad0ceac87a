import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser, type TestUser } from '../../../test/identity-helpers.ts';
import { startMollieStub } from '../../../test/mollie-stub.ts';
import { ORG_A, organisers } from '../content/test-helpers.ts';
import { caller, deferralSettings, EVENT, payWithMollie, runner } from './test-helpers.ts';
import { createNextEdition } from './test-next-edition.ts';

const NEXT = 'demo-city-run-2029';
const NEXT_10K = 'city-10k-2029';
const NEXT_5K = 'city-5k-2029';

/**
 * Issue 38, the kept place of a deferral credit (credits.ts), second pass: a payment arriving
 * after its entry lapsed and the place went back to the credit confirms the entry with that
 * place (it was refunded as "no place left"); a race that keeps places cannot be left out of the
 * settings without saying where they go (409 `KEPT_PLACES`, then moved or released).
 */
describe('a credit’s kept place: a late payment takes it; a race keeping places is removed by choice', () => {
  const mollie = startMollieStub();
  let app: FastifyInstance;
  let staff: { authorization: string };
  const runners: TestUser[] = [];
  const tlsBefore = process.env.NODE_TLS_REJECT_UNAUTHORIZED;

  const settings = deferralSettings;
  const race = (raceId: string, capacity: number, cents: number) => ({
    raceId,
    opensAt: '2020-01-01T00:00:00.000Z',
    closesAt: '2099-12-31T00:00:00.000Z',
    capacity,
    prices: { tiers: [{ from: '2020-01-01T00:00:00.000Z', cents }] },
    required: [],
  });
  /** The next edition: a 10 km of 2 places at 30 €, a 5 km at 12 €. */
  const nextSettings = (races = [race(NEXT_10K, 2, 3000), race(NEXT_5K, 100, 1200)], extra = {}) => ({
    holdMinutes: 15,
    waitlistMinutes: 60,
    currency: 'EUR',
    races,
    ...extra,
  });
  const call = caller(() => app);
  const mine = async (who: TestUser) => JSON.parse((await call('GET', '/api/entries/mine', who)).body);
  const creditOf = async (who: TestUser) =>
    (await mine(who)).find((e: { eventId: string }) => e.eventId === EVENT).credit;
  const counts = async (raceId: string) =>
    (
      await app.database.query<{ taken: number; held: number }>(
        'SELECT taken, held FROM registration_races WHERE race_id = $1',
        [raceId],
      )
    )[0];
  const saveNext = (body: unknown) => call('PUT', `/api/entries/staff/events/${NEXT}/settings`, staff, body);

  beforeAll(async () => {
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    const url = await mollie.listen();
    app = await buildTestApp({ MOLLIE_API_KEY: 'test_abcdefghijklmnopqrstuvwxyz', MOLLIE_API_URL: url });
    staff = (await organisers(app)).a;
    for (let k = 0; k < 2; k++)
      runners.push(await createTestUser(app, { email: `runner${k}@example.test`, profileComplete: true }));
    await createNextEdition(app.database, {
      id: NEXT,
      organisationId: ORG_A,
      name: 'City Run 2029',
      date: '2029-05-06',
      races: [
        [NEXT_10K, '10 km', 10_000],
        [NEXT_5K, '5 km', 5_000],
      ],
    });
    expect(
      (await call('PUT', `/api/entries/staff/events/${EVENT}/settings`, staff, settings())).statusCode,
    ).toBe(200);
    // Both runners enter this year's 10 km (25 €), pay and defer: credits of 20 €.
    for (const [k, who] of runners.entries()) {
      const res = await call('POST', `/api/entries/events/${EVENT}/orders`, who, { runners: [runner(k)] });
      expect(res.statusCode, res.body).toBe(201);
      await (await payWithMollie(app, mollie, who.authorization, JSON.parse(res.body).orderId)).deliver();
      const code = (await mine(who))[0].code as string;
      expect(
        (await call('POST', `/api/entries/entry/${code}/action`, who, { action: 'defer' })).statusCode,
      ).toBe(200);
    }
    expect(
      (
        await call(
          'PUT',
          `/api/entries/staff/events/${EVENT}/settings`,
          staff,
          settings({ nextEventId: NEXT }),
        )
      ).statusCode,
    ).toBe(200);
    const saved = await saveNext(nextSettings());
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await counts(NEXT_10K)).toEqual({ taken: 0, held: 2 });
  });
  afterAll(async () => {
    await app.close();
    await mollie.close();
    if (tlsBefore === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = tlsBefore;
  });

  it('a payment arriving after the entry lapsed and its place went back to the credit confirms it with that place', async () => {
    const credit = (await creditOf(runners[0]!)).code as string;
    // 30 € less the credit's 20 €: 10 € to pay. The runner starts paying, then the hold lapses.
    const res = await call('POST', `/api/entries/events/${NEXT}/orders`, runners[0]!, {
      runners: [{ ...runner(0), raceId: NEXT_10K, answers: {}, waiverVersion: null, discountCode: credit }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const { orderId, amountCents } = JSON.parse(res.body);
    expect(amountCents).toBe(1000);
    const payment = await payWithMollie(app, mollie, runners[0]!.authorization, orderId);
    await app.database.query(
      `UPDATE registration_entries SET hold_expires_at = now() - interval '1 minute' WHERE order_id = $1::bigint`,
      [orderId],
    );
    await app.database.query(
      `UPDATE orders SET expires_at = now() - interval '1 minute' WHERE id = $1::bigint`,
      [orderId],
    );
    await call('POST', `/api/entries/staff/events/${NEXT}/expire`, staff);
    // The place is the credit's again (the race is full: both places kept).
    expect((await creditOf(runners[0]!)).place.state).toBe('reserved');
    expect(await counts(NEXT_10K)).toEqual({ taken: 0, held: 2 });
    // The webhook comes late: the entry is confirmed in the credit's place, nothing refunded.
    await payment.deliver();
    const [entry] = await app.database.query<{ state: string; refundDue: boolean }>(
      `SELECT state, refund_due AS "refundDue" FROM registration_entries WHERE order_id = $1::bigint`,
      [orderId],
    );
    expect(entry).toEqual({ state: 'confirmed', refundDue: false });
    expect(await counts(NEXT_10K)).toEqual({ taken: 1, held: 1 });
    expect((await creditOf(runners[0]!)).place.state).toBe('used');
    expect((await creditOf(runners[0]!)).used).toBe(true);
    await call('POST', `/api/entries/staff/events/${NEXT}/expire`, staff);
    expect(
      await app.database.query('SELECT 1 FROM refunds WHERE order_id = $1::bigint', [orderId]),
    ).toHaveLength(0);
  });

  it('leaving out a race that keeps places answers 409 naming it; the places are then moved or released as chosen', async () => {
    // The 5 km taken out of the choice: a race not in the list.
    const bad = await saveNext(
      nextSettings([race(NEXT_5K, 100, 1200)], { keptPlaces: [{ raceId: NEXT_10K, moveTo: 'nowhere' }] }),
    );
    expect(bad.statusCode, bad.body).toBe(400);
    const refused = await saveNext(nextSettings([race(NEXT_5K, 100, 1200)]));
    expect(refused.statusCode, refused.body).toBe(409);
    const problem = JSON.parse(refused.body);
    expect(problem).toMatchObject({
      code: 'KEPT_PLACES',
      errors: [{ field: `keptPlaces.${NEXT_10K}`, message: 'KEPT_PLACES' }],
    });
    expect(problem.detail).toContain(`${NEXT_10K} keeps 1 place(s)`);
    expect(await counts(NEXT_10K)).toEqual({ taken: 1, held: 1 });
    // The settings say how many each race keeps.
    const view = JSON.parse((await call('GET', `/api/entries/staff/events/${NEXT}/settings`, staff)).body);
    expect(view.races.find((r: { raceId: string }) => r.raceId === NEXT_10K).kept).toBe(1);
    // Moved to a race with no place left: 409 on that choice, nothing changed.
    const full = await saveNext(
      nextSettings([race(NEXT_5K, 0, 1200)], { keptPlaces: [{ raceId: NEXT_10K, moveTo: NEXT_5K }] }),
    );
    expect(full.statusCode, full.body).toBe(409);
    expect(JSON.parse(full.body).errors).toEqual([{ field: `keptPlaces.${NEXT_10K}`, message: 'RACE_FULL' }]);
    expect(await counts(NEXT_10K)).toEqual({ taken: 1, held: 1 });
    expect((await creditOf(runners[1]!)).place).toMatchObject({ raceId: NEXT_10K, state: 'reserved' });
    // Moved to the 5 km: runner 1's place is kept there.
    const moved = await saveNext(
      nextSettings([race(NEXT_5K, 100, 1200)], { keptPlaces: [{ raceId: NEXT_10K, moveTo: NEXT_5K }] }),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await counts(NEXT_10K)).toEqual({ taken: 1, held: 0 });
    expect(await counts(NEXT_5K)).toEqual({ taken: 0, held: 1 });
    expect((await creditOf(runners[1]!)).place).toMatchObject({ raceId: NEXT_5K, state: 'reserved' });
    // Released with the 5 km left out: no place kept, the race gone, the credit's amount still there.
    const released = await saveNext(
      nextSettings([race(NEXT_10K, 2, 3000)], { keptPlaces: [{ raceId: NEXT_5K, moveTo: null }] }),
    );
    expect(released.statusCode, released.body).toBe(200);
    expect(JSON.parse(released.body).races.map((r: { raceId: string }) => r.raceId)).toEqual([NEXT_10K]);
    expect(await counts(NEXT_5K)).toBeUndefined();
    expect(await creditOf(runners[1]!)).toMatchObject({
      cents: 2000,
      used: false,
      place: { state: 'released' },
    });
  });
});
