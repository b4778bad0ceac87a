import {
  bulkActionSchema,
  confirmationDocumentParams,
  confirmationEventParams,
  confirmationEventSchema,
  confirmationRaceParams,
  confirmationRowParams,
  confirmInputSchema,
  confirmResultSchema,
  createDocumentSchema,
  type DocumentRow,
  documentDetailSchema,
  documentListQuery,
  documentListSchema,
  documentOrderSchema,
  documentReportSchema,
  documentRowSchema,
  documentUploadQuery,
  eventDocumentsSchema,
  mappingInputSchema,
  raceSettingsAnswerSchema,
  raceSettingsSchema,
  rejectInputSchema,
  rowEditsSchema,
} from '@tempora/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/database.ts';
import { errors } from '../../errors.ts';
import { afterAccess, checked, type ZodTypeProvider } from '../../lib/zod-routes.ts';
import { allows, hideFromOutsiders } from '../../policy/policy.ts';
import { documentOrder } from '../payments/port.ts';
import { confirmRows } from './confirm.ts';
import { buildReport, reportPdf, reportXlsx } from './report.ts';
import * as repo from './repository.ts';
import type { Actor, ConfirmationService } from './service.ts';

type Action = 'read' | 'create' | 'update';

const FILE_TYPES = [
  'application/octet-stream',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-excel',
];

/** The document of most routes: its id checked once the caller is signed in (loadDocument). */
const documentParams = afterAccess(confirmationDocumentParams);
/** `?lng=en|fr`: the language the PDF and XLSX are written in (the console passes its own). */
const reportLngQuery = z.object({ lng: z.enum(['en', 'fr']).default('en') });
/** A missing body confirms every clean pending row (bulk), as `{}` does. */
const confirmBody = z.preprocess((body) => body ?? {}, confirmInputSchema);

/** A stored row as the API shows it. */
function toRow(r: repo.RowRecord): DocumentRow {
  return {
    id: r.id,
    position: r.position,
    raw: r.raw,
    fields: r.fields,
    issues: r.issues,
    duplicateOf: r.duplicateOf,
    category: r.category,
    decision: r.decision,
    reason: r.reason,
    participant:
      r.participantRaceId && r.participantBib
        ? { id: r.participantId, raceId: r.participantRaceId, bib: r.participantBib }
        : null,
    change: r.change,
  };
}

/**
 * Routes of the confirmation module (contract: packages/contracts/src/confirmation.ts). Every
 * route needs a user (401) whose abilities allow `Confirmation` of the event's organisation
 * (403); an unknown document, event or race is a 404. Changes to one document run one at a time.
 */
