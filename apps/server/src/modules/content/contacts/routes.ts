import {
  contactInputSchema,
  contactMessageSchema,
  contactSchema,
  contactSentSchema,
  noContentSchema,
} from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errors } from '../../../errors.ts';
import { afterAccess, checked, type ZodTypeProvider } from '../../../lib/zod-routes.ts';
import { findEventOwner, requireEventAbility } from '../../../policy/policy.ts';
import { eventParams } from '../events/routes.ts';
import * as repo from './repository.ts';
import { contactMail } from './service.ts';

const contactParams = eventParams.extend({ contactId: z.string().uuid() });

/**
 * Contact form messages: 5 per 10 minutes per client address, and as many per sender address
 * (product.md: rate limits on contact forms; issue 13: keyed on the real address, plus a second key).
 */
export const CONTACT_RATE = { name: 'contact', max: 5, windowMs: 10 * 60_000 };

/**
 * Contacts (issue 8): the event's contacts, organiser CRUD (ability on Contact), and the contact
 * form: validated, rate-limited per IP, a honeypot (`website`) whose bots get a silent success,
 * stored, and e-mailed to the organiser through the outbox.
 */
export async function contactsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/events/:eventId/contacts',
    { schema: { access: 'public', params: eventParams, response: { 200: z.array(contactSchema) } } },
    async (request) => {
      const { eventId: id } = request.params;
      await findEventOwner(app.database, id);
      return repo.listContacts(app.database, id);
    },
  );

  app.post(
    '/api/events/:eventId/contacts',
    {
      schema: {
        access: 'manager',
        params: eventParams,
        body: afterAccess(contactInputSchema),
        response: { 201: contactSchema },
      },
    },
    async (request, reply) => {
      const { eventId: id } = request.params;
      await requireEventAbility(request, app.database, id, 'create', 'Contact');
      const input = checked(request, 'body');
      reply.code(201);
      return repo.insertContact(app.database, id, input);
    },
  );

  app.patch(
    '/api/events/:eventId/contacts/:contactId',
    {
      schema: {
        access: 'manager',
        params: contactParams,
        body: afterAccess(contactInputSchema.partial()),
        response: { 200: contactSchema },
      },
    },
    async (request) => {
      const { eventId: id, contactId } = request.params;
      await requireEventAbility(request, app.database, id, 'update', 'Contact');
      const patch = checked(request, 'body');
      const updated = await repo.updateContact(app.database, id, contactId, patch);
      if (!updated) throw errors.notFound('CONTACT_NOT_FOUND', 'No such contact');
      return updated;
    },
  );

  app.delete(
    '/api/events/:eventId/contacts/:contactId',
    { schema: { access: 'manager', params: contactParams, response: { 204: noContentSchema } } },
    async (request, reply) => {
      const { eventId: id, contactId } = request.params;
      await requireEventAbility(request, app.database, id, 'delete', 'Contact');
      if (!(await repo.deleteContact(app.database, id, contactId))) {
        throw errors.notFound('CONTACT_NOT_FOUND', 'No such contact');
      }
      reply.code(204);
    },
  );

  app.post(
    '/api/events/:eventId/contact',
    {
      schema: {
        access: 'public',
        params: eventParams,
        body: afterAccess(contactMessageSchema),
        response: { 200: contactSentSchema },
      },
    },
    async (request, reply) => {
      const { eventId: id } = request.params;
      const event = await findEventOwner(app.database, id);
      const message = checked(request, 'body');
      await app.limits.hit(request, reply, CONTACT_RATE, [
        `ip:${request.ip}`,
        `sender:${message.email.toLowerCase()}`,
      ]);
      // A filled honeypot: answer as if sent so the bot learns nothing, but keep and send nothing.
      if (message.website) return { ok: true as const };
      await repo.insertMessage(app.database, id, message, request.ip);
      for (const to of await repo.messageRecipients(app.database, id))
        await app.outbox.send({ to: to.email, ...contactMail(event.name, message, to.lng) });
      return { ok: true as const };
    },
  );
}
