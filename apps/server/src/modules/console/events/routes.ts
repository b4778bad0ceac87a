import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  consoleContextSchema,
  consoleEventDetailSchema,
  consoleEventSchema,
  contextCreateSchema,
  contextUpdateSchema,
  eventCreateSchema,
  eventUpdateSchema,
  noContentSchema,
} from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import type Sharp from 'sharp';
import { lazyRequire } from '../../../lib/lazy-require.ts';

const sharp = lazyRequire<typeof Sharp>('sharp');

import { z } from 'zod';
import { organisationKey } from '../../../db/organisation-keys.ts';
import { errors } from '../../../errors.ts';
import { logoFile } from '../../../lib/event-logo.ts';
import { imageType } from '../../../lib/image-type.ts';
import { afterAccess, checked, fileAnswer, type ZodTypeProvider } from '../../../lib/zod-routes.ts';
import { allows, contextFor, eventFor, organisationFor } from '../../../policy/policy.ts';
import { dbParams, eventParams, logoParams, orgParams } from '../schemas.ts';
import * as repo from './repository.ts';

/**
 * Status moves (issue 14: upcoming → live → finished, "and back where sensible"): a live event
 * may go back to upcoming (a false start) and a finished one back to live (results reopened); an
 * upcoming event may be closed as finished (results imported afterwards). Finished never becomes
 * upcoming again.
 */
const STATUS_MOVES: Record<string, readonly string[]> = {
  upcoming: ['live', 'finished'],
  live: ['upcoming', 'finished'],
  finished: ['live'],
};

export { logoFile } from '../../../lib/event-logo.ts';

