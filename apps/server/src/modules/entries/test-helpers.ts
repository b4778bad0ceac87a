import type { RegistrationSettingsInput } from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import type { startMollieStub } from '../../../test/mollie-stub.ts';

export const EVENT = 'demo-city-run';
export const TEN_K = 'city-10k';
export const MARATHON = 'city-marathon';

/**
 * Registration settings of the demo event for tests: the 10 km with two price tiers (25 € now,
 * 35 € from 2099) and `places` places, the marathon at 45 €, a code of 20 % with one use, a
 * T-shirt with stock `shirts`, a required question, a waiver, refunds 100 % until 2099.
 */
export function registrationSettings(
  o: { places?: number; shirts?: number; uses?: number; refund?: number } = {},
): RegistrationSettingsInput {
  return {
    holdMinutes: 15,
    waitlistMinutes: 60,
    payOnSite: true,
    currency: 'EUR',
    policy: {
      editUntil: '2099-12-31',
      moveUntil: '2099-12-31',
      transferUntil: '2099-12-31',
      transferFeeCents: 500,
      cancelUntil: '2099-12-31',
      refund: { kind: 'tiers', tiers: [{ until: '2099-12-31', percent: o.refund ?? 100 }] },
    },
    races: [
      {
        raceId: TEN_K,
        opensAt: '2020-01-01T00:00:00.000Z',
        closesAt: '2099-12-31T00:00:00.000Z',
        capacity: o.places ?? 3,
        prices: {
          tiers: [
            { from: '2020-01-01T00:00:00.000Z', cents: 2500 },
            { from: '2099-01-01T00:00:00.000Z', cents: 3500 },
          ],
        },
        minAge: 12,
        maxAge: null,
        required: ['birthDate', 'gender'],
      },
      {
        raceId: MARATHON,
        opensAt: '2020-01-01T00:00:00.000Z',
        closesAt: '2099-12-31T00:00:00.000Z',
        capacity: 100,
        prices: { tiers: [{ from: '2020-01-01T00:00:00.000Z', cents: 4500 }] },
        minAge: 18,
        maxAge: null,
        required: [],
        // Relays: teams of up to 3 (team entries).
        teamSize: 3,
      },
    ],
    questions: [
      {
        key: 'size-club',
        label: 'How did you hear of us?',
        kind: 'one',
        options: ['friends', 'web'],
        required: true,
      },
    ],
    addOns: [{ key: 'tshirt-m', name: 'T-shirt M', priceCents: 1500, capacity: o.shirts ?? 1 }],
    codes: [{ code: 'EARLY20', kind: 'percent', value: 20, capacity: o.uses ?? 1 }],
    waiver: 'I run at my own risk.',
  };
}

/** One runner of the form, valid for the 10 km. */
export function runner(n: number, extra: Record<string, unknown> = {}) {
  return {
    raceId: TEN_K,
    firstName: `Runner${n}`,
    lastName: 'Test',
    email: `runner${n}@example.test`,
    birthDate: '1990-05-01',
    gender: n % 2 ? 'F' : 'M',
    answers: { 'size-club': 'web' },
    waiverVersion: 1,
    ...extra,
  };
}

/** Pays an entries order with Mollie (the local stub) and delivers the webhook `times` times. */
export async function payWithMollie(
  app: FastifyInstance,
  mollie: ReturnType<typeof startMollieStub>,
  authorization: string,
  orderId: string,
  times = 1,
) {
  const pay = await app.inject({
    method: 'POST',
    url: `/api/payments/orders/${orderId}/pay`,
    headers: { authorization },
    payload: { provider: 'mollie', returnUrl: 'http://localhost:8080/#/entries/orders/1' },
  });
  if (pay.statusCode !== 200) throw new Error(`pay: ${pay.body}`);
  const id = [...mollie.payments.keys()].pop() as string;
  return { id, deliver: () => deliver(app, mollie, id, times) };
}

/** Marks a stub payment paid and posts Mollie's webhook `times` times. */
export async function deliver(
  app: FastifyInstance,
  mollie: ReturnType<typeof startMollieStub>,
  id: string,
  times = 1,
) {
  (mollie.payments.get(id) as { status: string }).status = 'paid';
  const answers: boolean[] = [];
  for (let k = 0; k < times; k++) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/mollie',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `id=${id}`,
    });
    answers.push(JSON.parse(res.body).recorded);
  }
  return answers;
}

/**
 * `call(method, url, who, payload)`: an API call on `app()` as `who` (a signed-in user's
 * authorization header), JSON payload optional. `app` is read at each call (set in `beforeAll`).
 */
export function caller(app: () => FastifyInstance) {
  return (method: 'GET' | 'POST' | 'PUT', url: string, who: { authorization: string }, payload?: unknown) =>
    app().inject({
      method,
      url,
      headers: { authorization: who.authorization },
      ...(payload ? { payload } : {}),
    });
}

/** The demo event's settings with deferral allowed until 2099 for a fee of 5 € (`extra` on top). */
export function deferralSettings(extra: Record<string, unknown> = {}) {
  const s = registrationSettings({ places: 10, shirts: 10 });
  return { ...s, policy: { ...s.policy, deferUntil: '2099-12-31', deferFeeCents: 500 }, ...extra };
}
