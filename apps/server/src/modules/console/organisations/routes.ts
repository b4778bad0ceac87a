import crypto from 'node:crypto';
import {
  consoleOrganisationSchema,
  INVITATION_DAYS,
  type InvitationPreview,
  invitationCreateSchema,
  invitationPreviewSchema,
  invitationSchema,
  memberRoleSchema,
  memberSchema,
  noContentSchema,
  organisationCreateSchema,
  organisationPatchSchema,
} from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError, errors } from '../../../errors.ts';
import { afterAccess, checked, type ZodTypeProvider } from '../../../lib/zod-routes.ts';
import { organisationFor, requireUser } from '../../../policy/policy.ts';
import { invitationParams, memberParams, orgParams, tokenParams } from '../schemas.ts';
import { invitationLink, invitationMail } from './mails.ts';
import * as repo from './repository.ts';

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/**
 * Organisations, members and invitations (issue 14): anyone signed in founds an organisation and
 * is its owner; members read it; owners manage it, its members and invitations. An invitation is a
 * mail (outbox) with a single-use link, accepted by the signed-in user with the invited address.
 */
export async function organisationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database, config } = app;

  async function answer(id: string, sub: string) {
    const org = await repo.organisationById(database, id, sub);
    if (!org) throw errors.notFound('ORGANISATION_NOT_FOUND', `No organisation '${id}'`);
    return org;
  }

  app.get(
    '/api/console/organisations',
    { schema: { access: 'signed-in', response: { 200: z.array(consoleOrganisationSchema) } } },
    async (request) => {
      const user = requireUser(request);
      return repo.organisationsOf(database, user.sub, user.isPlatformStaff);
    },
  );

  app.post(
    '/api/console/organisations',
    {
      schema: {
        access: 'signed-in',
        body: afterAccess(organisationCreateSchema),
        response: { 201: consoleOrganisationSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (!request.ability.can('create', 'Organisation')) throw errors.forbidden();
      const body = checked(request, 'body');
      const id = await database.transaction(async (sql) =>
        repo.insertOrganisation(sql, {
          ...body,
          slug: await repo.freeSlug(sql, body.name),
          ownerSub: user.sub,
        }),
      );
      return reply.code(201).send(await answer(id, user.sub));
    },
  );

  app.get(
    '/api/console/organisations/:orgId',
    { schema: { access: 'timekeeper', params: orgParams, response: { 200: consoleOrganisationSchema } } },
    async (request) => {
      const { orgId } = request.params;
      const org = await organisationFor(request, database, orgId, 'read');
      return answer(org.id, request.user!.sub);
    },
  );

  app.patch(
    '/api/console/organisations/:orgId',
    {
      schema: {
        access: 'owner',
        params: orgParams,
        body: afterAccess(organisationPatchSchema),
        response: { 200: consoleOrganisationSchema },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      const org = await organisationFor(request, database, orgId, 'manage');
      const patch = checked(request, 'body');
      await repo.updateOrganisation(database, org.id, patch);
      return answer(org.id, request.user!.sub);
    },
  );

  app.get(
    '/api/console/organisations/:orgId/members',
    { schema: { access: 'timekeeper', params: orgParams, response: { 200: z.array(memberSchema) } } },
    async (request) => {
      const { orgId } = request.params;
      const org = await organisationFor(request, database, orgId, 'read');
      return repo.membersOf(database, org.id);
    },
  );

  app.patch(
    '/api/console/organisations/:orgId/members/:sub',
    {
      schema: {
        access: 'owner',
        params: memberParams,
        body: afterAccess(memberRoleSchema),
        response: { 200: memberSchema },
      },
    },
    async (request) => {
      const { orgId, sub } = request.params;
      const org = await organisationFor(request, database, orgId, 'manage');
      const { role } = checked(request, 'body');
      await database.transaction(async (sql) => {
        const owners = await repo.lockOwners(sql, org.id);
        const current = await repo.memberRole(sql, org.id, sub);
        if (!current) throw errors.notFound('MEMBER_NOT_FOUND', 'No such member');
        if (current === 'owner' && role !== 'owner' && owners.length === 1)
          throw errors.conflict('LAST_OWNER', 'An organisation keeps at least one owner');
        await repo.setRole(sql, org.id, sub, role);
      });
      return (await repo.membersOf(database, org.id)).find((m) => m.sub === sub);
    },
  );

  app.delete(
    '/api/console/organisations/:orgId/members/:sub',
    { schema: { access: 'owner', params: memberParams, response: { 204: noContentSchema } } },
    async (request, reply) => {
      const { orgId, sub } = request.params;
      const user = requireUser(request);
      // A member may leave; removing someone else is the owners' (manage Organisation).
      const org = await organisationFor(request, database, orgId, sub === user.sub ? 'read' : 'manage');
      await database.transaction(async (sql) => {
        const owners = await repo.lockOwners(sql, org.id);
        const current = await repo.memberRole(sql, org.id, sub);
        if (!current) throw errors.notFound('MEMBER_NOT_FOUND', 'No such member');
        if (current === 'owner' && owners.length === 1)
          throw errors.conflict('LAST_OWNER', 'An organisation keeps at least one owner');
        await repo.removeMember(sql, org.id, sub);
      });
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/console/organisations/:orgId/invitations',
    { schema: { access: 'owner', params: orgParams, response: { 200: z.array(invitationSchema) } } },
    async (request) => {
      const { orgId } = request.params;
      const org = await organisationFor(request, database, orgId, 'manage');
      return repo.pendingInvitations(database, org.id);
    },
  );

  app.post(
    '/api/console/organisations/:orgId/invitations',
    {
      schema: {
        access: 'owner',
        params: orgParams,
        body: afterAccess(invitationCreateSchema),
        response: { 201: invitationSchema },
      },
    },
    async (request, reply) => {
      const { orgId } = request.params;
      const org = await organisationFor(request, database, orgId, 'manage');
      const body = checked(request, 'body');
      const email = body.email.toLowerCase();
      const already = await database.query(
        `SELECT 1 FROM organisation_members m JOIN users u ON u.sub = m.user_sub
        WHERE m.organisation_id = $1 AND lower(u.email) = $2`,
        [org.id, email],
      );
      if (already.length) throw errors.conflict('ALREADY_MEMBER', `${email} is already a member`);
      const token = crypto.randomBytes(24).toString('base64url');
      const user = request.user!;
      const invitation = await repo.insertInvitation(database, {
        organisationId: org.id,
        email,
        role: body.role,
        tokenHash: hashToken(token),
        invitedBy: user.sub,
        days: INVITATION_DAYS,
      });
      await app.outbox.send(
        invitationMail(email, body.lng, {
          organisation: org.name,
          inviter: user.email,
          role: body.role,
          // Links come from PUBLIC_URL only, never from request headers (issue 13).
          link: invitationLink(config.publicUrl, token),
          token,
          days: INVITATION_DAYS,
        }),
      );
      return reply.code(201).send(invitation);
    },
  );

  app.delete(
    '/api/console/organisations/:orgId/invitations/:id',
    { schema: { access: 'owner', params: invitationParams, response: { 204: noContentSchema } } },
    async (request, reply) => {
      const { orgId, id } = request.params;
      const org = await organisationFor(request, database, orgId, 'manage');
      if (!(await repo.revokeInvitation(database, org.id, id)))
        throw errors.notFound('INVITATION_NOT_FOUND', 'No pending invitation');
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/console/invitations/:token',
    { schema: { access: 'public', params: tokenParams, response: { 200: invitationPreviewSchema } } },
    async (request): Promise<InvitationPreview> => {
      const { token } = request.params;
      // Read signed out too (issue 43): the sign-in and sign-up pages name the organisation, the
      // role and the address of the invitation they lead to. The token is the secret the invitee
      // received (256 bits, only its SHA-256 stored); accepting still needs that address's account.
      const row = await repo.invitationByTokenHash(database, hashToken(token));
      if (!row) throw errors.notFound('INVITATION_NOT_FOUND', 'This invitation link is not valid');
      return {
        organisation: { id: row.organisationId, name: row.organisationName },
        email: row.email,
        role: row.role,
        state: row.acceptedAt ? 'accepted' : row.revokedAt ? 'revoked' : row.expired ? 'expired' : 'pending',
        expiresAt: row.expiresAt,
      };
    },
  );

  app.post(
    '/api/console/invitations/:token/accept',
    { schema: { access: 'signed-in', params: tokenParams, response: { 200: consoleOrganisationSchema } } },
    async (request) => {
      const { token } = request.params;
      const user = requireUser(request);
      const organisationId = await database.transaction(async (sql) => {
        const row = await repo.invitationByTokenHash(sql, hashToken(token), true);
        if (!row) throw errors.notFound('INVITATION_NOT_FOUND', 'This invitation link is not valid');
        if (row.acceptedAt) throw errors.conflict('INVITATION_USED', 'This invitation was already accepted');
        if (row.revokedAt) throw errors.conflict('INVITATION_REVOKED', 'This invitation was withdrawn');
        if (row.expired) throw errors.conflict('INVITATION_EXPIRED', 'This invitation has expired');
        if (row.email !== user.email.toLowerCase())
          throw new AppError(
            403,
            'INVITATION_OTHER_EMAIL',
            `This invitation is for ${row.email}; sign in with that address`,
          );
        const current = await repo.memberRole(sql, row.organisationId, user.sub);
        // Joining never demotes: an owner invited as staff stays owner.
        if (current !== 'owner') await repo.upsertMember(sql, row.organisationId, user.sub, row.role);
        await repo.markAccepted(sql, row.id, user.sub);
        return row.organisationId;
      });
      return answer(organisationId, user.sub);
    },
  );
}
