import type { FastifyInstance } from 'fastify';
import { createTestUser, type TestUser } from '../../../test/identity-helpers.ts';
import { ORG_A, organisers } from '../content/test-helpers.ts';

export const EVENT = 'demo-city-run';
export const TEN_K = 'city-10k';
export const MARATHON = 'city-marathon';

/** Deposit settings of the demo event for tests: 25 € the 10 km, 45 € the marathon, open a year. */
export function testSettings(overrides: Record<string, unknown> = {}) {
  return {
    open: true,
    entryDeadline: new Date(Date.now() + 365 * 86_400_000).toISOString(),
    currency: 'EUR',
    fees: { [TEN_K]: 2500, [MARATHON]: 4500 },
    capacities: { [TEN_K]: 5000 },
    orderExpiryDays: 14,
    refundPolicy: { kind: 'tiers', tiers: [{ until: '2099-12-31', percent: 50 }] },
    beneficiary: 'Demo City Run ASBL',
    iban: 'BE68539007547034',
    ...overrides,
  };
}

/** The people of a deposit test: organiser staff (A), another organisation (B), a captain, two members, a stranger. */
export async function depositCast(app: FastifyInstance) {
  const orgs = await organisers(app);
  const user = (email: string): Promise<TestUser> => createTestUser(app, { email, profileComplete: true });
  const cast = {
    staff: orgs.a,
    otherOrg: orgs.b,
    captain: await user(`captain-${Math.random().toString(36).slice(2, 8)}@acme.test`),
    ann: await user(`ann-${Math.random().toString(36).slice(2, 8)}@acme.test`),
    bob: await user(`bob-${Math.random().toString(36).slice(2, 8)}@acme.test`),
    stranger: await user(`stranger-${Math.random().toString(36).slice(2, 8)}@example.test`),
  };
  const res = await app.inject({
    method: 'PUT',
    url: `/api/payments/staff/events/${EVENT}/settings`,
    headers: orgs.a,
    payload: testSettings(),
  });
  if (res.statusCode !== 200) throw new Error(`settings: ${res.body}`);
  return cast;
}

export { ORG_A };
