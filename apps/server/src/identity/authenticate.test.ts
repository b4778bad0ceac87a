import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers.ts';
import { createTestUser, type TestUser } from '../../test/identity-helpers.ts';
import type { Database } from '../db/database.ts';
import { AppError } from '../errors.ts';
import { createAuthenticator } from './authenticate.ts';

/**
 * The callers' users read in batches (issue 38, the registration rush): lookups asked while one
 * is in the database go in one statement, each still made after its request — a role given or an
 * account deleted counts at the next call.
 */
describe('the authenticator reads users in batches', () => {
  let app: FastifyInstance;
  const users: TestUser[] = [];
  const statements: string[] = [];
  let authenticator: ReturnType<typeof createAuthenticator>;

  beforeAll(async () => {
    app = await buildTestApp();
    for (let k = 0; k < 20; k++) users.push(await createTestUser(app, { email: `batch${k}@example.test` }));
    const counted: Database = {
      ...app.database,
      query: (text, params) => {
        statements.push(text);
        return app.database.query(text, params);
      },
    };
    authenticator = createAuthenticator({
      database: counted,
      signer: app.identity.signer,
      trustedIssuers: [],
      platformStaffEmails: [],
      confirmationAccountEmail: '',
    });
  });
  afterAll(async () => {
    await app.close();
  });

  const reads = () => statements.filter((s) => s.includes('FROM users u')).length;

  it('20 callers at once: each their own user, in at most two statements', async () => {
    // Tokens verified once (kept until they expire), so the 20 lookups are asked together.
    await Promise.all(users.map((u) => authenticator.authenticate(u.idToken)));
    const before = reads();
    const seen = await Promise.all(users.map((u) => authenticator.authenticate(u.idToken)));
    expect(seen.map((u) => u.sub)).toEqual(users.map((u) => u.sub));
    expect(seen.map((u) => u.email)).toEqual(users.map((u) => u.email));
    expect(reads() - before).toBeLessThanOrEqual(2);
  });

  it('a role given and an account deleted count at the next call', async () => {
    const [org] = await app.database.query<{ id: string }>(
      `INSERT INTO organisations (slug, name) VALUES ('batch-org', 'Batch') RETURNING id`,
    );
    const [a, b] = [users[0]!, users[1]!];
    expect((await authenticator.authenticate(a.idToken)).memberships).toEqual([]);
    await app.database.query(
      `INSERT INTO organisation_members (organisation_id, user_sub, role) VALUES ($1, $2, 'staff')`,
      [org!.id, a.sub],
    );
    await app.database.query('DELETE FROM users WHERE sub = $1', [b.sub]);
    const [withRole, deleted] = await Promise.allSettled([
      authenticator.authenticate(a.idToken),
      authenticator.authenticate(b.idToken),
    ]);
    expect(withRole).toMatchObject({
      status: 'fulfilled',
      value: { memberships: [{ organisationId: org!.id, role: 'staff' }] },
    });
    expect(deleted.status).toBe('rejected');
    expect((deleted as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
    expect(((deleted as PromiseRejectedResult).reason as AppError).code).toBe('TOKEN_INVALID');
  });
});