export async function confirmationRoutes(
  fastify: FastifyInstance,
  opts: { service: ConfirmationService; database: Database },
) {
  const { service, database } = opts;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addContentTypeParser(FILE_TYPES, { parseAs: 'buffer', bodyLimit: 20 * 1024 * 1024 }, (_r, body, done) =>
    done(null, body),
  );

  const can = (request: FastifyRequest, action: Action, organisationId: string) =>
    allows(request, action, 'Confirmation', { organisationId });

  function actorOf(request: FastifyRequest): Actor {
    if (!request.user) throw errors.unauthorized();
    return { sub: request.user.sub, email: request.user.email };
  }

  /** The organisations whose documents the caller sees; null: every organisation. */
  function scopeOf(request: FastifyRequest): string[] | null {
    actorOf(request);
    if (can(request, 'read', '00000000-0000-0000-0000-000000000000')) return null;
    return [...new Set(request.user!.memberships.map((m) => m.organisationId))].filter((id) =>
      can(request, 'read', id),
    );
  }

  async function authorizeOrganisation(request: FastifyRequest, organisationId: string, action: Action) {
    const actor = actorOf(request);
    if (!can(request, action, organisationId))
      throw errors.forbidden(`No ${action} access to these documents`);
    return actor;
  }

  /**
   * The document of the route, if the caller may act on it: 401 before its id is checked (routes
   * declare `documentParams`, read here with `checked`; the merge route checks its ids up front).
   */
  async function loadDocument(request: FastifyRequest, action: Action) {
    actorOf(request);
    const { id }: { id: string } = checked(request, 'params');
    const notFound = () => errors.notFound('DOCUMENT_NOT_FOUND', `No document '${id}'`);
    const doc = await repo.findDocument(database, id);
    if (!doc) throw notFound();
    // Another organisation's document answers as a missing one (issue 25, hideFromOutsiders).
    const actor = await authorizeOrganisation(request, doc.organisationId, action).catch(
      hideFromOutsiders(request, doc.organisationId, notFound),
    );
    return { doc, actor };
  }

  const locks = new Map<string, Promise<unknown>>();
  /** Runs `fn` after every earlier change of the same document (validation reads then writes rows). */
  function serial<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const previous = locks.get(id) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.catch(() => {});
    locks.set(id, tail);
    void tail.then(() => {
      if (locks.get(id) === tail) locks.delete(id);
    });
    return run;
  }

  /** A change to a document: loaded and checked, then run after earlier changes, reloaded inside. */
  async function change<T>(
    request: FastifyRequest,
    fn: (doc: repo.DocumentRecord, actor: Actor) => Promise<T>,
  ) {
    const { doc, actor } = await loadDocument(request, 'update');
    return serial(doc.id, async () => fn(await service.reload(doc.id), actor));
  }

  app.get(
    '/api/confirmation/events',
    { schema: { access: 'signed-in', response: { 200: z.array(confirmationEventSchema) } } },
    async (request) => service.events(scopeOf(request)),
  );

  app.put(
    '/api/confirmation/races/:raceId/settings',
    {
      schema: {
        access: 'manager',
        params: afterAccess(confirmationRaceParams),
        body: afterAccess(raceSettingsSchema),
        response: { 200: raceSettingsAnswerSchema },
      },
    },
    async (request) => {
      actorOf(request);
      const { raceId } = checked(request, 'params');
      const race = await repo.findRace(database, raceId);
      if (!race) throw errors.notFound('RACE_NOT_FOUND', `No race '${raceId}'`);
      await authorizeOrganisation(request, race.organisationId, 'update');
      const settings = checked(request, 'body');
      await repo.saveRaceSettings(database, raceId, settings);
      return settings;
    },
  );

  app.get(
    '/api/confirmation/documents',
    {
      schema: {
        access: 'signed-in',
        querystring: afterAccess(documentListQuery),
        response: { 200: documentListSchema },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const query = checked(request, 'querystring');
      return service.list(scope, query);
    },
  );

  app.post(
    '/api/confirmation/documents',
    {
      schema: {
        access: 'signed-in',
        body: afterAccess(createDocumentSchema),
        response: { 201: documentDetailSchema },
      },
    },
    async (request, reply) => {
      actorOf(request);
      const input = checked(request, 'body');
      const [event] = await database.query<{ organisationId: string }>(
        'SELECT organisation_id AS "organisationId" FROM events WHERE id = $1',
        [input.eventId],
      );
      if (!event) throw errors.notFound('EVENT_NOT_FOUND', `No event '${input.eventId}'`);
      const actor = await authorizeOrganisation(request, event.organisationId, 'create');
      reply.code(201);
      return service.create(input, actor);
    },
  );

  app.get(
    '/api/confirmation/events/:eventId/documents',
    {
      schema: {
        access: 'manager',
        params: afterAccess(confirmationEventParams),
        response: { 200: eventDocumentsSchema },
      },
    },
    async (request) => {
      actorOf(request);
      const { eventId } = checked(request, 'params');
      const [event] = await database.query<{ id: string; name: string; organisationId: string }>(
        'SELECT id, name, organisation_id AS "organisationId" FROM events WHERE id = $1',
        [eventId],
      );
      if (!event) throw errors.notFound('EVENT_NOT_FOUND', `No event '${eventId}'`);
      await authorizeOrganisation(request, event.organisationId, 'read');
      return service.eventDocuments({ id: event.id, name: event.name });
    },
  );

  app.get(
    '/api/confirmation/documents/:id',
    { schema: { access: 'manager', params: documentParams, response: { 200: documentDetailSchema } } },
    async (request) => {
      const { doc } = await loadDocument(request, 'read');
      return service.detail(doc);
    },
  );

  app.post(
    '/api/confirmation/documents/:id/file',
    {
      bodyLimit: 20 * 1024 * 1024,
      // The body is the file's raw bytes (CSV or XLSX), read by the service: no JSON body to declare.
      schema: {
        access: 'manager',
        params: documentParams,
        querystring: documentUploadQuery,
        response: { 200: documentDetailSchema },
      },
    },
    async (request) => {
      const { name } = request.query;
      // Who may change the document is checked before the file is looked at (issue 13's matrix).
      return change(request, (doc, actor) => {
        const body = request.body;
        if (!Buffer.isBuffer(body) || body.length === 0)
          throw errors.badRequest('FILE_MISSING', 'Send the CSV or XLSX file as the request body');
        return service.upload(doc, body, name, actor);
      });
    },
  );

  // The bodies of the changes below were always checked before the caller's access: kept so.
  app.put(
    '/api/confirmation/documents/:id/mapping',
    {
      schema: {
        access: 'manager',
        params: documentParams,
        body: mappingInputSchema,
        response: { 200: documentDetailSchema },
      },
    },
    async (request) => {
      const input = request.body;
      return change(request, (doc, actor) => service.setMapping(doc, input, actor));
    },
  );

  app.get(
    '/api/confirmation/documents/:id/rows',
    { schema: { access: 'manager', params: documentParams, response: { 200: z.array(documentRowSchema) } } },
    async (request) => {
      const { doc } = await loadDocument(request, 'read');
      return (await service.rows(doc)).map(toRow);
    },
  );

  app.patch(
    '/api/confirmation/documents/:id/rows',
    {
      schema: {
        access: 'manager',
        params: documentParams,
        body: rowEditsSchema,
        response: { 200: z.array(documentRowSchema) },
      },
    },
    async (request) => {
      const input = request.body;
      return (await change(request, (doc, actor) => service.edit(doc, input, actor))).map(toRow);
    },
  );

  app.post(
    '/api/confirmation/documents/:id/rows/bulk',
    {
      schema: {
        access: 'manager',
        params: documentParams,
        body: bulkActionSchema,
        response: { 200: z.array(documentRowSchema) },
      },
    },
    async (request) => {
      const input = request.body;
      return (await change(request, (doc, actor) => service.bulk(doc, input, actor))).map(toRow);
    },
  );

  app.post(
    '/api/confirmation/documents/:id/undo',
    { schema: { access: 'manager', params: documentParams, response: { 200: z.array(documentRowSchema) } } },
    async (request) => (await change(request, (doc, actor) => service.undo(doc, actor))).map(toRow),
  );

  app.post(
    '/api/confirmation/documents/:id/rows/:rowId/merge',
    {
      schema: {
        access: 'manager',
        params: confirmationRowParams,
        response: { 200: z.array(documentRowSchema) },
      },
    },
    async (request) => {
      const { rowId } = request.params;
      return (await change(request, (doc, actor) => service.merge(doc, rowId, actor))).map(toRow);
    },
  );

  app.post(
    '/api/confirmation/documents/:id/confirm',
    {
      schema: {
        access: 'manager',
        params: documentParams,
        body: confirmBody,
        response: { 200: confirmResultSchema },
      },
    },
    async (request) => {
      const input = request.body;
      return change(request, async (doc, actor) => {
        const confirmed = await confirmRows(service, database, doc, input.rowIds, actor);
        return { confirmed, document: await service.detail(await service.reload(doc.id)) };
      });
    },
  );

  app.post(
    '/api/confirmation/documents/:id/reject',
    {
      schema: {
        access: 'manager',
        params: documentParams,
        body: rejectInputSchema,
        response: { 200: documentDetailSchema },
      },
    },
    async (request) => {
      const { reason } = request.body;
      return change(request, (doc, actor) => service.reject(doc, reason, actor));
    },
  );

  app.post(
    '/api/confirmation/documents/:id/close',
    { schema: { access: 'manager', params: documentParams, response: { 200: documentDetailSchema } } },
    async (request) => change(request, (doc, actor) => service.close(doc, actor)),
  );

  async function report(request: FastifyRequest) {
    const { doc } = await loadDocument(request, 'read');
    const [summary] = await service.summarise([doc]);
    const rows = await service.rows(doc);
    const races = await repo.racesOfEvents(database, [doc.eventId]);
    return { doc, report: buildReport(summary!, doc, rows, races) };
  }

  const fileName = (title: string, ext: string) =>
    `${
      title
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .trim()
        .slice(0, 80) || 'report'
    }.${ext}`;

  /** The order and invoice a confirmed document's fees became (issue 29); 404 before that. */
  app.get(
    '/api/confirmation/documents/:id/order',
    { schema: { access: 'manager', params: documentParams, response: { 200: documentOrderSchema } } },
    async (request) => {
      const { doc } = await loadDocument(request, 'read');
      const order = await documentOrder(database, doc.id);
      if (!order) throw errors.notFound('ORDER_NOT_FOUND', `Document '${doc.id}' has no order (yet)`);
      return order;
    },
  );

  app.get(
    '/api/confirmation/documents/:id/report',
    { schema: { access: 'manager', params: documentParams, response: { 200: documentReportSchema } } },
    async (request) => (await report(request)).report,
  );

  // The report as a file (PDF, XLSX): no JSON answer to declare. Its language is checked first.
  const fileSchema = { access: 'manager', params: documentParams, querystring: reportLngQuery } as const;

  app.get('/api/confirmation/documents/:id/report.pdf', { schema: fileSchema }, async (request, reply) => {
    const { lng } = request.query;
    const { doc, report: r } = await report(request);
    reply
      .type('application/pdf')
      .header(
        'content-disposition',
        `attachment; filename*=UTF-8''${encodeURIComponent(fileName(doc.title, 'pdf'))}`,
      );
    return reportPdf(r, lng);
  });

  app.get('/api/confirmation/documents/:id/report.xlsx', { schema: fileSchema }, async (request, reply) => {
    const { lng } = request.query;
    const { doc, report: r } = await report(request);
    reply
      .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header(
        'content-disposition',
        `attachment; filename*=UTF-8''${encodeURIComponent(fileName(doc.title, 'xlsx'))}`,
      );
    return reportXlsx(r, lng);
  });
}
