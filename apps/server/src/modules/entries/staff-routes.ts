import { Readable } from 'node:stream';
import {
  entryCodeSchema,
  entryHistorySchema,
  manualEntryInputSchema,
  registrationSettingsSchema,
  registrationSettingsViewSchema,
  staffEntriesQuerySchema,
  staffEntriesSchema,
  staffEntrySchema,
} from '@tempora/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errors } from '../../errors.ts';
import { afterAccess, checked, fileAnswer, type ZodTypeProvider } from '../../lib/zod-routes.ts';
import { requireEventStaff, requireUser } from '../../policy/policy.ts';
import { csvChunks, xlsxStream } from '../exports/port.ts';
import type { EntriesService } from './service.ts';

const eventParams = z.object({ event: z.string().min(1).max(100) });
const codeParams = eventParams.extend({ code: entryCodeSchema });
const raceParams = eventParams.extend({ race: z.string().min(1).max(100) });
const exportParams = eventParams.extend({ format: z.enum(['csv', 'xlsx']) });

/**
 * The organiser's routes of online entries (issue 38): owners and staff of the event's
 * organisation (`requireEventStaff`: 401, 404 for no event, 403 for anyone else — the event is public).
 */
export async function entryStaffRoutes(fastify: FastifyInstance, { service }: { service: EntriesService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app;
  const staffOf = (request: FastifyRequest<{ Params: { event: string } }>) =>
    requireEventStaff(request, database, request.params.event);
  const base = '/api/entries/staff/events/:event';

  app.get(
    `${base}/settings`,
    { schema: { access: 'manager', params: eventParams, response: { 200: registrationSettingsViewSchema } } },
    async (request) => service.settings.view((await staffOf(request)).id),
  );

  app.put(
    `${base}/settings`,
    {
      schema: {
        access: 'manager',
        params: eventParams,
        body: afterAccess(registrationSettingsSchema),
        response: { 200: registrationSettingsViewSchema },
      },
    },
    async (request) => {
      const event = await staffOf(request);
      return service.settings.save(event.id, checked(request, 'body'));
    },
  );

  app.get(
    `${base}/entries`,
    {
      schema: {
        access: 'manager',
        params: eventParams,
        querystring: afterAccess(staffEntriesQuerySchema),
        response: { 200: staffEntriesSchema },
      },
    },
    async (request) => service.staff.list((await staffOf(request)).id, checked(request, 'querystring')),
  );

  app.get(
    `${base}/entries/:code`,
    {
      schema: {
        access: 'manager',
        params: afterAccess(codeParams),
        response: { 200: z.object({ entry: staffEntrySchema, history: entryHistorySchema }) },
      },
    },
    async (request) => {
      requireUser(request);
      const { event, code }: { event: string; code: string } = checked(request, 'params');
      const owner = await requireEventStaff(request, database, event);
      return { entry: await service.staff.entry(owner.id, code), history: await service.staff.history(code) };
    },
  );

  app.get(
    `${base}/export.:format`,
    {
      schema: {
        access: 'manager',
        params: exportParams,
        querystring: z.object({ lng: z.enum(['en', 'fr']).default('en') }),
        response: {
          200: fileAnswer(
            ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
            'The entries with their answers as a CSV or XLSX file',
          ),
        },
      },
    },
    async (request, reply) => {
      const event = await staffOf(request);
      const { lng } = request.query;
      const table = await service.staff.table(event.id, lng);
      reply.header(
        'content-disposition',
        `attachment; filename="entries-${event.id}.${request.params.format}"`,
      );
      reply.header('cache-control', 'private, no-cache');
      if (request.params.format === 'csv')
        return reply
          .type('text/csv; charset=utf-8')
          .send(Readable.from(csvChunks(table, lng === 'fr' ? ';' : ',')));
      return reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .send(xlsxStream(table));
    },
  );

  app.post(
    `${base}/manual`,
    {
      schema: {
        access: 'manager',
        params: eventParams,
        body: afterAccess(manualEntryInputSchema),
        response: { 201: staffEntrySchema },
      },
    },
    async (request, reply) => {
      const event = await staffOf(request);
      const entry = await service.staff.manual(event.id, checked(request, 'body'), requireUser(request).sub);
      return reply.code(201).send(entry);
    },
  );

  app.post(
    `${base}/races/:race/release`,
    {
      schema: {
        access: 'manager',
        params: raceParams,
        body: afterAccess(z.object({ places: z.number().int().min(1).max(100_000) }).strict()),
        response: { 200: z.object({ invited: z.number() }) },
      },
    },
    async (request) => {
      const event = await staffOf(request);
      const [race] = await database.query<{ eventId: string }>(
        'SELECT event_id AS "eventId" FROM registration_races WHERE race_id = $1',
        [request.params.race],
      );
      if (!race || race.eventId !== event.id)
        throw errors.notFound('REGISTRATION_NOT_FOUND', 'This race takes no entries online');
      return service.staff.release(request.params.race, checked(request, 'body').places);
    },
  );

  app.post(
    `${base}/expire`,
    {
      schema: {
        access: 'manager',
        params: eventParams,
        // `closed`: runners still waiting in races now closed, told so (once) by mail; `lapsed`:
        // runners whose invitation ran out unused, told so (once) by mail.
        response: {
          200: z.object({ expired: z.number(), invited: z.number(), closed: z.number(), lapsed: z.number() }),
        },
      },
    },
    async (request) => {
      const event = await staffOf(request);
      const done = await service.sweep.expire(event.id);
      await service.sweep.refundLate();
      return done;
    },
  );
}
