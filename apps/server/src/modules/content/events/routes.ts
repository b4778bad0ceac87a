import { eventDetailSchema, eventPatchSchema, eventSummarySchema } from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errors } from '../../../errors.ts';
import { afterAccess, checked, type ZodTypeProvider } from '../../../lib/zod-routes.ts';
import { requireEventAbility } from '../../../policy/policy.ts';
import { findEvent, listEvents, updateEvent } from './repository.ts';

const listQuery = z.object({
  q: z.string().trim().max(100).optional(),
  when: z.enum(['live', 'upcoming', 'past']).optional(),
});
/** An event id as the params of every `events/{id}/…` route. */
export const eventParams = z.object({ eventId: z.string().min(1).max(100) });

/**
 * Events for the home and event pages: `GET /api/events?q=&when=`, `GET /api/events/{id}`, and
 * the organiser's `PATCH /api/events/{id}` (ability `update Event` on the event's organisation).
 */
export async function eventsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/events',
    { schema: { access: 'public', querystring: listQuery, response: { 200: z.array(eventSummarySchema) } } },
    async (request) => {
      return listEvents(app.database, request.query);
    },
  );

  app.get(
    '/api/events/:eventId',
    { schema: { access: 'public', params: eventParams, response: { 200: eventDetailSchema } } },
    async (request) => {
      const { eventId: id } = request.params;
      const event = await findEvent(app.database, id);
      if (!event) throw errors.notFound('EVENT_NOT_FOUND', `No event '${id}'`);
      return event;
    },
  );

  app.patch(
    '/api/events/:eventId',
    {
      schema: {
        rules: { endDate: 'on or after the start date (the one sent, else the event’s)' },
        access: 'manager',
        params: eventParams,
        body: afterAccess(eventPatchSchema),
        response: { 200: eventDetailSchema.nullable() },
      },
    },
    async (request) => {
      const { eventId: id } = request.params;
      await requireEventAbility(request, app.database, id, 'update', 'Event');
      const patch = checked(request, 'body');
      const current = await findEvent(app.database, id);
      const start = patch.startDate ?? current?.startDate ?? '';
      const end = patch.endDate ?? current?.endDate ?? '';
      if (end < start) {
        throw errors.badRequest('VALIDATION_FAILED', 'Invalid body', [
          { field: 'endDate', message: 'on or after the start date' },
        ]);
      }
      await updateEvent(app.database, id, patch);
      return findEvent(app.database, id);
    },
  );
}
