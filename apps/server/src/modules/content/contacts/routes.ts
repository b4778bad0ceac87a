import { contactInputSchema, contactMessageSchema } from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errors } from '../../../errors.ts';
import { findEventOwner, requireEventAbility } from '../../../policy/policy.ts';
import { parseInput } from '../../../validate.ts';
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
export async function contactsRoutes(app: FastifyInstance) {
  app.get('/api/events/:id/contacts', async (request) => {
    const { id } = parseInput(eventParams, request.params, 'params');
    await findEventOwner(app.database, id);
    return repo.listContacts(app.database, id);
  });

  app.post('/api/events/:id/contacts', async (request, reply) => {
    const { id } = parseInput(eventParams, request.params, 'params');
    await requireEventAbility(request, app.database, id, 'create', 'Contact');
    const input = parseInput(contactInputSchema, request.body);
    reply.code(201);
    return repo.insertContact(app.database, id, input);
  });

  app.patch('/api/events/:id/contacts/:contactId', async (request) => {
    const { id, contactId } = parseInput(contactParams, request.params, 'params');
    await requireEventAbility(request, app.database, id, 'update', 'Contact');
    const patch = parseInput(contactInputSchema.partial(), request.body);
    const updated = await repo.updateContact(app.database, id, contactId, patch);
    if (!updated) throw errors.notFound('CONTACT_NOT_FOUND', 'No such contact');
    return updated;
  });

  app.delete('/api/events/:id/contacts/:contactId', async (request, reply) => {
    const { id, contactId } = parseInput(contactParams, request.params, 'params');
    await requireEventAbility(request, app.database, id, 'delete', 'Contact');
    if (!(await repo.deleteContact(app.database, id, contactId))) {
      throw errors.notFound('CONTACT_NOT_FOUND', 'No such contact');
    }
    reply.code(204);
  });

  app.post('/api/events/:id/contact', async (request, reply) => {
    const { id } = parseInput(eventParams, request.params, 'params');
    const event = await findEventOwner(app.database, id);
    const message = parseInput(contactMessageSchema, request.body);
    await app.limits.hit(request, reply, CONTACT_RATE, [
      `ip:${request.ip}`,
      `sender:${message.email.toLowerCase()}`,
    ]);
    // A filled honeypot: answer as if sent so the bot learns nothing, but keep and send nothing.
    if (message.website) return { ok: true };
    await repo.insertMessage(app.database, id, message, request.ip);
    const mail = contactMail(event.name, message);
    for (const to of await repo.messageRecipients(app.database, id)) await app.outbox.send({ to, ...mail });
    return { ok: true };
  });
}
