import { Readable } from 'node:stream';
import {
  assignBibsSchema,
  bibsAssignedSchema,
  chipImportOutcomeSchema,
  chipImportRequestSchema,
  commitRequestSchema,
  consoleParticipantSchema,
  importHistoryEntrySchema,
  importOutcomeSchema,
  importPreviewSchema,
  importRequestSchema,
  importUndoOutcomeSchema,
  newParticipantSchema,
  noContentSchema,
  participantAuditEntrySchema,
  participantBulkOutcomeSchema,
  participantBulkSchema,
  participantContextsSchema,
  participantExportQuerySchema,
  participantPageSchema,
  participantPatchSchema,
  participantQuerySchema,
  participantsAccessSchema,
  raceSummarySchema,
  refusedRowsQuerySchema,
  resultImportOutcomeSchema,
  resultImportQuerySchema,
  uploadInfoSchema,
} from '@tempora/contracts';
import { foldText } from '@tempora/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errors } from '../../errors.ts';
import { decodeText } from '../../lib/tabular/read.ts';
import { afterAccess, checked, fileAnswer, type ZodTypeProvider } from '../../lib/zod-routes.ts';
import { allows, type EventOwner, findEventOwner, requireAbility } from '../../policy/policy.ts';
import { parseInput } from '../../validate.ts';
import { csvChunks, xlsxStream } from '../exports/port.ts';
import { contextsOfEvent } from '../results/port.ts';
import { participantsTable } from './grid-export.ts';
import type { ImportHistory } from './history-service.ts';
import * as repo from './repository.ts';
import { importResultList } from './result-import.ts';
import type { Actor, ParticipantsService } from './service.ts';

const eventParams = z.object({ eventId: z.string().min(1).max(100) });
const participantParams = eventParams.extend({ id: z.uuid() });
const uploadParams = eventParams.extend({ uploadId: z.uuid() });
const importParams = eventParams.extend({ importId: z.uuid() });
const uploadQuery = z.object({ fileName: z.string().trim().min(1).max(200).default('import.csv') });
const FILE_LIMIT = 60 * 1024 * 1024;
const FILE_TYPES = [
  'text/csv',
  'text/plain',
  'application/octet-stream',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-excel',
];

/**
 * Routes of the console's participants (packages/contracts/src/participants.ts lists them).
 * Every route loads the event and checks the caller's ability on its organisation's
 * `Participant`s (owner/staff manage, timekeepers read): 401 anonymous, 403 another
 * organisation, 404 an unknown event.
 */