/** Events, their logo and their contexts (timing databases), in the organiser console. */
export async function eventRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app;

  async function detail(eventId: string) {
    const event = await repo.eventById(database, eventId);
    if (!event) throw errors.notFound('EVENT_NOT_FOUND', `No event '${eventId}'`);
    const [org] = await database.query<{ id: string; name: string }>(
      'SELECT id, name FROM organisations WHERE id = $1',
      [event.organisationId],
    );
    return {
      ...event,
      organisation: org!,
      contexts: await repo.contextsOf(database, eventId),
      races: await repo.racesOfEvent(database, eventId),
    };
  }

  app.get(
    '/api/console/organisations/:orgId/events',
    { schema: { access: 'timekeeper', params: orgParams, response: { 200: z.array(consoleEventSchema) } } },
    async (request) => {
      const { orgId } = request.params;
      const org = await organisationFor(request, database, orgId, 'read');
      return repo.eventsOfOrganisation(database, org.id);
    },
  );

  app.post(
    '/api/console/organisations/:orgId/events',
    {
      schema: {
        access: 'manager',
        params: orgParams,
        body: afterAccess(eventCreateSchema),
        response: { 201: consoleEventDetailSchema },
      },
    },
    async (request, reply) => {
      const { orgId } = request.params;
      const org = await organisationFor(request, database, orgId, 'read');
      if (!allows(request, 'create', 'Event', { organisationId: org.id }))
        throw errors.forbidden('Your role does not allow creating events');
      const body = checked(request, 'body');
      // Issue 41: an id another organisation holds is made this one's (db/organisation-keys.ts);
      // only an event of this organisation refuses it, and the answer names the id kept.
      const id = body.id
        ? await organisationKey(database, 'event', body.id, org.id)
        : await repo.freeEventId(database, body.name, body.startDate);
      if (!id) throw errors.conflict('EVENT_EXISTS', `Your organisation has an event '${body.id}' already`);
      await repo.insertEvent(database, {
        id,
        organisationId: org.id,
        name: body.name,
        startDate: body.startDate,
        endDate: body.endDate,
        place: body.place,
        placeLat: body.placeLat,
        placeLon: body.placeLon,
        timeZone: body.timeZone,
        visibility: body.visibility,
        status: body.status,
        branding: {
          ...(body.accentColor ? { color: body.accentColor } : {}),
          ...(body.tagline ? { tagline: body.tagline } : {}),
        },
      });
      if (body.context) {
        const db =
          (await organisationKey(database, 'context', id, org.id)) ??
          (await organisationKey(database, 'context', `${id.slice(0, 60)}-ctx`, org.id));
        if (db)
          await database.query('INSERT INTO contexts (db, event_id, name) VALUES ($1, $2, $3)', [
            db,
            id,
            body.name.slice(0, 120),
          ]);
      }
      return reply.code(201).send(await detail(id));
    },
  );

  app.get(
    '/api/console/events/:eventId',
    { schema: { access: 'timekeeper', params: eventParams, response: { 200: consoleEventDetailSchema } } },
    async (request) => {
      const { eventId } = request.params;
      await eventFor(request, database, eventId, 'read');
      return detail(eventId);
    },
  );

  app.patch(
    '/api/console/events/:eventId',
    {
      schema: {
        rules: { endDate: 'on or after the start date (the one sent, else the event’s)' },
        access: 'manager',
        params: eventParams,
        body: afterAccess(eventUpdateSchema),
        response: { 200: consoleEventDetailSchema },
      },
    },
    async (request) => {
      const { eventId } = request.params;
      await eventFor(request, database, eventId, 'update');
      const patch = checked(request, 'body');
      const current = (await repo.eventById(database, eventId))!;
      const start = patch.startDate ?? current.startDate;
      const end = patch.endDate ?? current.endDate;
      if (end < start)
        throw errors.badRequest('VALIDATION_FAILED', 'Invalid body', [
          { field: 'endDate', message: 'on or after the start date' },
        ]);
      if (
        patch.status !== undefined &&
        patch.status !== current.status &&
        !STATUS_MOVES[current.status]?.includes(patch.status)
      )
        throw errors.badRequest('VALIDATION_FAILED', 'Invalid body', [
          { field: 'status', message: `cannot go from ${current.status} to ${patch.status}` },
        ]);
      await repo.updateEvent(database, eventId, patch);
      await app.visibility.forget();
      if (patch.timeZone !== undefined && patch.timeZone !== current.timeZone) {
        // Reports show times of day in the event's zone: their cached tables are redrawn.
        await database.query(
          'UPDATE races SET epoch = epoch + 1 WHERE db IN (SELECT db FROM contexts WHERE event_id = $1)',
          [eventId],
        );
        for (const c of await repo.contextsOf(database, eventId)) await app.results.reload(c.db);
      }
      return detail(eventId);
    },
  );

  app.delete(
    '/api/console/events/:eventId',
    { schema: { access: 'manager', params: eventParams, response: { 204: noContentSchema } } },
    async (request, reply) => {
      const { eventId } = request.params;
      await eventFor(request, database, eventId, 'delete');
      const contexts = await repo.contextsOf(database, eventId);
      await database.transaction(async (sql) => {
        const [held] = await sql.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM passings p JOIN contexts c ON c.db = p.db WHERE c.event_id = $1',
          [eventId],
        );
        if (held!.n > 0)
          throw errors.conflict(
            'EVENT_HAS_PASSINGS',
            `The event holds ${held!.n} passings; it can no longer be deleted`,
          );
        // Its documents, deposits and orders are the organiser's and the payers' records: they are
        // never deleted with it; the answer names them, to delete or keep (issue 41).
        const holders = await repo.eventHolders(sql, eventId);
        if (holders.length)
          throw errors.conflict(
            'EVENT_IN_USE',
            `The event is still held by ${holders.map((h) => `${h.rows} ${h.table.replace(/_/g, ' ')}`).join(', ')}; delete those first`,
          );
        const dbs = contexts.map((c) => c.db);
        await sql.query('DELETE FROM reports WHERE db = ANY($1::text[])', [dbs]);
        await sql.query('DELETE FROM report_groups WHERE db = ANY($1::text[])', [dbs]);
        await sql.query('DELETE FROM races WHERE db = ANY($1::text[])', [dbs]);
        await sql.query('DELETE FROM devices WHERE db = ANY($1::text[])', [dbs]);
        await sql.query('DELETE FROM contexts WHERE event_id = $1', [eventId]);
        await sql.query('DELETE FROM events WHERE id = $1', [eventId]);
      });
      for (const c of contexts) await app.results.reload(c.db);
      await app.visibility.forget();
      await fs.rm(logoFile(app.config.dataDir, eventId), { force: true });
      return reply.code(204).send();
    },
  );

  // The body is the image's bytes (image/png, image/jpeg or image/webp), checked below.
  app.put(
    '/api/console/events/:eventId/logo',
    {
      bodyLimit: 2 * 1024 * 1024,
      schema: { access: 'manager', params: eventParams, response: { 200: consoleEventDetailSchema } },
    },
    async (request) => {
      const { eventId } = request.params;
      await eventFor(request, database, eventId, 'update');
      const body = request.body;
      if (!Buffer.isBuffer(body) || !imageType(body))
        throw errors.badRequest(
          'IMAGE_REQUIRED',
          'Send a PNG, JPEG or WebP image as the body (image/png, image/jpeg, image/webp)',
        );
      let webp: Buffer;
      try {
        webp = await sharp()(body)
          .rotate()
          .resize(512, 512, { fit: 'inside', withoutEnlargement: true })
          .webp()
          .toBuffer();
      } catch {
        throw errors.badRequest('IMAGE_UNREADABLE', 'The image cannot be read');
      }
      const file = logoFile(app.config.dataDir, eventId);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, webp);
      const version = crypto.createHash('sha256').update(webp).digest('hex').slice(0, 12);
      await database.query('UPDATE events SET logo_version = $2, updated_at = now() WHERE id = $1', [
        eventId,
        version,
      ]);
      return detail(eventId);
    },
  );

  app.delete(
    '/api/console/events/:eventId/logo',
    { schema: { access: 'manager', params: eventParams, response: { 200: consoleEventDetailSchema } } },
    async (request) => {
      const { eventId } = request.params;
      await eventFor(request, database, eventId, 'update');
      await database.query('UPDATE events SET logo_version = NULL, updated_at = now() WHERE id = $1', [
        eventId,
      ]);
      await fs.rm(logoFile(app.config.dataDir, eventId), { force: true });
      return detail(eventId);
    },
  );

  /**
   * The logo, for spectators too (a draft event's only for its members, see policy/visibility.ts): an
   * image (image/webp).
   */
  app.get(
    '/api/events/:eventId/logo',
    {
      schema: {
        access: 'public',
        params: logoParams,
        response: { 200: fileAnswer(['image/webp'], 'The logo') },
      },
    },
    async (request, reply) => {
      const { eventId: id } = request.params;
      const [row] = await database.query<{ v: string | null }>(
        'SELECT logo_version AS v FROM events WHERE id = $1',
        [id],
      );
      if (!row?.v) throw errors.notFound('LOGO_NOT_FOUND', 'This event has no logo');
      const bytes = await fs.readFile(logoFile(app.config.dataDir, id)).catch(() => null);
      if (!bytes) throw errors.notFound('LOGO_NOT_FOUND', 'This event has no logo');
      return reply
        .type('image/webp')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(bytes);
    },
  );

  app.post(
    '/api/console/events/:eventId/contexts',
    {
      schema: {
        access: 'manager',
        params: eventParams,
        body: afterAccess(contextCreateSchema),
        response: { 201: consoleContextSchema },
      },
    },
    async (request, reply) => {
      const { eventId } = request.params;
      const event = await eventFor(request, database, eventId, 'update');
      const body = checked(request, 'body');
      // Issue 41: one namespace per organisation (db/organisation-keys.ts).
      const db = await organisationKey(database, 'context', body.db, event.organisationId);
      if (!db)
        throw errors.conflict('CONTEXT_EXISTS', `Your organisation has a context '${body.db}' already`);
      await database.query('INSERT INTO contexts (db, event_id, name) VALUES ($1, $2, $3)', [
        db,
        eventId,
        body.name,
      ]);
      return reply.code(201).send({ db, name: body.name, races: 0 });
    },
  );

  app.patch(
    '/api/console/contexts/:db',
    {
      schema: {
        access: 'manager',
        params: dbParams,
        body: afterAccess(contextUpdateSchema),
        response: { 200: consoleContextSchema },
      },
    },
    async (request) => {
      const { db } = request.params;
      const ctx = await contextFor(request, database, db, 'update');
      const body = checked(request, 'body');
      await database.query('UPDATE contexts SET name = $2 WHERE db = $1', [db, body.name]);
      return (await repo.contextsOf(database, ctx.eventId)).find((c) => c.db === db);
    },
  );

  app.delete(
    '/api/console/contexts/:db',
    { schema: { access: 'manager', params: dbParams, response: { 204: noContentSchema } } },
    async (request, reply) => {
      const { db } = request.params;
      await contextFor(request, database, db, 'update');
      await database.transaction(async (sql) => {
        const [held] = await sql.query<{ races: number; passings: number }>(
          `SELECT (SELECT count(*)::int FROM races WHERE db = $1) AS races,
                (SELECT count(*)::int FROM passings WHERE db = $1) AS passings`,
          [db],
        );
        if (held!.races > 0 || held!.passings > 0)
          throw errors.conflict(
            'CONTEXT_NOT_EMPTY',
            'Delete its races first (a context holding passings stays)',
          );
        await sql.query('DELETE FROM report_groups WHERE db = $1', [db]);
        await sql.query('DELETE FROM devices WHERE db = $1', [db]);
        await sql.query('DELETE FROM contexts WHERE db = $1', [db]);
      });
      await app.results.reload(db);
      await app.visibility.forget();
      return reply.code(204).send();
    },
  );
}
