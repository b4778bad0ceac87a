import { type AppRule, abilityFromRules } from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers.ts';
import { createTestUser } from '../../test/identity-helpers.ts';

/** A CASL subject (what `@casl/ability`'s `subject()` does). */
const as = <T extends Record<string, unknown>>(type: string, object: T): T =>
  Object.defineProperty(object, '__caslSubjectType__', { value: type });

let app: FastifyInstance;
let orgA: string;
let orgB: string;
beforeAll(async () => {
  app = await buildTestApp({
    CONFIRMATION_ACCOUNT_EMAIL: 'confirm@example.org',
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://tempora.example',
    REALTIME_SECRET: 'a production secret of our own',
    SEED_DEMO: 'false',
  });
  const rows = await app.database.query<{ id: string }>(
    `INSERT INTO organisations (slug, name) VALUES ('org-a', 'A'), ('org-b', 'B') RETURNING id`,
  );
  [orgA, orgB] = rows.map((r) => r.id) as [string, string];
});
afterAll(() => app.close());

async function rulesOf(authorization: string): Promise<AppRule[]> {
  const res = await app.inject({ url: '/api/permission/get', headers: { authorization } });
  expect(res.statusCode).toBe(200);
  return res.json().rules;
}

describe('permission/get', () => {
  it("an organiser's rules only cover their own organisation", async () => {
    const owner = await createTestUser(app, { memberships: [{ organisationId: orgA, role: 'owner' }] });
    const ability = abilityFromRules(await rulesOf(owner.authorization));
    expect(ability.can('update', as('Event', { organisationId: orgA }))).toBe(true);
    expect(ability.can('update', as('Event', { organisationId: orgB }))).toBe(false);
    expect(ability.can('manage', as('Organisation', { id: orgA }))).toBe(true);
    expect(ability.can('manage', as('Organisation', { id: orgB }))).toBe(false);
    expect(ability.can('read', 'Outbox')).toBe(false);
  });

  it('a timekeeper times but does not manage events', async () => {
    const keeper = await createTestUser(app, { memberships: [{ organisationId: orgB, role: 'timekeeper' }] });
    const ability = abilityFromRules(await rulesOf(keeper.authorization));
    expect(ability.can('create', as('Passing', { organisationId: orgB }))).toBe(true);
    expect(ability.can('create', as('Passing', { organisationId: orgA }))).toBe(false);
    expect(ability.can('update', as('Event', { organisationId: orgB }))).toBe(false);
  });

  it('staff manage all; the confirmation account manages Confirmation', async () => {
    const staff = await createTestUser(app, { staff: true });
    expect(await rulesOf(staff.authorization)).toContainEqual({ action: 'manage', subject: 'all' });
    const confirm = await createTestUser(app, { email: 'Confirm@example.org' });
    expect(await rulesOf(confirm.authorization)).toContainEqual({
      action: 'manage',
      subject: 'Confirmation',
    });
  });

  it('the server enforces the same ability on its own routes (dev/outbox in production)', async () => {
    const user = await createTestUser(app);
    const staff = await createTestUser(app, { staff: true });
    const outbox = (authorization?: string) =>
      app.inject({ url: '/api/dev/outbox', headers: authorization ? { authorization } : {} });
    expect((await outbox()).statusCode).toBe(401);
    expect((await outbox(user.authorization)).statusCode).toBe(403);
    expect((await outbox(staff.authorization)).statusCode).toBe(200);
  });
});

describe('app.outbox', () => {
  it('keeps every message, unsent without SMTP', async () => {
    await app.outbox.send({ to: 'a@example.org', subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' });
    const [latest] = await app.outbox.list(1);
    expect(latest).toMatchObject({ to: 'a@example.org', subject: 'Hello', sentAt: null });
  });
});
