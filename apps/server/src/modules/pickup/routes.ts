import {
  pickupCodeSchema,
  pickupConflictSchema,
  pickupDashboardSchema,
  pickupDnsAnswerSchema,
  pickupDnsInputSchema,
  pickupListSchema,
  pickupOpsAnswerSchema,
  pickupOpsInputSchema,
  pickupPdfQuerySchema,
  pickupResolveInputSchema,
  pickupRunnerSchema,
} from '@tempora/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { logoPng } from '../../lib/event-logo.ts';
import { afterAccess, checked, fileAnswer, type ZodTypeProvider } from '../../lib/zod-routes.ts';
import { requireEventAbility, requireEventStaff, requireUser } from '../../policy/policy.ts';
import { longDate } from '../exports/port.ts';
import { pickupPdf } from './pdf.ts';
import type { PickupService } from './service.ts';

const eventParams = z.object({ event: z.string().min(1).max(100) });
const codeParams = eventParams.extend({ code: pickupCodeSchema });
const conflictParams = eventParams.extend({ id: z.string().regex(/^\d{1,18}$/) });

/**
 * Pickup routes (issue 39). The volunteer's (`pickup` access): the event's pickup staff, owners
 * and staff (`manage Pickup`; 401 anonymous, 404 no event, 403 anyone else — the event is public).
 * The organiser's (`manager`): the dashboard, DNS after the start, the paper list.
 */
export async function pickupRoutes(
  fastify: FastifyInstance,
  { service, dataDir }: { service: PickupService; dataDir: string },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app;
  const base = '/api/pickup/events/:event';
  /** The event with its zone, once the caller may do pickup. */
  const eventOf = async (owner: { id: string; name: string }) => {
    const [row] = await database.query<{
      timeZone: string;
      place: string;
      startDate: string;
      branding: Record<string, string>;
    }>(
      `SELECT time_zone AS "timeZone", place, to_char(start_date, 'YYYY-MM-DD') AS "startDate", branding FROM events WHERE id = $1`,
      [owner.id],
    );
    return { id: owner.id, name: owner.name, ...(row as NonNullable<typeof row>) };
  };
  const volunteer = async (request: FastifyRequest, eventId: string) =>
    eventOf(await requireEventAbility(request, database, eventId, 'manage', 'Pickup'));
  const organiser = async (request: FastifyRequest, eventId: string) =>
    eventOf(await requireEventStaff(request, database, eventId));
  const actor = (request: FastifyRequest) => {
    const user = requireUser(request);
    return { sub: user.sub, email: user.email };
  };

  app.get(
    `${base}/list`,
    { schema: { access: 'pickup', params: eventParams, response: { 200: pickupListSchema } } },
    async (request, reply) => {
      const event = await volunteer(request, request.params.event);
      reply.header('cache-control', 'private, no-store');
      return service.views.list(event);
    },
  );

  app.get(
    `${base}/entries/:code`,
    { schema: { access: 'pickup', params: afterAccess(codeParams), response: { 200: pickupRunnerSchema } } },
    async (request) => {
      requireUser(request);
      const { event, code }: { event: string; code: string } = checked(request, 'params');
      const owner = await volunteer(request, event);
      return service.views.card(owner.id, code);
    },
  );

  app.post(
    `${base}/ops`,
    {
      schema: {
        access: 'pickup',
        params: eventParams,
        body: afterAccess(pickupOpsInputSchema),
        response: { 200: pickupOpsAnswerSchema },
      },
    },
    async (request) => {
      const event = await volunteer(request, request.params.event);
      const { ops } = checked(request, 'body');
      return { answers: await service.ops.run(event.id, ops, actor(request)) };
    },
  );

  app.get(
    `${base}/conflicts`,
    { schema: { access: 'pickup', params: eventParams, response: { 200: z.array(pickupConflictSchema) } } },
    async (request) => service.views.conflicts((await volunteer(request, request.params.event)).id),
  );

  app.post(
    `${base}/conflicts/:id/resolve`,
    {
      schema: {
        access: 'pickup',
        params: afterAccess(conflictParams),
        body: afterAccess(pickupResolveInputSchema),
        response: { 200: pickupConflictSchema },
      },
    },
    async (request) => {
      requireUser(request);
      const { event, id }: { event: string; id: string } = checked(request, 'params');
      const owner = await volunteer(request, event);
      const { keep } = checked(request, 'body');
      return service.views.resolve(owner.id, id, keep, actor(request));
    },
  );

  app.get(
    `${base}/dashboard`,
    { schema: { access: 'manager', params: eventParams, response: { 200: pickupDashboardSchema } } },
    async (request) => service.dashboard.figures(await organiser(request, request.params.event)),
  );

  app.post(
    `${base}/dns`,
    {
      schema: {
        access: 'manager',
        params: eventParams,
        body: afterAccess(pickupDnsInputSchema),
        response: { 200: pickupDnsAnswerSchema },
      },
    },
    async (request) => {
      const event = await organiser(request, request.params.event);
      return service.dashboard.markDns(event.id, checked(request, 'body').raceId, actor(request));
    },
  );

  app.get(
    `${base}/list.pdf`,
    {
      schema: {
        access: 'manager',
        params: eventParams,
        querystring: afterAccess(pickupPdfQuerySchema),
        response: { 200: fileAnswer(['application/pdf'], 'The pickup list on paper') },
      },
    },
    async (request, reply) => {
      const event = await organiser(request, request.params.event);
      const query = checked(request, 'querystring');
      const list = await service.views.list(event);
      const lng = query.lng ?? list.event.lang;
      const race = list.races.find((r) => r.id === query.race);
      const color = event.branding?.color ?? '';
      reply.header('content-disposition', `attachment; filename="pickup-${event.id}.pdf"`);
      reply.header('cache-control', 'private, no-cache');
      return reply.type('application/pdf').send(
        pickupPdf(list.runners, query, {
          eventName: event.name,
          color: /^#[0-9a-fA-F]{6}$/.test(color) ? color : '#39aade',
          tagline: event.branding?.tagline ?? '',
          place: event.place,
          raceName: race?.name ?? '',
          date: longDate(event.startDate, lng),
          timeZone: event.timeZone,
          lng,
          logo: await logoPng(dataDir, event.id),
        }),
      );
    },
  );
}
