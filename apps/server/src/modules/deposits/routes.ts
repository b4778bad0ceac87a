import {
  type DepositSummary,
  depositCreateSchema,
  depositDetailSchema,
  depositMessageSchema,
  depositOfferSchema,
  depositPatchSchema,
  depositShareSchema,
  depositSummarySchema,
  entryImportSchema,
  entryInputSchema,
  joinPreviewSchema,
  joinSchema,
  messageInputSchema,
  substitutionDecisionSchema,
  teamRankingSchema,
} from '@tempora/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errors } from '../../errors.ts';
import { afterAccess, checked, type ZodTypeProvider } from '../../lib/zod-routes.ts';
import type { LimitRule } from '../../plugins/rate-limit.ts';
import { requireEventStaff } from '../../policy/policy.ts';
import { seesDrafts } from '../../policy/visibility.ts';
import { parseInput } from '../../validate.ts';
import { type DepositRole, depositAccess } from './access.ts';
import { parseEntryCsv } from './entry-import.ts';
import * as repo from './repository.ts';
import type { DepositsService } from './service.ts';

// Deposit ids are 16 digits (random, repository.randomDepositId); older ones are shorter.
const idParams = z.object({ id: z.string().regex(/^\d{1,16}$/, 'a deposit number') });
const entryParams = idParams.extend({ entryId: z.string().regex(/^\d{1,15}$/, 'an entry number') });
const eventParams = z.object({ event: z.string().min(1).max(100) });
const codeParams = z.object({ code: z.string().regex(/^[A-Za-z0-9]{4,20}$/) });

/**
 * Join codes are 40 bits: looking them up is limited per address and per account (issue 25: they
 * were guessed at ~180/s), 30 per 15 minutes, far above what someone joining a team needs.
 */
const JOIN_LIMIT: LimitRule = { name: 'join-code', max: 30, windowMs: 15 * 60_000 };

const ALL: DepositRole[] = ['captain', 'member', 'staff'];
const LEADERS: DepositRole[] = ['captain', 'staff'];

