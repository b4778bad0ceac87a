import { type DepositSettings, depositSettingsSchema } from '@tempora/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errors } from '../../errors.ts';
import { afterAccess, checked, type ZodTypeProvider } from '../../lib/zod-routes.ts';
import { requireEventStaff } from '../../policy/policy.ts';
import { expireOrders } from './confirm.ts';
import * as repo from './repository.ts';

const eventParams = z.object({ event: z.string().min(1).max(100) });

/**
 * The organiser staff's group-entry settings of an event (open, deadline, fees, capacities, and
 * the payment terms the payments module reads) and the expiry of unpaid deposits. Served under
 * `/api/payments/staff/…` beside the payments' staff routes (the console's payments page), but
 * owned here: the deposits module is the one writer of `deposit_settings` and `deposits` (issue 30).
 */
export async function depositStaffRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app;
  const staffOf = async (request: FastifyRequest<{ Params: { event: string } }>) =>
    requireEventStaff(request, database, request.params.event);

  app.get(
    '/api/payments/staff/events/:event/settings',
    { schema: { access: 'manager', params: eventParams, response: { 200: depositSettingsSchema } } },
    async (request) => {
      const event = await staffOf(request);
      const s = await repo.findSettings(database, event.id);
      return {
        open: s?.open ?? false,
        entryDeadline: s?.entryDeadline ?? null,
        currency: s?.currency ?? 'EUR',
        fees: s?.fees ?? {},
        capacities: s?.capacities ?? {},
        orderExpiryDays: s?.orderExpiryDays ?? 14,
        refundPolicy: (s?.refundPolicy ?? { kind: 'none' }) as DepositSettings['refundPolicy'],
        beneficiary: s?.beneficiary ?? '',
        iban: s?.iban ?? '',
      };
    },
  );

  app.put(
    '/api/payments/staff/events/:event/settings',
    {
      schema: {
        access: 'manager',
        params: eventParams,
        body: afterAccess(depositSettingsSchema),
        response: { 200: depositSettingsSchema },
      },
    },
    async (request) => {
      const event = await staffOf(request);
      const input = checked(request, 'body');
      const races = new Set((await repo.racesOfEvent(database, event.id)).map((r) => r.id));
      const unknown = [...Object.keys(input.fees), ...Object.keys(input.capacities)].filter(
        (r) => !races.has(r),
      );
      if (unknown.length) {
        throw errors.badRequest(
          'RACE_NOT_FOUND',
          'Not races of this event',
          unknown.map((r) => ({ field: `fees.${r}`, message: 'no such race' })),
        );
      }
      await repo.upsertSettings(database, { ...input, eventId: event.id });
      return input;
    },
  );

  app.post(
    '/api/payments/staff/events/:event/expire',
    {
      schema: {
        access: 'manager',
        params: eventParams,
        response: { 200: z.object({ expired: z.number() }) },
      },
    },
    async (request) => {
      await staffOf(request);
      return { expired: await expireOrders(database, new Date()) };
    },
  );
}
