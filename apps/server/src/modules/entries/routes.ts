import {
  entriesStartListSchema,
  entryActionInputSchema,
  entryActionResultSchema,
  entryCodeSchema,
  entryOrderInputSchema,
  entryOrderSchema,
  entryQuoteSchema,
  myEntrySchema,
  myWaitlistSchema,
  registrationPageSchema,
  teamInputSchema,
  teamJoinSchema,
  teamSchema,
  teamTokenSchema,
  waitlistPlaceSchema,
} from '@tempora/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errors } from '../../errors.ts';
import { afterAccess, checked, fileAnswer, type ZodTypeProvider } from '../../lib/zod-routes.ts';
import { isOrganiserStaff, requireUser } from '../../policy/policy.ts';
import { ordersWhere } from '../payments/port.ts';
import * as repo from './repository.ts';
import { calendar } from './service/calendar.ts';
import { joinWaitlist, myWaitlists } from './service/waitlist.ts';
import type { EntriesService } from './service.ts';
import * as settingsRepo from './settings-repository.ts';

const eventParams = z.object({ event: z.string().min(1).max(100) });
const raceParams = z.object({ race: z.string().min(1).max(100) });
const orderParams = z.object({ id: z.string().regex(/^\d{1,15}$/, 'an order number') });
const codeParams = z.object({ code: entryCodeSchema });
const teamParams = z.object({ teamToken: teamTokenSchema });
const eventTeamParams = z.object({ event: z.string().min(1).max(100), teamToken: teamTokenSchema });

