import {
  accountPrivacySchema,
  claimCodeSchema,
  claimCreatedSchema,
  claimDecisionSchema,
  claimRequestSchema,
  claimSuggestionSchema,
  erasurePreviewSchema,
  erasureRequestSchema,
  erasureResultSchema,
  eventRetentionInputSchema,
  eventRetentionSchema,
  myDataPdfQuerySchema,
  myDataSchema,
  myResultsSchema,
  noContentSchema,
  organiserClaimSchema,
  publicPageAnswerSchema,
  publicPageSchema,
  publicRunnerSchema,
  resultPrivacySchema,
} from '@tempora/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errors } from '../../errors.ts';
import { afterAccess, checked, fileAnswer, type ZodTypeProvider } from '../../lib/zod-routes.ts';
import { requireEventAbility } from '../../policy/policy.ts';
import type { RunnerService } from './service.ts';

const resultParams = z.object({ participantId: z.uuid() });
const claimParams = z.object({ claimId: z.uuid() });
const eventParams = z.object({ eventId: z.string().min(1).max(100) });
const eventClaimParams = eventParams.extend({ claimId: z.uuid() });
/** Claim codes sent per account and hour (each is an e-mail to someone else's address). */
const CLAIM_RULE = { name: 'runner-claim', max: 10, windowMs: 60 * 60_000 };

/** The signed-in runner (401 before anything else). */
function accountOf(request: FastifyRequest): string {
  if (!request.user) throw errors.unauthorized();
  return request.user.sub;
}

/**
 * The runner's space (issue 40, contract: packages/contracts/src/runner.ts): a signed-in runner's
 * results across events and organisations, and their privacy choices. Every route is about the
 * caller's own rows only: another runner's result answers 404 like one that does not exist.
 */
