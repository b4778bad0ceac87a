import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import {
  certificateTemplateInfoSchema,
  certificateTemplateSchema,
  correctionText,
  type ExportAccess,
  exportAccessSchema,
  exportQuerySchema,
  exportSettingsSchema,
  type FeedRow,
  feedRowSchema,
  noContentSchema,
  verificationSchema,
} from '@tempora/contracts';
import { foldText } from '@tempora/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errors } from '../../errors.ts';
import { afterAccess, checked, fileAnswer, type ZodTypeProvider } from '../../lib/zod-routes.ts';
import { allows } from '../../policy/policy.ts';
import { raceClock, shownCorrections } from '../results/port.ts';
import { renderCertificate } from './certificate.ts';
import { csvChunks } from './csv.ts';
import { finishersFeed, hotSeatFeed, leadersFeed } from './feeds.ts';
import { pdfListStream, xlsxStream } from './offload.ts';
import * as repo from './repository.ts';
import type { ExportsService } from './service.ts';

const id = z.string().min(1).max(100);
const eventParams = z.object({ eventId: id });
const reportParams = eventParams.extend({ group: id, report: id });
const lngQuery = z.object({ lng: z.enum(['en', 'fr']).default('fr') });
/** A background image: PNG or JPEG (what pdfkit embeds), at most 2 MB. */
const MAX_BACKGROUND = 2 * 1024 * 1024;
/** XLSX/PDF exports made at once on a node (each is CPU-bound: ≈ 1 ms a row). */
const MAX_HEAVY = 2;
const IMAGE_TYPES = ['image/png', 'image/jpeg'];

const CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
} as const;

/** `attachment` with an ASCII fallback name and the UTF-8 one (RFC 6266 / 5987). */
function disposition(name: string, ext: string): string {
  const ascii =
    foldText(name)
      .replace(/[^\w.-]+/g, '-')
      .replace(/-+/g, '-')
      .slice(0, 80) || 'export';
  return `attachment; filename="${ascii}.${ext}"; filename*=UTF-8''${encodeURIComponent(`${name}.${ext}`)}`;
}

/** The site's address for links printed in documents: PUBLIC_URL, else this request's origin. */
function originOf(app: FastifyInstance, request: FastifyRequest): string {
  return app.config.PUBLIC_URL ?? `${request.protocol}://${request.host}`;
}

/**
 * Routes of results out (issue 16). Exports and the printed list share one route (`format`);
 * certificates and their verification are public by tracking key / signed token; the template,
 * its background and the export setting are the organiser's (update Report: owner, staff).
 */