/** The runner's routes of online entries (paths in packages/contracts/src/entries.ts). */
export async function entryRoutes(fastify: FastifyInstance, { service }: { service: EntriesService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app;

  /** Whether the caller owns the entry: made with their account, or given to their verified e-mail. */
  async function owns(request: FastifyRequest, entry: repo.EntryRow): Promise<boolean> {
    const user = requireUser(request);
    if (entry.accountSub === user.sub) return true;
    const [u] = await database.query<{ ok: boolean }>(
      'SELECT email_verified AS ok FROM users WHERE sub = $1::uuid AND lower(email) = lower($2)',
      [user.sub, entry.email],
    );
    return Boolean(u?.ok);
  }

  /** An entry its owner or the organiser's staff may see; 401 before any lookup, the same 404 otherwise. */
  async function entryAccess(request: FastifyRequest) {
    requireUser(request);
    const { code }: { code: string } = checked(request, 'params');
    const entry = await repo.findEntry(database, code);
    const notFound = () => errors.notFound('ENTRY_NOT_FOUND', 'No such entry');
    if (!entry) throw notFound();
    const [ev] = await database.query<{ organisationId: string }>(
      'SELECT organisation_id::text AS "organisationId" FROM events WHERE id = $1',
      [entry.eventId],
    );
    const staff = ev ? isOrganiserStaff(request, ev.organisationId) : false;
    if (!staff && !(await owns(request, entry))) throw notFound();
    return { entry, staff };
  }

  /** An entries order its payer or the organiser's staff may see. */
  async function orderAccess(request: FastifyRequest) {
    const user = requireUser(request);
    const { id }: { id: string } = checked(request, 'params');
    const [order] = await ordersWhere(database, 'o.id = $1::bigint AND o.registration', [id]);
    if (!order || (order.payerSub !== user.sub && !isOrganiserStaff(request, order.organisationId)))
      throw errors.notFound('ORDER_NOT_FOUND', `No order '${id}'`);
    return order;
  }

  app.get(
    '/api/entries/events/:event',
    { schema: { access: 'public', params: eventParams, response: { 200: registrationPageSchema } } },
    async (request) => service.settings.page(request.params.event),
  );

  app.get(
    '/api/entries/events/:event/start-list',
    { schema: { access: 'public', params: eventParams, response: { 200: entriesStartListSchema } } },
    async (request) => service.startList.startList(request.params.event),
  );

  app.post(
    '/api/entries/events/:event/orders',
    {
      schema: {
        access: 'signed-in',
        params: eventParams,
        body: afterAccess(entryOrderInputSchema),
        response: { 201: entryOrderSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const order = await service.enter.placeOrder(user, request.params.event, checked(request, 'body'));
      // Nothing to pay (a deferral credit covered it): the rest of a larger credit is refunded now.
      if (order.state === 'paid') await service.sweep.refundRemainders(order.orderId);
      return reply.code(201).send(order);
    },
  );

  app.get(
    '/api/entries/orders/:id',
    { schema: { access: 'party', params: afterAccess(orderParams), response: { 200: entryOrderSchema } } },
    async (request) => service.enter.orderView((await orderAccess(request)).id),
  );

  app.post(
    '/api/entries/orders/:id/on-site',
    { schema: { access: 'party', params: afterAccess(orderParams), response: { 200: entryOrderSchema } } },
    async (request) => {
      const order = await orderAccess(request);
      return service.enter.payOnSite(order.id, requireUser(request).sub);
    },
  );

  app.get(
    '/api/entries/mine',
    { schema: { access: 'signed-in', response: { 200: z.array(myEntrySchema) } } },
    async (request) => service.self.mine(requireUser(request)),
  );

  // The caller's waitlist places, a race closed while waiting included (issue 38).
  app.get(
    '/api/entries/waitlists/mine',
    { schema: { access: 'signed-in', response: { 200: myWaitlistSchema } } },
    async (request) => myWaitlists(database, requireUser(request)),
  );

  app.get(
    '/api/entries/entry/:code',
    { schema: { access: 'party', params: afterAccess(codeParams), response: { 200: myEntrySchema } } },
    async (request) => service.self.one((await entryAccess(request)).entry),
  );

  app.get(
    '/api/entries/entry/:code/qr.svg',
    {
      schema: {
        access: 'party',
        params: afterAccess(codeParams),
        response: { 200: fileAnswer(['image/svg+xml'], 'The entry code as a QR code (pickup)') },
      },
    },
    async (request, reply) => {
      const { entry } = await entryAccess(request);
      const { default: QRCode } = await import('qrcode');
      const svg = await QRCode.toString(entry.code, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      return reply.type('image/svg+xml').header('cache-control', 'private, no-cache').send(svg);
    },
  );

  app.get(
    '/api/entries/entry/:code/calendar.ics',
    {
      schema: {
        access: 'party',
        params: afterAccess(codeParams),
        response: { 200: fileAnswer(['text/calendar'], 'The race day as a calendar file') },
      },
    },
    async (request, reply) => {
      const { entry } = await entryAccess(request);
      const view = await service.self.one(entry);
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', `attachment; filename="${entry.code}.ics"`)
        .send(calendar(view, app.config.publicUrl));
    },
  );

  app.post(
    '/api/entries/entry/:code/quote',
    {
      schema: {
        access: 'party',
        params: afterAccess(codeParams),
        body: afterAccess(entryActionInputSchema),
        response: { 200: entryQuoteSchema },
      },
    },
    async (request) => {
      const { entry } = await entryAccess(request);
      const { newEntryCents: _n, ...quote } = await service.self.quote(entry, checked(request, 'body'));
      return quote;
    },
  );

  app.post(
    '/api/entries/entry/:code/action',
    {
      schema: {
        access: 'party',
        params: afterAccess(codeParams),
        body: afterAccess(entryActionInputSchema),
        response: { 200: entryActionResultSchema },
      },
    },
    async (request) => {
      const { entry } = await entryAccess(request);
      return service.self.act(entry, checked(request, 'body'), requireUser(request));
    },
  );

  // A race's waitlist names the race alone: its event for the policy's draft rule
  // (policy/visibility.ts); a race of a draft answers outsiders as one taking no entries.
  app.visibility.addScope('race', {
    eventOf: (cache, race) => cache.eventOf('race', race),
    missing: () => errors.notFound('REGISTRATION_NOT_FOUND', 'This race takes no entries online'),
    routeAnswersMissing: true,
  });

  // A team's link names its event's data (the event's and race's names): a draft's team answers
  // outsiders as a missing one (policy/visibility.ts, route-draft.test.ts).
  app.visibility.addScope('teamToken', {
    eventOf: async (_cache, token) =>
      (
        await database.query<{ id: string }>(
          'SELECT event_id AS id FROM registration_teams WHERE token = $1',
          [token],
        )
      )[0]?.id ?? null,
    missing: () => errors.notFound('TEAM_NOT_FOUND', 'No such team'),
  });

  app.post(
    '/api/entries/events/:event/teams',
    {
      schema: {
        access: 'signed-in',
        params: eventParams,
        body: afterAccess(teamInputSchema),
        response: { 201: teamSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const team = await service.teams.create(user, request.params.event, checked(request, 'body'));
      return reply.code(201).send(team);
    },
  );

  app.get(
    '/api/entries/teams/:teamToken',
    { schema: { access: 'public', params: teamParams, response: { 200: teamSchema } } },
    async (request) => service.teams.view(request.params.teamToken, request.user?.sub ?? null),
  );

  app.post(
    '/api/entries/events/:event/teams/:teamToken/join',
    {
      schema: {
        access: 'signed-in',
        params: eventTeamParams,
        body: afterAccess(entryOrderInputSchema),
        response: { 201: teamJoinSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { event, teamToken } = request.params;
      const joined = await service.teams.join(user, event, teamToken, checked(request, 'body'));
      return reply.code(201).send(joined);
    },
  );

  app.post(
    '/api/entries/teams/:teamToken/order',
    {
      schema: {
        access: 'signed-in',
        params: teamParams,
        body: afterAccess(z.object({ lang: z.enum(['en', 'fr']).default('en') }).strict()),
        response: { 201: entryOrderSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { lang } = checked(request, 'body');
      const order = await service.teams.captainOrder(user, request.params.teamToken, lang);
      return reply.code(201).send(order);
    },
  );

  app.post(
    '/api/entries/races/:race/waitlist',
    {
      schema: {
        access: 'signed-in',
        params: raceParams,
        body: afterAccess(z.object({ lang: z.enum(['en', 'fr']).default('en') }).strict()),
        response: { 200: waitlistPlaceSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { lang } = checked(request, 'body');
      const race = await settingsRepo.raceRegistration(database, request.params.race);
      if (!race) throw errors.notFound('REGISTRATION_NOT_FOUND', 'This race takes no entries online');
      const [u] = await database.query<{ name: string }>(
        `SELECT trim(first_name || ' ' || last_name) AS name FROM users WHERE sub = $1::uuid`,
        [user.sub],
      );
      return database.transaction((sql) =>
        joinWaitlist(sql, race, { sub: user.sub, email: user.email, name: u?.name ?? '', lang }, new Date()),
      );
    },
  );
}