export async function runnerRoutes(fastify: FastifyInstance, opts: { service: RunnerService }) {
  const { service } = opts;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/me/results',
    { schema: { access: 'signed-in', response: { 200: myResultsSchema } } },
    async (request, reply) => {
      const account = accountOf(request);
      reply.header('cache-control', 'no-store');
      return service.myResults(account);
    },
  );

  app.put(
    '/api/me/privacy',
    {
      schema: {
        access: 'signed-in',
        body: afterAccess(accountPrivacySchema),
        response: { 204: noContentSchema },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { hideAll } = checked(request, 'body');
      await service.setHideAll(account, hideAll);
      return reply.code(204).send();
    },
  );

  app.put(
    '/api/me/results/:participantId/privacy',
    {
      schema: {
        access: 'signed-in',
        params: afterAccess(resultParams),
        body: afterAccess(resultPrivacySchema),
        response: { 204: noContentSchema },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { participantId } = checked(request, 'params');
      const { hidden } = checked(request, 'body');
      await service.setResultHidden(account, participantId, hidden);
      return reply.code(204).send();
    },
  );

  app.put(
    '/api/me/public-page',
    {
      schema: {
        access: 'signed-in',
        body: afterAccess(publicPageSchema),
        response: { 200: publicPageAnswerSchema },
      },
    },
    async (request) => {
      const account = accountOf(request);
      const { enabled } = checked(request, 'body');
      return { publicSlug: await service.setPublicPage(account, enabled) };
    },
  );

  app.get(
    '/api/runners/:slug',
    {
      schema: {
        access: 'public',
        params: z.object({ slug: z.string().min(1).max(32) }),
        response: { 200: publicRunnerSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-cache');
      return service.publicRunner(request.params.slug);
    },
  );

  app.get(
    '/api/me/claims/suggestions',
    { schema: { access: 'signed-in', response: { 200: z.array(claimSuggestionSchema) } } },
    async (request, reply) => {
      const account = accountOf(request);
      reply.header('cache-control', 'no-store');
      return service.claims.suggestions(account);
    },
  );

  app.post(
    '/api/me/claims',
    {
      schema: {
        access: 'signed-in',
        body: afterAccess(claimRequestSchema),
        response: { 201: claimCreatedSchema },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { participantId } = checked(request, 'body');
      await app.limits.hit(request, reply, CLAIM_RULE, [`account:${account}`]);
      const created = await service.claims.open(account, participantId);
      return reply.code(201).send(created);
    },
  );

  app.post(
    '/api/me/claims/:claimId/confirm',
    {
      schema: {
        access: 'signed-in',
        params: afterAccess(claimParams),
        body: afterAccess(claimCodeSchema),
        response: { 204: noContentSchema },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { claimId } = checked(request, 'params');
      const { code } = checked(request, 'body');
      await service.claims.prove(account, claimId, code);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/console/events/:eventId/claims',
    { schema: { access: 'manager', params: eventParams, response: { 200: z.array(organiserClaimSchema) } } },
    async (request, reply) => {
      const { eventId } = request.params;
      await requireEventAbility(request, app.database, eventId, 'update', 'Participant');
      reply.header('cache-control', 'no-store');
      return service.claims.organiserClaims(eventId);
    },
  );

  app.post(
    '/api/console/events/:eventId/claims/:claimId/decision',
    {
      schema: {
        access: 'manager',
        params: afterAccess(eventClaimParams),
        body: afterAccess(claimDecisionSchema),
        response: { 204: noContentSchema },
      },
    },
    async (request, reply) => {
      if (!request.user) throw errors.unauthorized();
      const { eventId, claimId } = checked(request, 'params');
      const event = await requireEventAbility(request, app.database, eventId, 'update', 'Participant');
      const { approve } = checked(request, 'body');
      await service.claims.decide(
        { id: eventId, organisationId: event.organisationId },
        claimId,
        approve,
        request.user.sub,
      );
      return reply.code(204).send();
    },
  );
  // "Download my data" (issue 40, GDPR article 15): JSON and a readable PDF.
  app.get(
    '/api/me/data',
    { schema: { access: 'signed-in', response: { 200: myDataSchema } } },
    async (request, reply) => {
      const account = accountOf(request);
      const data = await service.myData(account);
      reply
        .header('cache-control', 'no-store')
        .header(
          'content-disposition',
          `attachment; filename="tempora-my-data-${data.generatedAt.slice(0, 10)}.json"`,
        );
      return data;
    },
  );

  app.get(
    '/api/me/data.pdf',
    {
      schema: {
        access: 'signed-in',
        querystring: afterAccess(myDataPdfQuerySchema),
        response: { 200: fileAnswer(['application/pdf'], 'Everything Tempora holds about me, readable') },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { lng } = checked(request, 'querystring');
      const pdf = await service.myDataPdf(account, lng ?? 'fr');
      return reply
        .type('application/pdf')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="tempora-my-data.pdf"`)
        .send(pdf);
    },
  );

  // "Delete my account" (issue 40, GDPR article 17): what will happen, then the erasure.
  app.get(
    '/api/me/erasure',
    { schema: { access: 'signed-in', response: { 200: erasurePreviewSchema } } },
    async (request, reply) => {
      const account = accountOf(request);
      reply.header('cache-control', 'no-store');
      return service.erasure.preview(account);
    },
  );

  app.post(
    '/api/me/erasure',
    {
      schema: {
        access: 'signed-in',
        body: afterAccess(erasureRequestSchema),
        response: { 200: erasureResultSchema },
      },
    },
    async (request) => {
      const account = accountOf(request);
      const { confirmEmail } = checked(request, 'body');
      return service.erasure.erase(account, confirmEmail);
    },
  );

  // An event's retention of personal data (issue 40): the organiser's setting and its log.
  app.get(
    '/api/console/events/:eventId/retention',
    { schema: { access: 'manager', params: eventParams, response: { 200: eventRetentionSchema } } },
    async (request, reply) => {
      const { eventId } = request.params;
      await requireEventAbility(request, app.database, eventId, 'update', 'Event');
      reply.header('cache-control', 'no-store');
      return service.retention.get(eventId);
    },
  );

  app.put(
    '/api/console/events/:eventId/retention',
    {
      schema: {
        access: 'manager',
        params: afterAccess(eventParams),
        body: afterAccess(eventRetentionInputSchema),
        response: { 200: eventRetentionSchema },
      },
    },
    async (request) => {
      const { eventId } = checked(request, 'params');
      await requireEventAbility(request, app.database, eventId, 'update', 'Event');
      const { retentionDays } = checked(request, 'body');
      return service.retention.set(eventId, retentionDays);
    },
  );
}
