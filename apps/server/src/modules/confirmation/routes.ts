import {
  bulkActionSchema,
  confirmationDocumentParams,
  confirmationEventParams,
  confirmationRaceParams,
  confirmationRowParams,
  confirmInputSchema,
  createDocumentSchema,
  type DocumentRow,
  documentListQuery,
  documentUploadQuery,
  mappingInputSchema,
  raceSettingsSchema,
  rejectInputSchema,
  rowEditsSchema,
} from '@tempora/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/database.ts';
import { errors } from '../../errors.ts';
import { allows, hideFromOutsiders } from '../../policy/policy.ts';
import { parseInput } from '../../validate.ts';
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
  app: FastifyInstance,
  opts: { service: ConfirmationService; database: Database },
) {
  const { service, database } = opts;
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

  async function loadDocument(request: FastifyRequest, action: Action) {
    actorOf(request);
    const { id } = parseInput(confirmationDocumentParams, request.params, 'params');
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

  app.get('/api/confirmation/events', async (request) => service.events(scopeOf(request)));

  app.put('/api/confirmation/races/:raceId/settings', async (request) => {
    actorOf(request);
    const { raceId } = parseInput(confirmationRaceParams, request.params, 'params');
    const race = await repo.findRace(database, raceId);
    if (!race) throw errors.notFound('RACE_NOT_FOUND', `No race '${raceId}'`);
    await authorizeOrganisation(request, race.organisationId, 'update');
    const settings = parseInput(raceSettingsSchema, request.body);
    await repo.saveRaceSettings(database, raceId, settings);
    return settings;
  });

  app.get('/api/confirmation/documents', async (request) => {
    const scope = scopeOf(request);
    const query = parseInput(documentListQuery, request.query, 'query');
    return service.list(scope, query);
  });

  app.post('/api/confirmation/documents', async (request, reply) => {
    actorOf(request);
    const input = parseInput(createDocumentSchema, request.body);
    const [event] = await database.query<{ organisationId: string }>(
      'SELECT organisation_id AS "organisationId" FROM events WHERE id = $1',
      [input.eventId],
    );
    if (!event) throw errors.notFound('EVENT_NOT_FOUND', `No event '${input.eventId}'`);
    const actor = await authorizeOrganisation(request, event.organisationId, 'create');
    reply.code(201);
    return service.create(input, actor);
  });

  app.get('/api/confirmation/events/:eventId/documents', async (request) => {
    actorOf(request);
    const { eventId } = parseInput(confirmationEventParams, request.params, 'params');
    const [event] = await database.query<{ id: string; name: string; organisationId: string }>(
      'SELECT id, name, organisation_id AS "organisationId" FROM events WHERE id = $1',
      [eventId],
    );
    if (!event) throw errors.notFound('EVENT_NOT_FOUND', `No event '${eventId}'`);
    await authorizeOrganisation(request, event.organisationId, 'read');
    return service.eventDocuments({ id: event.id, name: event.name });
  });

  app.get('/api/confirmation/documents/:id', async (request) => {
    const { doc } = await loadDocument(request, 'read');
    return service.detail(doc);
  });

  app.post('/api/confirmation/documents/:id/file', { bodyLimit: 20 * 1024 * 1024 }, async (request) => {
    const { name } = parseInput(documentUploadQuery, request.query, 'query');
    // Who may change the document is checked before the file is looked at (issue 13's matrix).
    return change(request, (doc, actor) => {
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0)
        throw errors.badRequest('FILE_MISSING', 'Send the CSV or XLSX file as the request body');
      return service.upload(doc, body, name, actor);
    });
  });

  app.put('/api/confirmation/documents/:id/mapping', async (request) => {
    const input = parseInput(mappingInputSchema, request.body);
    return change(request, (doc, actor) => service.setMapping(doc, input, actor));
  });

  app.get('/api/confirmation/documents/:id/rows', async (request) => {
    const { doc } = await loadDocument(request, 'read');
    return (await service.rows(doc)).map(toRow);
  });

  app.patch('/api/confirmation/documents/:id/rows', async (request) => {
    const input = parseInput(rowEditsSchema, request.body);
    return (await change(request, (doc, actor) => service.edit(doc, input, actor))).map(toRow);
  });

  app.post('/api/confirmation/documents/:id/rows/bulk', async (request) => {
    const input = parseInput(bulkActionSchema, request.body);
    return (await change(request, (doc, actor) => service.bulk(doc, input, actor))).map(toRow);
  });

  app.post('/api/confirmation/documents/:id/undo', async (request) =>
    (await change(request, (doc, actor) => service.undo(doc, actor))).map(toRow),
  );

  app.post('/api/confirmation/documents/:id/rows/:rowId/merge', async (request) => {
    const { rowId } = parseInput(confirmationRowParams, request.params, 'params');
    return (await change(request, (doc, actor) => service.merge(doc, rowId, actor))).map(toRow);
  });

  app.post('/api/confirmation/documents/:id/confirm', async (request) => {
    const input = parseInput(confirmInputSchema, request.body ?? {});
    return change(request, async (doc, actor) => {
      const confirmed = await confirmRows(service, database, doc, input.rowIds, actor);
      return { confirmed, document: await service.detail(await service.reload(doc.id)) };
    });
  });

  app.post('/api/confirmation/documents/:id/reject', async (request) => {
    const { reason } = parseInput(rejectInputSchema, request.body);
    return change(request, (doc, actor) => service.reject(doc, reason, actor));
  });

  app.post('/api/confirmation/documents/:id/close', async (request) =>
    change(request, (doc, actor) => service.close(doc, actor)),
  );

  /** `?lng=en|fr`: the language the PDF and XLSX are written in (the console passes its own). */
  const reportLngQuery = z.object({ lng: z.enum(['en', 'fr']).default('en') });
  const reportLng = (request: FastifyRequest) => parseInput(reportLngQuery, request.query, 'query').lng;

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
  app.get('/api/confirmation/documents/:id/order', async (request) => {
    const { doc } = await loadDocument(request, 'read');
    const order = await documentOrder(database, doc.id);
    if (!order) throw errors.notFound('ORDER_NOT_FOUND', `Document '${doc.id}' has no order (yet)`);
    return order;
  });

  app.get('/api/confirmation/documents/:id/report', async (request) => (await report(request)).report);

  app.get('/api/confirmation/documents/:id/report.pdf', async (request, reply) => {
    const lng = reportLng(request);
    const { doc, report: r } = await report(request);
    reply
      .type('application/pdf')
      .header(
        'content-disposition',
        `attachment; filename*=UTF-8''${encodeURIComponent(fileName(doc.title, 'pdf'))}`,
      );
    return reportPdf(r, lng);
  });

  app.get('/api/confirmation/documents/:id/report.xlsx', async (request, reply) => {
    const lng = reportLng(request);
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