export async function participantsRoutes(
  fastify: FastifyInstance,
  opts: { service: ParticipantsService; history: ImportHistory },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { service, history } = opts;
  const database = app.database;
  // Files arrive as raw bytes (a CSV is decoded later: UTF-8 or Windows-1252).
  for (const type of FILE_TYPES) {
    if (app.hasContentTypeParser(type)) app.removeContentTypeParser(type);
    app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: FILE_LIMIT }, (_r, body, done) =>
      done(null, body),
    );
  }

  /**
   * The event, once the caller may `action` its participants. Its id is checked before anything
   * (a route's other params after this check: declared `afterAccess`, so an unauthorised caller
   * gets 401/403/404 whatever they are).
   */
  async function access(request: FastifyRequest, action: 'read' | 'manage'): Promise<EventOwner> {
    const { eventId } = parseInput(eventParams, request.params, 'params');
    const event = await findEventOwner(database, eventId);
    requireAbility(request, action, 'Participant', event.organisationId, `the participants of '${eventId}'`);
    return event;
  }
  const actor = (request: FastifyRequest): Actor => ({
    sub: request.user?.sub ?? null,
    email: request.user?.email ?? '',
  });
  const file = (request: FastifyRequest): Buffer => {
    if (!Buffer.isBuffer(request.body))
      throw errors.badRequest('FILE_REQUIRED', 'Send the file as text/csv or as an XLSX workbook');
    return request.body;
  };

  const base = '/api/console/events/:eventId';

  app.get(
    `${base}/participants`,
    {
      schema: {
        access: 'timekeeper',
        params: eventParams,
        querystring: afterAccess(participantQuerySchema),
        response: { 200: participantPageSchema },
      },
    },
    async (request) => {
      const event = await access(request, 'read');
      const query = checked(request, 'querystring');
      const page = await repo.listParticipants(database, event.id, query);
      return { ...page, offset: query.offset };
    },
  );

  app.get(
    `${base}/participants/races`,
    {
      schema: {
        access: 'timekeeper',
        params: eventParams,
        response: { 200: z.array(raceSummarySchema) },
      },
    },
    async (request) => {
      const event = await access(request, 'read');
      return repo.raceSummaries(database, event.id);
    },
  );

  /** What the caller may do here (the console hides what the server would refuse). */
  app.get(
    `${base}/participants/access`,
    {
      schema: {
        access: 'timekeeper',
        params: eventParams,
        response: { 200: participantsAccessSchema },
      },
    },
    async (request) => {
      const event = await access(request, 'read');
      return {
        canManage: allows(request, 'manage', 'Participant', { organisationId: event.organisationId }),
        canImportResults: allows(request, 'manage', 'Passing', { organisationId: event.organisationId }),
      };
    },
  );

  /** The event's contexts (timing databases), for result-list imports. */
  app.get(
    `${base}/participants/contexts`,
    {
      schema: {
        access: 'timekeeper',
        params: eventParams,
        response: { 200: participantContextsSchema },
      },
    },
    async (request) => {
      const event = await access(request, 'read');
      return (await contextsOfEvent(database, event.id)).map((c) => ({ db: c.db, name: c.name }));
    },
  );

  app.post(
    `${base}/participants`,
    {
      schema: {
        access: 'manager',
        params: eventParams,
        body: afterAccess(newParticipantSchema),
        response: { 201: consoleParticipantSchema },
      },
    },
    async (request, reply) => {
      const event = await access(request, 'manage');
      const body = checked(request, 'body');
      return reply.code(201).send(await service.add(event.id, body, actor(request)));
    },
  );

  app.patch(
    `${base}/participants/:id`,
    {
      schema: {
        access: 'manager',
        params: afterAccess(participantParams),
        body: afterAccess(participantPatchSchema),
        response: { 200: consoleParticipantSchema },
      },
    },
    async (request) => {
      const event = await access(request, 'manage');
      const { id } = checked(request, 'params');
      const patch = checked(request, 'body');
      return service.update(event.id, id, patch, actor(request));
    },
  );

  app.delete(
    `${base}/participants/:id`,
    {
      schema: {
        access: 'manager',
        params: afterAccess(participantParams),
        response: { 204: noContentSchema },
      },
    },
    async (request, reply) => {
      const event = await access(request, 'manage');
      const { id } = checked(request, 'params');
      await service.remove(event.id, id, actor(request));
      return reply.code(204).send();
    },
  );

  app.get(
    `${base}/participants/:id/audit`,
    {
      schema: {
        access: 'timekeeper',
        params: afterAccess(participantParams),
        response: { 200: z.array(participantAuditEntrySchema) },
      },
    },
    async (request) => {
      const event = await access(request, 'read');
      const { id } = checked(request, 'params');
      const found = await repo.findParticipant(database, event.id, id);
      if (!found) throw errors.notFound('PARTICIPANT_NOT_FOUND', `No participant '${id}'`);
      return repo.auditOf(database, id);
    },
  );

  app.post(
    `${base}/participants/bibs`,
    {
      schema: {
        access: 'manager',
        params: eventParams,
        body: afterAccess(assignBibsSchema),
        response: { 200: bibsAssignedSchema },
      },
    },
    async (request) => {
      const event = await access(request, 'manage');
      const body = checked(request, 'body');
      return service.assignBibs(event.id, body, actor(request));
    },
  );

  app.post(
    `${base}/imports`,
    {
      bodyLimit: FILE_LIMIT,
      schema: {
        access: 'manager',
        params: eventParams,
        querystring: afterAccess(uploadQuery),
        response: { 201: uploadInfoSchema },
      },
    },
    async (request, reply) => {
      const event = await access(request, 'manage');
      const { fileName } = checked(request, 'querystring');
      return reply.code(201).send(await service.upload(event, fileName, file(request), actor(request)));
    },
  );

  app.get(
    `${base}/imports/:uploadId`,
    {
      schema: {
        access: 'manager',
        params: afterAccess(uploadParams),
        response: { 200: uploadInfoSchema },
      },
    },
    async (request) => {
      const event = await access(request, 'manage');
      const { uploadId } = checked(request, 'params');
      return service.info(event, uploadId);
    },
  );

  app.post(
    `${base}/imports/:uploadId/preview`,
    {
      schema: {
        access: 'manager',
        params: afterAccess(uploadParams),
        body: afterAccess(importRequestSchema),
        response: { 200: importPreviewSchema },
      },
    },
    async (request) => {
      const event = await access(request, 'manage');
      const { uploadId } = checked(request, 'params');
      const body = checked(request, 'body');
      return service.preview(event.id, uploadId, body);
    },
  );

  app.post(
    `${base}/imports/:uploadId/commit`,
    {
      schema: {
        access: 'manager',
        params: afterAccess(uploadParams),
        body: afterAccess(commitRequestSchema),
        response: { 201: importOutcomeSchema },
      },
    },
    async (request, reply) => {
      const event = await access(request, 'manage');
      const { uploadId } = checked(request, 'params');
      const body = checked(request, 'body');
      return reply.code(201).send(await service.commit(event, uploadId, body, actor(request)));
    },
  );

  app.post(
    `${base}/imports/:uploadId/chips`,
    {
      schema: {
        access: 'manager',
        params: afterAccess(uploadParams),
        body: afterAccess(chipImportRequestSchema),
        response: { 200: chipImportOutcomeSchema },
      },
    },
    async (request) => {
      const event = await access(request, 'manage');
      const { uploadId } = checked(request, 'params');
      const body = checked(request, 'body');
      return service.chips(event.id, uploadId, body, actor(request));
    },
  );

  // The imports' history (issue 29): refused rows to download, undo.
  app.get(
    `${base}/import-history`,
    {
      schema: {
        access: 'manager',
        params: eventParams,
        response: { 200: z.array(importHistoryEntrySchema) },
      },
    },
    async (request) => {
      const event = await access(request, 'manage');
      return history.list(event.id);
    },
  );

  // A file (CSV or XLSX).
  app.get(
    `${base}/import-history/:importId/refused`,
    {
      schema: {
        access: 'manager',
        params: afterAccess(importParams),
        querystring: afterAccess(refusedRowsQuerySchema),
        response: {
          200: fileAnswer(
            ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
            'The refused rows as a CSV or XLSX file',
          ),
        },
      },
    },
    async (request, reply) => {
      const event = await access(request, 'manage');
      const { importId } = checked(request, 'params');
      const { format, lng } = checked(request, 'querystring');
      const table = await history.refusedTable(event.id, importId, lng);
      const ascii =
        foldText(table.title)
          .replace(/[^\w.-]+/g, '-')
          .slice(0, 80) || 'refused';
      reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : FILE_TYPES[3]!)
        .header(
          'content-disposition',
          `attachment; filename="${ascii}.${format}"; filename*=UTF-8''${encodeURIComponent(`${table.title}.${format}`)}`,
        )
        .header('cache-control', 'private, no-cache')
        .header('x-export-rows', String(table.rows.length));
      // A French Excel reads `;` as the separator, an English one `,`.
      if (format === 'csv') return reply.send(Readable.from(csvChunks(table, lng === 'fr' ? ';' : ',')));
      return reply.send(xlsxStream(table));
    },
  );

  app.post(
    `${base}/import-history/:importId/undo`,
    {
      schema: {
        access: 'manager',
        params: afterAccess(importParams),
        response: { 200: importUndoOutcomeSchema },
      },
    },
    async (request) => {
      const event = await access(request, 'manage');
      const { importId } = checked(request, 'params');
      return history.undo(event.id, importId, actor(request));
    },
  );

  // Result lists (a Boston-format file, or passings through a column mapping) into a context of
  // the event: the organiser names the race, its date and gun/wave times; nothing is invented.
  app.post(
    `${base}/result-imports`,
    {
      bodyLimit: FILE_LIMIT,
      schema: {
        access: 'manager',
        params: eventParams,
        querystring: afterAccess(resultImportQuerySchema),
        response: { 201: resultImportOutcomeSchema },
      },
    },
    async (request, reply) => {
      const event = await access(request, 'manage');
      requireAbility(request, 'manage', 'Passing', event.organisationId, 'passings');
      const text = decodeText(file(request));
      const query = checked(request, 'querystring');
      const outcome = await importResultList(app, event, query, text, actor(request));
      return reply.code(201).send(outcome);
    },
  );

  // Issue 29: one change for a selection of runners; refused rows come back with their reason.
  app.post(
    `${base}/participants/bulk`,
    {
      schema: {
        access: 'manager',
        params: eventParams,
        body: afterAccess(participantBulkSchema),
        response: { 200: participantBulkOutcomeSchema },
      },
    },
    async (request) => {
      const event = await access(request, 'manage');
      const { ids, patch } = checked(request, 'body');
      return service.bulkUpdate(event.id, ids, patch, actor(request));
    },
  );

  // Issue 29: the grid as shown (filters, search, sort, columns) as CSV or XLSX.
  app.get(
    `${base}/participants/export`,
    {
      schema: {
        access: 'timekeeper',
        params: eventParams,
        querystring: afterAccess(participantExportQuerySchema),
        response: {
          200: fileAnswer(
            ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
            'The participants as a CSV or XLSX file',
          ),
        },
      },
    },
    async (request, reply) => {
      const event = await access(request, 'read');
      const query = checked(request, 'querystring');
      const races = new Map((await repo.raceSummaries(database, event.id)).map((r) => [r.id, r.name]));
      const { rows } = await repo.listParticipants(database, event.id, {
        ...query,
        offset: 0,
        limit: 100_000,
      });
      const table = participantsTable(rows, query.columns, query.lng, races, query.format);
      const name = `participants-${event.id}`;
      reply
        .header('content-disposition', `attachment; filename="${name}.${query.format}"`)
        .header('cache-control', 'private, no-cache')
        .header('x-export-rows', String(rows.length));
      if (query.format === 'csv')
        return reply
          .type('text/csv; charset=utf-8')
          .send(Readable.from(csvChunks(table, query.lng === 'fr' ? ';' : ',')));
      // The one XLSX path of the server: made on a worker thread, streamed (exports' port).
      return reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .send(xlsxStream(table));
    },
  );
}