/** Routes of group deposits (paths in packages/contracts/src/deposits.ts). */
export async function depositRoutes(fastify: FastifyInstance, { service }: { service: DepositsService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app;

  function signedIn(request: FastifyRequest) {
    if (!request.user) throw errors.unauthorized();
    return request.user;
  }

  /** The deposit of a route whose params are `idParams` (checked before the access, as ever). */
  async function access(request: FastifyRequest<{ Params: { id: string } }>, allowed: DepositRole[]) {
    return depositAccess(request, database, request.params.id, allowed);
  }

  /**
   * An entry's route: the deposit number is checked before the access (it is looked up), the
   * entry number after it (`afterAccess(entryParams)`, read with `checked`), as they always were.
   */
  async function entryAccess(request: FastifyRequest, allowed: DepositRole[]) {
    const { id } = parseInput(idParams, request.params, 'params');
    const found = await depositAccess(request, database, id, allowed);
    const { entryId }: { entryId: string } = checked(request, 'params');
    return { ...found, entryId };
  }

  const show = async (request: FastifyRequest, id: string, role: DepositRole) =>
    service.detail(id, { sub: request.user?.sub ?? '', role });

  /** A draft event (console, 0007) is known only to its organisation: 404 for anyone else. */
  async function requireVisible(request: FastifyRequest, eventId: string) {
    const [event] = await database.query<{ draft: boolean; organisationId: string }>(
      `SELECT visibility = 'draft' AS draft, organisation_id::text AS "organisationId" FROM events WHERE id = $1`,
      [eventId],
    );
    if (!event) throw errors.notFound('EVENT_NOT_FOUND', `No event '${eventId}'`);
    // The policy's rule (policy/visibility.ts): a draft is seen by its organisation only.
    if (event.draft && !seesDrafts(request, event.organisationId)) {
      throw errors.notFound('EVENT_NOT_FOUND', `No event '${eventId}'`);
    }
  }

  app.get(
    '/api/deposits/events/:event/offer',
    { schema: { access: 'public', params: eventParams, response: { 200: depositOfferSchema } } },
    async (request) => {
      const { event } = request.params;
      await requireVisible(request, event);
      return service.offer(event);
    },
  );

  app.get(
    '/api/deposits/events/:event/all',
    { schema: { access: 'manager', params: eventParams, response: { 200: z.array(depositSummarySchema) } } },
    async (request) => {
      const { event } = request.params;
      await requireEventStaff(request, database, event);
      return (await repo.depositsOfEvent(database, event)).map((d) => summary(d, 'staff'));
    },
  );

  app.post(
    '/api/deposits',
    {
      schema: {
        access: 'signed-in',
        body: afterAccess(depositCreateSchema),
        response: { 201: depositDetailSchema },
      },
    },
    async (request, reply) => {
      const user = signedIn(request);
      const input = checked(request, 'body');
      await requireVisible(request, input.eventId);
      const id = await service.create(user.sub, input);
      reply.code(201);
      return show(request, id, 'captain');
    },
  );

  app.get(
    '/api/deposits/mine',
    { schema: { access: 'signed-in', response: { 200: z.array(depositSummarySchema) } } },
    async (request) => {
      const user = signedIn(request);
      return (await repo.depositsOfUser(database, user.sub)).map((d) =>
        summary(d, d.isCaptain ? 'captain' : 'member'),
      );
    },
  );

  /** Signed in, then counted per address and per account, before the code is looked up. */
  async function limitJoin(request: FastifyRequest, reply: FastifyReply) {
    const user = signedIn(request);
    await app.limits.hit(request, reply, JOIN_LIMIT, [`ip:${request.ip}`, `account:${user.sub}`]);
    return user;
  }

  app.get(
    '/api/deposits/join/:code',
    {
      schema: { access: 'signed-in', params: afterAccess(codeParams), response: { 200: joinPreviewSchema } },
    },
    async (request, reply) => {
      await limitJoin(request, reply);
      const { code } = checked(request, 'params');
      const deposit = await repo.findDepositByCode(database, code);
      if (!deposit) throw errors.notFound('DEPOSIT_NOT_FOUND', 'No deposit with this code');
      return service.joinPreview(deposit);
    },
  );

  app.post(
    '/api/deposits/join',
    {
      schema: { access: 'signed-in', body: afterAccess(joinSchema), response: { 200: depositDetailSchema } },
    },
    async (request, reply) => {
      const user = await limitJoin(request, reply);
      const { code } = checked(request, 'body');
      const deposit = await repo.findDepositByCode(database, code);
      if (!deposit) throw errors.notFound('DEPOSIT_NOT_FOUND', 'No deposit with this code');
      if (deposit.captainSub === user.sub) return show(request, deposit.id, 'captain');
      if (deposit.state !== 'collecting')
        throw errors.conflict('DEPOSIT_STATE', 'This team no longer takes members');
      await repo.addMember(database, deposit.id, user.sub);
      return show(request, deposit.id, 'member');
    },
  );

  app.get(
    '/api/deposits/:id',
    { schema: { access: 'party', params: idParams, response: { 200: depositDetailSchema } } },
    async (request) => {
      const { deposit, role } = await access(request, ALL);
      return show(request, deposit.id, role);
    },
  );

  app.patch(
    '/api/deposits/:id',
    {
      schema: {
        access: 'party',
        params: idParams,
        body: afterAccess(depositPatchSchema),
        response: { 200: depositDetailSchema },
      },
    },
    async (request) => {
      const { deposit, role } = await access(request, ['captain']);
      await service.patch(deposit, checked(request, 'body'));
      return show(request, deposit.id, role);
    },
  );

  app.get(
    '/api/deposits/:id/share',
    { schema: { access: 'party', params: idParams, response: { 200: depositShareSchema } } },
    async (request) => {
      const { deposit } = await access(request, LEADERS);
      const path = `/deposit/${encodeURIComponent(deposit.eventId)}/${deposit.id}/collect?code=${deposit.joinCode}`;
      // The link's host is the site's own address (PUBLIC_URL; the listen address in development),
      // never one the caller names (issue 29: `?origin=` let anyone print a QR code to their host).
      const url = `${app.config.publicUrl}/#${path}`;
      const { default: QRCode } = await import('qrcode');
      const qrSvg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      return { code: deposit.joinCode, url, qrSvg };
    },
  );

  app.post(
    '/api/deposits/:id/entries',
    {
      schema: {
        access: 'party',
        params: idParams,
        body: afterAccess(entryInputSchema),
        response: { 201: depositDetailSchema },
      },
    },
    async (request, reply) => {
      const { deposit, role } = await access(request, ALL);
      const input = checked(request, 'body');
      await service.addEntries(deposit, { sub: request.user!.sub, role }, [input]);
      reply.code(201);
      return show(request, deposit.id, role);
    },
  );

  app.post(
    '/api/deposits/:id/entries/import',
    {
      schema: {
        access: 'party',
        params: idParams,
        body: afterAccess(entryImportSchema),
        response: { 200: depositDetailSchema },
      },
    },
    async (request) => {
      const { deposit, role } = await access(request, LEADERS);
      const { csv } = checked(request, 'body');
      const races = await repo.racesOfEvent(database, deposit.eventId);
      await service.addEntries(deposit, { sub: request.user!.sub, role }, parseEntryCsv(csv, races));
      return show(request, deposit.id, role);
    },
  );

  app.patch(
    '/api/deposits/:id/entries/:entryId',
    {
      schema: {
        access: 'party',
        params: afterAccess(entryParams),
        body: afterAccess(entryInputSchema),
        response: { 200: depositDetailSchema },
      },
    },
    async (request) => {
      const { deposit, role, entryId } = await entryAccess(request, ALL);
      await service.updateEntry(deposit, { sub: request.user!.sub, role }, entryId, checked(request, 'body'));
      return show(request, deposit.id, role);
    },
  );

  app.delete(
    '/api/deposits/:id/entries/:entryId',
    { schema: { access: 'party', params: afterAccess(entryParams), response: { 200: depositDetailSchema } } },
    async (request) => {
      const { deposit, role, entryId } = await entryAccess(request, ALL);
      await service.removeEntry(deposit, { sub: request.user!.sub, role }, entryId);
      return show(request, deposit.id, role);
    },
  );

  app.post(
    '/api/deposits/:id/entries/:entryId/substitution',
    {
      schema: {
        access: 'party',
        params: afterAccess(entryParams),
        body: afterAccess(substitutionDecisionSchema),
        response: { 200: depositDetailSchema },
      },
    },
    async (request) => {
      const { deposit, role, entryId } = await entryAccess(request, ['staff']);
      const { approve } = checked(request, 'body');
      await service.decideSubstitution(deposit, entryId, approve);
      return show(request, deposit.id, role);
    },
  );

  app.post(
    '/api/deposits/:id/submit',
    { schema: { access: 'party', params: idParams, response: { 200: depositDetailSchema } } },
    async (request) => {
      const { deposit, role } = await access(request, ['captain']);
      await service.submit(deposit);
      return show(request, deposit.id, role);
    },
  );

  for (const [action, to, roles] of [
    ['cancel', 'cancelled', LEADERS],
    ['reopen', 'collecting', ['captain']],
    ['close', 'closed', ['staff']],
  ] as const) {
    app.post(
      `/api/deposits/:id/${action}`,
      { schema: { access: 'party', params: idParams, response: { 200: depositDetailSchema } } },
      async (request) => {
        const { deposit, role } = await access(request, [...roles]);
        await service.move(deposit, role, to);
        return show(request, deposit.id, role);
      },
    );
  }

  app.get(
    '/api/deposits/:id/messages',
    { schema: { access: 'party', params: idParams, response: { 200: z.array(depositMessageSchema) } } },
    async (request) => {
      const { deposit } = await access(request, ALL);
      return repo.messagesOf(database, deposit.id);
    },
  );

  app.post(
    '/api/deposits/:id/messages',
    {
      schema: {
        access: 'party',
        params: idParams,
        body: afterAccess(messageInputSchema),
        response: { 201: depositMessageSchema },
      },
    },
    async (request, reply) => {
      const { deposit } = await access(request, ['captain']);
      const input = checked(request, 'body');
      const saved = await service.postMessage(deposit, request.user!.sub, input);
      reply.code(201);
      return {
        id: saved.id,
        authorName: deposit.captainName || deposit.captainEmail,
        ...input,
        recipients: saved.recipients,
        createdAt: saved.createdAt,
      };
    },
  );

  app.get(
    '/api/deposits/:id/ranking',
    { schema: { access: 'party', params: idParams, response: { 200: teamRankingSchema } } },
    async (request) => {
      const { deposit } = await access(request, ALL);
      return service.ranking(deposit);
    },
  );
}

function summary(
  d: repo.DepositRow & { entries: number },
  role: 'captain' | 'member' | 'staff',
): DepositSummary {
  return {
    id: d.id,
    eventId: d.eventId,
    eventName: d.eventName,
    organisationName: d.organisationName,
    type: d.type as DepositSummary['type'],
    state: d.state as DepositSummary['state'],
    role,
    entries: d.entries,
    createdAt: d.createdAt,
  };
}
