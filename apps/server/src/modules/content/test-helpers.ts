import type { FastifyInstance } from 'fastify';
import { createTestUser } from '../../../test/identity-helpers.ts';

/** The demo organisation owning `demo-city-run`. */
export const ORG_A = '00000000-0000-4000-8000-000000000001';
/** Another organisation (created by {@link organisers}). */
export const ORG_B = '00000000-0000-4000-8000-0000000000b2';

/** An owner of the demo organisation and an owner of another one, as authorization headers. */
export async function organisers(app: FastifyInstance) {
  await app.database.query(
    `INSERT INTO organisations (id, slug, name) VALUES ($1, 'other', 'Other Org') ON CONFLICT DO NOTHING`,
    [ORG_B],
  );
  const a = await createTestUser(app, { memberships: [{ organisationId: ORG_A, role: 'owner' }] });
  const b = await createTestUser(app, { memberships: [{ organisationId: ORG_B, role: 'owner' }] });
  return { a: { authorization: a.authorization }, b: { authorization: b.authorization } };
}