export async function exportsRoutes(fastify: FastifyInstance, opts: { service: ExportsService }) {
  const { service } = opts;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const database = app.database;
  /** XLSX and PDF exports being made on this node. */
  let heavy = 0;

  /** The event, if the caller may organise its reports (401 anonymous, 403 others). */
  async function requireOrganiser(request: FastifyRequest, eventId: string) {
    const event = await repo.findEvent(database, eventId);
    if (!event) throw errors.notFound('EVENT_NOT_FOUND', `No event '${eventId}'`);
    if (!request.user) throw errors.unauthorized();
    if (!isOrganiser(request, event.organisationId))
      throw errors.forbidden(`No access to the reports of event '${eventId}'`);
    return event;
  }
  const isOrganiser = (request: FastifyRequest, organisationId: string) =>
    !!request.user && allows(request, 'update', 'Report', { organisationId });

  // A file (CSV, XLSX or PDF): no JSON answer to declare.
  app.get(
    '/api/exports/:eventId/groups/:group/reports/:report',
    {
      schema: {
        access: 'public',
        params: reportParams,
        querystring: exportQuerySchema,
        response: { 200: fileAnswer(Object.values(CONTENT_TYPES), 'The report as a CSV, XLSX or PDF file') },
      },
    },
    async (request, reply) => {
      const p = request.params;
      const query = request.query;
      const event = await repo.findEvent(database, p.eventId);
      if (!event) throw errors.notFound('EVENT_NOT_FOUND', `No event '${p.eventId}'`);
      const { spectatorExports } = await repo.settingsOf(database, p.eventId);
      if (!spectatorExports && !isOrganiser(request, event.organisationId)) {
        if (!request.user) throw errors.unauthorized('Exports of this event are for its organisers');
        throw errors.forbidden('Exports of this event are for its organisers');
      }
      // XLSX and PDF cost seconds of CPU for a big list: a few at a time per node, the others are
      // asked to come back (503 + Retry-After) rather than queueing behind them.
      if (query.format !== 'csv') {
        if (heavy >= MAX_HEAVY) {
          reply.header('retry-after', '5');
          throw errors.unavailable('EXPORT_BUSY', 'Other exports are being made; try again in a few seconds');
        }
        heavy++;
        let released = false;
        const release = () => {
          if (!released) heavy--;
          released = true;
        };
        reply.raw.once('finish', release).once('close', release);
      }
      const { text, sections, meta } = await service.exportTable(p.eventId, p.group, p.report, query);
      const name = `${event.name} - ${text.title}`;
      reply
        .type(CONTENT_TYPES[query.format])
        .header('content-disposition', disposition(name, query.format))
        .header('cache-control', 'private, no-cache')
        .header('x-export-rows', String(text.rows.length));
      if (query.format === 'csv') return reply.send(Readable.from(csvChunks(text, query.sep)));
      // XLSX and PDF are made on a worker thread (offload.ts): the main thread keeps answering.
      if (query.format === 'xlsx') return reply.send(xlsxStream(text));
      return reply.send(pdfListStream(text, sections, meta, query.orientation));
    },
  );

  app.get(
    '/api/exports/:eventId/settings',
    { schema: { access: 'public', params: eventParams, response: { 200: exportAccessSchema } } },
    async (request, reply) => {
      const { eventId } = request.params;
      const event = await repo.findEvent(database, eventId);
      if (!event) throw errors.notFound('EVENT_NOT_FOUND', `No event '${eventId}'`);
      reply.header('cache-control', 'private, no-cache');
      const access: ExportAccess = {
        ...(await repo.settingsOf(database, eventId)),
        organiser: isOrganiser(request, event.organisationId),
      };
      return access;
    },
  );

  app.put(
    '/api/exports/:eventId/settings',
    {
      schema: {
        access: 'manager',
        params: eventParams,
        body: afterAccess(exportSettingsSchema),
        response: { 200: exportSettingsSchema },
      },
    },
    async (request) => {
      const { eventId } = request.params;
      await requireOrganiser(request, eventId);
      const body = checked(request, 'body');
      await repo.saveSettings(database, eventId, body);
      return body;
    },
  );

  app.get(
    '/api/exports/:eventId/certificate',
    { schema: { access: 'manager', params: eventParams, response: { 200: certificateTemplateInfoSchema } } },
    async (request) => {
      const { eventId } = request.params;
      await requireOrganiser(request, eventId);
      return service.template(eventId);
    },
  );

  app.put(
    '/api/exports/:eventId/certificate',
    {
      schema: {
        access: 'manager',
        params: eventParams,
        body: afterAccess(certificateTemplateSchema),
        response: { 200: certificateTemplateInfoSchema },
      },
    },
    async (request) => {
      const { eventId } = request.params;
      await requireOrganiser(request, eventId);
      const template = checked(request, 'body');
      await service.saveTemplate(eventId, template);
      return service.template(eventId);
    },
  );

  app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    // Raw image bodies only in this scope.
    for (const type of IMAGE_TYPES) {
      scope.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: MAX_BACKGROUND }, (_r, body, done) =>
        done(null, body),
      );
    }
    scope.put(
      '/api/exports/:eventId/certificate/background',
      {
        bodyLimit: MAX_BACKGROUND,
        // The body is the image's raw bytes (PNG or JPEG, checked below by its magic numbers): no
        // JSON body to declare.
        schema: { access: 'manager', params: eventParams, response: { 200: certificateTemplateInfoSchema } },
      },
      async (request) => {
        const { eventId } = request.params;
        await requireOrganiser(request, eventId);
        const type = String(request.headers['content-type'] ?? '')
          .split(';')[0]!
          .trim();
        const bytes = request.body;
        if (!IMAGE_TYPES.includes(type) || !Buffer.isBuffer(bytes))
          throw errors.badRequest('IMAGE_REQUIRED', 'Send a PNG or JPEG image as the body');
        if (!looksLike(bytes, type))
          throw errors.badRequest('IMAGE_INVALID', 'The body is not a PNG or JPEG image');
        const current = await service.template(eventId);
        await repo.saveBackground(database, eventId, { bytes, type }, current.template);
        return service.template(eventId);
      },
    );
  });

  app.delete(
    '/api/exports/:eventId/certificate/background',
    { schema: { access: 'manager', params: eventParams, response: { 200: certificateTemplateInfoSchema } } },
    async (request) => {
      const { eventId } = request.params;
      await requireOrganiser(request, eventId);
      const current = await service.template(eventId);
      await repo.saveBackground(database, eventId, null, current.template);
      return service.template(eventId);
    },
  );

  // The image itself (PNG or JPEG): no JSON answer to declare.
  app.get(
    '/api/exports/:eventId/certificate/background',
    {
      schema: {
        access: 'manager',
        params: eventParams,
        response: { 200: fileAnswer(['image/png', 'image/jpeg'], 'The certificate background image') },
      },
    },
    async (request, reply) => {
      const { eventId } = request.params;
      await requireOrganiser(request, eventId);
      const image = await repo.backgroundOf(database, eventId);
      if (!image) throw errors.notFound('BACKGROUND_NOT_FOUND', 'No background image');
      return reply.type(image.type).header('cache-control', 'private, no-cache').send(image.bytes);
    },
  );

  /** Renders a finisher's certificate with the event's template. */
  async function certificate(
    request: FastifyRequest,
    reply: FastifyReply,
    trackingKey: string,
    lng: 'en' | 'fr',
  ) {
    const { data, eventId } = await service.certificateData(trackingKey, lng, originOf(app, request));
    const { template } = await service.template(eventId);
    const background = await repo.backgroundOf(database, eventId);
    const pdf = await renderCertificate(template, background?.bytes ?? null, data, lng);
    return reply
      .type('application/pdf')
      .header('content-disposition', disposition(`${data.eventName} - ${data.name}`, 'pdf'))
      .header('cache-control', 'private, no-cache')
      .send(pdf);
  }

  // A PDF: no JSON answer to declare.
  app.get(
    '/api/exports/:eventId/certificate/preview',
    {
      schema: {
        access: 'manager',
        params: eventParams,
        querystring: lngQuery,
        response: { 200: fileAnswer(['application/pdf'], 'A PDF file') },
      },
    },
    async (request, reply) => {
      const { eventId } = request.params;
      const { lng } = request.query;
      await requireOrganiser(request, eventId);
      return certificate(request, reply, await service.sampleFinisher(eventId), lng);
    },
  );

  app.get(
    '/api/certificates/:trackingKey',
    {
      schema: {
        access: 'public',
        params: z.object({ trackingKey: z.string().min(1).max(64) }),
        querystring: lngQuery,
        response: { 200: fileAnswer(['application/pdf'], 'The finisher’s certificate (PDF)') },
      },
    },
    async (request, reply) => {
      const { trackingKey } = request.params;
      const { lng } = request.query;
      return certificate(request, reply, trackingKey, lng);
    },
  );

  // The token's event, for the policy's draft rule (policy/visibility.ts): only this module can
  // tell a genuine token; an ungenuine one names nothing, and the route answers it.
  app.visibility.addScope('certificateToken', {
    eventOf: async (cache, token) => {
      const claim = await service.certificateClaim(token);
      return claim ? cache.eventOf('tracking', claim.trackingKey) : null;
    },
    missing: () => errors.notFound('CERTIFICATE_INVALID', 'This certificate’s runner no longer exists'),
    routeAnswersMissing: true,
  });

  app.get(
    '/api/verify/:certificateToken',
    {
      schema: {
        access: 'public',
        params: z.object({ certificateToken: z.string().min(1).max(200) }),
        response: { 200: verificationSchema },
      },
    },
    async (request, reply) => {
      const { certificateToken } = request.params;
      reply.header('cache-control', 'no-cache');
      return service.verify(certificateToken);
    },
  );

  // Broadcast feeds: short public cache, ETag of the body (304 when unchanged).
  const feedParams = z.object({ db: id, raceId: id });
  const countQuery = z.object({ count: z.coerce.number().int().min(1).max(100).default(10) });
  const feedSchema = {
    access: 'public',
    params: feedParams,
    querystring: countQuery,
    response: { 200: z.array(feedRowSchema), 304: noContentSchema },
  } as const;
  type FeedRequest = FastifyRequest<{
    Params: z.output<typeof feedParams>;
    Querystring: z.output<typeof countQuery>;
  }>;
  async function feed(
    request: FeedRequest,
    reply: FastifyReply,
    make: (race: RaceArg, count: number) => FeedRow[],
  ) {
    const p = request.params;
    const { count } = request.query;
    const ctx = await app.results.state(p.db);
    const race = ctx.races.get(p.raceId);
    if (!race) throw errors.notFound('RACE_NOT_FOUND', `No race '${p.raceId}' in '${p.db}'`);
    const body = JSON.stringify(make(race, count));
    const etag = `"${crypto.createHash('sha1').update(body).digest('base64url').slice(0, 20)}"`;
    reply
      .header('etag', etag)
      .header('cache-control', 'public, max-age=2')
      .header('access-control-allow-origin', '*');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(body);
  }
  type RaceArg = Parameters<typeof finishersFeed>[0];
  app.get('/api/feeds/:db/races/:raceId/finishers', { schema: feedSchema }, (request, reply) =>
    feed(request, reply, finishersFeed),
  );
  app.get('/api/feeds/:db/races/:raceId/leaders', { schema: feedSchema }, (request, reply) =>
    feed(request, reply, leadersFeed),
  );
  app.get('/api/feeds/:db/races/:raceId/hotseat', { schema: feedSchema }, (request, reply) =>
    feed(request, reply, (race, count) => hotSeatFeed(race, raceClock(race, Date.now()), count)),
  );
  /**
   * The corrections of a race's official results (issue 43: "feeds get the correction"), newest
   * first: when (`at` ISO, `atMs`), what, about whom, why, and the sentence spectators read in
   * each language (`text`, `textFr`: the event's zone).
   */
  app.get('/api/feeds/:db/races/:raceId/corrections', { schema: feedSchema }, async (request, reply) => {
    const zone = (await app.results.state(request.params.db)).context.timeZone ?? 'UTC';
    return feed(request, reply, (race, count) =>
      shownCorrections(race)
        .slice(0, count)
        .map((c) => ({
          id: c.id,
          at: new Date(c.atMs).toISOString(),
          atMs: c.atMs,
          kind: c.kind,
          bib: c.bib ?? '',
          name: c.name ?? '',
          reason: c.reason,
          text: correctionText(c, 'en', zone),
          textFr: correctionText(c, 'fr', zone),
        })),
    );
  });
}

/** Magic numbers: a PNG or JPEG really (a wrong content type must not reach pdfkit). */
function looksLike(bytes: Buffer, type: string): boolean {
  if (type === 'image/png')
    return bytes.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
  return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}
