import {
  athleteCardSchema,
  contextRaceSchema,
  ingestPassingSchema,
  ingestResultSchema,
  leadersBoardSchema,
  MAX_INGEST_BATCH,
  MAX_TIME_MS,
  noContentSchema,
  participantHitSchema,
  publishedLapTableSchema,
  publishedLegTableSchema,
  type RaceCourse,
  raceCourseSchema,
  raceStatsSchema,
  raceTeamsSchema,
  reportListSchema,
  reportTableSchema,
  sharedObjectSchema,
  timeInputSchema,
  timeTrialBoardSchema,
} from '@tempora/contracts';
import { publicationStatus, searchTableRows } from '@tempora/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { organisationKey } from '../../db/organisation-keys.ts';
import { AppError, errors } from '../../errors.ts';
import { parseCsv } from '../../lib/csv.ts';
import { afterAccess, checked, type ZodTypeProvider } from '../../lib/zod-routes.ts';
import { allows, requireAbility, type SubjectType } from '../../policy/policy.ts';
import { reportId } from './context-state.ts';
import { participantsFromCsv, passingsFromCsv } from './csv-import.ts';
import { lapTable } from './lap-table.ts';
import { legTable } from './leg-table.ts';
import {
  leadersBoard,
  raceClock,
  raceStats,
  TEAM_SCORING,
  teamStandings,
  timeTrialBoard,
} from './live-views.ts';
import type { Results } from './port.ts';
import { type Encoded, encodeTable, encodeTableTexts, pickEncoding } from './report-body.ts';
import { snapshotRows, snapshotTexts } from './report-snapshots.ts';
import * as repo from './repository.ts';
import { participantSchema } from './schemas.ts';
import { hashKey, type IncomingPassing, randomKey } from './service.ts';
import { createRace, importBostonList, parseWaves, raceIdFor, registerParticipants } from './setup.ts';

const dbParam = z.object({ db: z.string().min(1).max(100) });
const raceParams = dbParam.extend({ raceId: z.string().min(1).max(100) });
const tableQuery = z.object({
  q: z.string().max(100).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(100_000).optional(),
  /** Answer only from a state at least this recent (the version of a patch: issue 20). */
  minVersion: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  /** `1`: from a state caught up after the request came (a client's first read once subscribed). */
  fresh: z.literal('1').optional(),
});
const key = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, - and _ only');
const pointSchema = z.object({
  key,
  name: z.string().min(1).max(80),
  distanceM: z.number().min(0).max(1_000_000),
  isStart: z.boolean().optional(),
  lat: z.number().min(-90).max(90).nullable().optional(),
  lon: z.number().min(-180).max(180).nullable().optional(),
});
const raceSchema = z.object({
  id: key,
  name: z.string().min(1).max(120),
  date: z.iso.date(),
  distanceM: z.number().int().positive().max(1_000_000),
  startType: z.enum(['mass', 'waves', 'individual']),
  gunTimeMs: z.number().int().positive().max(MAX_TIME_MS).nullable().optional(),
  /** A replay: race time runs this many times faster than the wall clock (1 for a live race). */
  clockRate: z.number().min(0.01).max(100).optional(),
  waves: z
    .array(
      z.object({ id: z.string().min(1).max(40), startTime: z.number().int().positive().max(MAX_TIME_MS) }),
    )
    .max(100)
    .optional(),
  categories: z
    .array(
      z.object({
        id: key,
        name: z.string().min(1).max(80),
        gender: z.enum(['M', 'F', 'X']).optional(),
        minAge: z.number().int().min(0).max(120).optional(),
        maxAge: z.number().int().min(0).max(120).optional(),
      }),
    )
    .max(200)
    .optional(),
  points: z.array(pointSchema).min(1).max(100),
});
const manualSchema = z.object({
  passings: z
    .array(
      z.object({
        id: z.string().min(1).max(100).optional(),
        bib: z.string().min(1).max(32),
        point: z.string().min(1).max(64),
        time: timeInputSchema,
        deleted: z.boolean().optional(),
      }),
    )
    .min(1)
    .max(1000),
});

const eventParam = z.object({ eventId: z.string().min(1).max(100) });
const mappingQuery = z.record(z.string(), z.string().min(1).max(100));
/** Which CSV column holds what (`POST …/import/passings`): the column names, in the query. */
const passingsMapping = mappingQuery.pipe(
  z.object({
    time: z.string(),
    point: z.string().optional(),
    bib: z.string().optional(),
    chip: z.string().optional(),
    id: z.string().optional(),
    defaultPoint: z.string().optional(),
    day: z.iso.date().optional(),
    /**
     * Issue 43: the organiser's reason when the file changes official results (it then goes in as
     * a correction spectators see; 409 RACE_OFFICIAL without it).
     */
    correction: z.string().trim().min(1).max(100).optional(),
  }),
);
/** Which CSV column holds what (`POST …/import/participants`). */
const participantsMapping = mappingQuery.pipe(
  z.object({
    bib: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    gender: z.string(),
    age: z.string().optional(),
    birthDate: z.string().optional(),
    nationality: z.string().optional(),
    club: z.string().optional(),
    chip: z.string().optional(),
    category: z.string().optional(),
  }),
);
// Nothing is invented (issue 14): the organiser names the race and gives its date and gun.
const bostonQuery = z.object({
  race: key.optional(),
  name: z.string().trim().min(1).max(120),
  date: z.iso.date(),
  gun: z.iso.datetime({ offset: true }),
  waves: z.string().max(2000).optional(),
});
const addedSchema = z.object({ added: z.number() });
const bostonResultSchema = z.object({
  raceId: z.string(),
  participants: z.number(),
  passings: z.number(),
  refused: z.number(),
  issues: z.array(z.object({ line: z.number(), message: z.string() })),
});
const tableAnswer = { 200: reportTableSchema, 304: noContentSchema };
// A CSV file: the body is the text itself, read by the handler (no schema to check).
const csvBody = 'text/csv';

const toMs = (time: number | string) => (typeof time === 'number' ? time : Date.parse(time));

/**
 * Parses `chip;time;point` CSV lines (time ISO or epoch ms; `#` comments) with the server's CSV
 * reader; each line is checked by the JSON ingest schema. Lists every bad line.
 */
export async function parseIngestCsv(text: string, defaultPoint: string | null): Promise<IncomingPassing[]> {
  const { rows, lines } = await parseCsv(text, {
    noHeader: true,
    comment: '#',
    maxRows: MAX_INGEST_BATCH,
  }).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'CSV_TOO_LARGE')
      throw errors.badRequest('INGEST_TOO_LARGE', `At most ${MAX_INGEST_BATCH} passings per batch`);
    throw error;
  });
  const out: IncomingPassing[] = [];
  const bad: { field: string; message: string }[] = [];
  rows.forEach((cells, k) => {
    const [chip, time, point] = cells.map((s) => s.trim());
    const pointKey = point || defaultPoint;
    const parsed = ingestPassingSchema.safeParse({
      chip: chip || undefined,
      time: time && /^\d+$/.test(time) ? Number(time) : time,
      point: pointKey ?? undefined,
    });
    if (!parsed.success || !pointKey) {
      bad.push({ field: `line ${lines[k] ?? k + 1}`, message: 'expected chip;time;point' });
    } else out.push({ chip: chip as string, timeMs: toMs(parsed.data.time), pointKey });
  });
  if (bad.length)
    throw errors.badRequest('INGEST_INVALID', `${bad.length} invalid line(s)`, bad.slice(0, 100));
  if (out.length === 0) throw errors.badRequest('INGEST_EMPTY', 'No passings in the body');
  return out;
}

/** Sends a report table with its ETag (304 when unchanged), brotli or gzip when accepted. */
async function sendTable(
  request: FastifyRequest,
  reply: FastifyReply,
  etag: string,
  body: () => Promise<Encoded>,
) {
  reply.header('etag', etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  const encoded = await body();
  reply.type('application/json; charset=utf-8');
  const encoding = pickEncoding(String(request.headers['accept-encoding'] ?? ''));
  const packed = encoding ? await encoded.compressed(encoding) : null;
  if (encoding && packed) return reply.header('content-encoding', encoding).send(packed);
  return reply.send(encoded.json);
}

export async function resultsRoutes(fastify: FastifyInstance, opts: { service: Results }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { service } = opts;
  const database = app.database;
  if (!app.hasContentTypeParser('text/csv')) {
    app.addContentTypeParser(
      'text/csv',
      { parseAs: 'string', bodyLimit: 50 * 1024 * 1024 },
      (_r, body, done) => done(null, body),
    );
  }

  /** Loads a context and checks the caller may do `action` on `subjectType` of its organisation. */
  async function authorize(
    request: FastifyRequest,
    db: string,
    action: 'create' | 'update' | 'manage',
    subjectType: SubjectType,
  ) {
    const context = await repo.findContext(database, db);
    if (!context) throw errors.notFound('CONTEXT_NOT_FOUND', `No context '${db}'`);
    requireAbility(request, action, subjectType, context.organisationId, `${subjectType} of '${db}'`);
    return context;
  }

  /**
   * Encoded tables per ETag variant (a version, search and page): every reader of a version shares
   * one encoding. Bounded by bytes (a full Boston table is 7 MB of JSON and 2 MB of gzip): past
   * `CACHE_BYTES` it starts over, the current versions being encoded again on their next read.
   */
  const cache = new Map<string, Encoded>();
  let cacheBytes = 0;
  const CACHE_BYTES = 256 * 1024 * 1024;
  /** Keeps an encoded body for every later reader of its variant. */
  function remember(variant: string, encoded: Encoded): Encoded {
    // The plain bytes and, at most, both compressed forms (about a third of them together).
    const bytes = Math.ceil(encoded.json.length * 1.35);
    if (cacheBytes + bytes > CACHE_BYTES) {
      cache.clear();
      cacheBytes = 0;
    }
    cache.set(variant, encoded);
    cacheBytes += bytes;
    return encoded;
  }

  async function table(
    request: FastifyRequest,
    reply: FastifyReply,
    query: z.output<typeof tableQuery>,
    db: string,
    group: string | null,
    report: string,
  ) {
    const { q, offset, limit, minVersion, fresh } = query;
    const page = `${encodeURIComponent(q ?? '')}-${offset ?? ''}-${limit ?? ''}`;
    // Issue 27: a context this node has not loaded answers from its snapshot when one is stored
    // for its current state (a finished event after a restart): the first page reads one chunk.
    const snapshot = await service.snapshot(db, fresh === '1');
    // By group only: a context's report key alone names the first group holding it in the
    // state's order, which the snapshot does not keep (that route answers from the state).
    const held = snapshot && group !== null ? snapshot.reports.get(reportId(group, report)) : undefined;
    if (snapshot && held && (minVersion ?? 0) <= held.head.version) {
      const etag = `"s${snapshot.stamp}-${encodeURIComponent(`${held.head.group}/${held.head.report}`)}-${held.head.version}"`;
      const variant = `${etag.slice(0, -1)}-${page}"`;
      let body = cache.get(variant);
      if (!body && request.headers['if-none-match'] !== variant) {
        const whole = !q?.trim() && offset === undefined && limit === undefined;
        const texts = whole ? await snapshotTexts(database, snapshot, held) : null;
        if (texts)
          body = remember(variant, encodeTableTexts({ ...held.head, tag: etag, total: held.total }, texts));
        const from = q?.trim() ? 0 : (offset ?? 0);
        const to = q?.trim() || limit === undefined ? held.total : from + limit;
        let rows = body || whole ? null : await snapshotRows(database, snapshot, held, from, to);
        if (rows) {
          let total = held.total;
          if (q?.trim()) {
            rows = searchTableRows(rows, held.head.keyField, q, held.head.columns);
            total = rows.length;
            if (offset !== undefined || limit !== undefined)
              rows = rows.slice(offset ?? 0, (offset ?? 0) + (limit ?? rows.length));
          }
          body = remember(variant, await encodeTable({ ...held.head, tag: etag, total }, rows));
        }
      }
      const ready = body;
      if (ready || request.headers['if-none-match'] === variant)
        return sendTable(request, reply, variant, async () => ready as Encoded);
    }
    const ctx = await service.state(db, minVersion, fresh === '1');
    const def = ctx.reports.find((r) => r.key === report && (group === null || r.groupKey === group));
    if (!def) throw errors.notFound('REPORT_NOT_FOUND', `No report '${report}'`);
    // Built in slices when not cached (issue 27: a 26,000-row ranking held the event loop 130 ms).
    const { etag, rows: all, ...full } = await ctx.tableSliced(def);
    const variant = `${etag.slice(0, -1)}-${page}"`;
    return sendTable(request, reply, variant, async () => {
      const hit = cache.get(variant);
      if (hit) return hit;
      let rows = all;
      // The page's search (issue 27): accent-blind, an exact bib first, a number a bib prefix.
      if (q?.trim()) rows = searchTableRows(rows, full.keyField, q, full.columns);
      const total = rows.length;
      if (offset !== undefined || limit !== undefined)
        rows = rows.slice(offset ?? 0, (offset ?? 0) + (limit ?? rows.length));
      return remember(variant, await encodeTable({ ...full, tag: etag, total }, rows));
    });
  }

  app.get(
    '/api/results/:eventId/reportlist',
    { schema: { access: 'public', params: eventParam, response: { 200: reportListSchema } } },
    async (request) => service.reportList(request.params.eventId),
  );

  // The query is checked once the group is known (an unknown group is a 404 whatever the query).
  app.get(
    '/api/results/:eventId/groups/:group/reports/:report',
    {
      schema: {
        access: 'public',
        params: eventParam.extend({ group: z.string().min(1).max(100), report: z.string().min(1).max(100) }),
        querystring: afterAccess(tableQuery),
        response: tableAnswer,
      },
    },
    async (request, reply) => {
      const p = request.params;
      const db = await service.contextOfGroup(p.eventId, p.group);
      return table(request, reply, checked(request, 'querystring'), db, p.group, p.report);
    },
  );

  app.get(
    '/api/results/contexts/:db/reports/:report',
    {
      schema: {
        access: 'public',
        params: dbParam.extend({ report: z.string().min(1).max(100) }),
        querystring: tableQuery,
        response: tableAnswer,
      },
    },
    async (request, reply) => {
      const p = request.params;
      return table(request, reply, request.query, p.db, null, p.report);
    },
  );

  app.get(
    '/api/results/contexts/:db/participants',
    {
      schema: {
        access: 'public',
        params: dbParam,
        querystring: z.object({ q: z.string().max(100).default('') }),
        response: { 200: z.array(participantHitSchema) },
      },
    },
    async (request) => service.participants(request.params.db, request.query.q),
  );

  /** Registers participants in a race of a context (JSON or CSV import) and reloads its state. */
  async function register(db: string, raceId: string, people: Parameters<typeof registerParticipants>[2]) {
    const added = await registerParticipants(database, raceId, people);
    await service.reload(db);
    return added;
  }

  async function requireRace(db: string, raceId: string) {
    const race = await database.query('SELECT 1 FROM races WHERE id = $1 AND db = $2', [raceId, db]);
    if (!race.length) throw errors.notFound('RACE_NOT_FOUND', `No race '${raceId}'`);
  }

  /** The race of a context, for the live views (statistics, leaders board). */
  async function liveRace(db: string, raceId: string) {
    const ctx = await service.state(db);
    const race = ctx.races.get(raceId);
    if (!race) throw errors.notFound('RACE_NOT_FOUND', `No race '${raceId}' in '${db}'`);
    return race;
  }

  /** The race named by a live view's `:db/races/:raceId` parameters. */
  function raceOfRequest(request: { params: z.output<typeof raceParams> }) {
    return liveRace(request.params.db, request.params.raceId);
  }

  app.get(
    '/api/results/contexts/:db/races',
    { schema: { access: 'public', params: dbParam, response: { 200: z.array(contextRaceSchema) } } },
    async (request) => {
      const { db } = request.params;
      const ctx = await service.state(db);
      return [...ctx.races.values()].map((r) => ({
        id: r.row.id,
        name: r.row.name,
        distanceM: r.row.distanceM,
        startType: r.row.startType,
        points: r.points
          .slice()
          .sort((a, b) => a.position - b.position)
          .map((p) => ({ key: p.key, name: p.name, nameFr: repo.frenchName(p), distanceM: p.distanceM })),
      }));
    },
  );

  app.get(
    '/api/results/contexts/:db/races/:raceId/stats',
    { schema: { access: 'public', params: raceParams, response: { 200: raceStatsSchema } } },
    async (request) => {
      return raceStats(await raceOfRequest(request));
    },
  );

  app.get(
    '/api/results/contexts/:db/races/:raceId/leaders',
    {
      schema: {
        access: 'public',
        params: raceParams,
        querystring: z.object({ count: z.coerce.number().int().min(1).max(50).default(5) }),
        response: { 200: leadersBoardSchema },
      },
    },
    async (request) => {
      const [board, context] = await Promise.all([
        raceOfRequest(request).then((race) => leadersBoard(race, request.query.count)),
        repo.findContext(database, request.params.db),
      ]);
      const event = context && (await repo.findEvent(database, context.eventId));
      return event ? { ...board, event: { id: event.id, name: event.name } } : board;
    },
  );

  app.get(
    '/api/results/contexts/:db/races/:raceId/timetrial',
    { schema: { access: 'public', params: raceParams, response: { 200: timeTrialBoardSchema } } },
    async (request) => {
      const p = request.params;
      const race = await raceOfRequest(request);
      const { context } = await service.state(p.db);
      return timeTrialBoard(race, raceClock(race, Date.now()), 10, context.timeZone ?? null);
    },
  );

  /** Provisional, open to protests or official (issue 31), as set in the console. */
  function publicationState(race: { row: { rules?: Record<string, unknown> } }) {
    const stored = race.row.rules?.publication as
      | { publishedAtMs?: unknown; protestWindowMs?: unknown }
      | undefined;
    return publicationStatus(
      typeof stored?.publishedAtMs === 'number'
        ? {
            publishedAtMs: stored.publishedAtMs,
            protestWindowMs: typeof stored.protestWindowMs === 'number' ? stored.protestWindowMs : 0,
          }
        : {},
      Date.now(),
    );
  }

  /** A lap race's live table (issue 31): laps, last and best lap, distance; 404 for other formats. */
  app.get(
    '/api/results/contexts/:db/races/:raceId/laps',
    { schema: { access: 'public', params: raceParams, response: { 200: publishedLapTableSchema } } },
    async (request) => {
      const race = await raceOfRequest(request);
      const table = lapTable(race, raceClock(race, Date.now()));
      if (!table) throw errors.notFound('NOT_A_LAP_RACE', `Race '${race.row.id}' is not a lap race`);
      const { context } = await service.state(request.params.db);
      return { ...table, publication: publicationState(race), timeZone: context.timeZone ?? null };
    },
  );

  /** A multisport race's or a relay's legs (issue 31): leg times and ranks; 404 for other formats. */
  app.get(
    '/api/results/contexts/:db/races/:raceId/legs',
    { schema: { access: 'public', params: raceParams, response: { 200: publishedLegTableSchema } } },
    async (request) => {
      const race = await raceOfRequest(request);
      const table = legTable(race, raceClock(race, Date.now()));
      if (!table)
        throw errors.notFound('NOT_A_LEG_RACE', `Race '${race.row.id}' is neither multisport nor a relay`);
      const { context } = await service.state(request.params.db);
      return { ...table, publication: publicationState(race), timeZone: context.timeZone ?? null };
    },
  );

  app.get(
    '/api/results/contexts/:db/races/:raceId/course',
    { schema: { access: 'public', params: raceParams, response: { 200: raceCourseSchema } } },
    async (request) => {
      const race = await raceOfRequest(request);
      return {
        raceId: race.row.id,
        name: race.row.name,
        distanceM: race.row.distanceM,
        // A LineString when set (the console stores no other shape).
        course: (race.row.course ?? null) as RaceCourse['course'],
        points: race.points
          .slice()
          .sort((a, b) => a.position - b.position)
          .map(repo.coursePoint),
      };
    },
  );

  app.get(
    '/api/results/contexts/:db/participants/:bib',
    {
      schema: {
        access: 'public',
        params: dbParam.extend({ bib: z.string().min(1).max(32) }),
        response: { 200: athleteCardSchema },
      },
    },
    async (request) => {
      const p = request.params;
      return service.athleteByBib(p.db, p.bib);
    },
  );

  app.get(
    '/api/results/contexts/:db/races/:raceId/teams',
    { schema: { access: 'public', params: raceParams, response: { 200: raceTeamsSchema } } },
    async (request) => {
      const p = request.params;
      const race = await liveRace(p.db, p.raceId);
      const teams = teamStandings(race);
      const tokens = await repo.teamTokensOf(
        database,
        p.db,
        p.raceId,
        teams.map((t) => t.name),
        () => randomKey(),
      );
      return {
        raceId: race.row.id,
        name: race.row.name,
        scoring: race.row.teamRule?.best ?? TEAM_SCORING,
        teams: teams.map(({ members, ...t }) => ({
          ...t,
          token: tokens.get(t.name) ?? '',
          size: members.length,
        })),
      };
    },
  );

  /**
   * `objectdetail/{token}` (issue 7): a team through its share token, or an athlete through their
   * tracking key; both opaque and unguessable. 404 for anything else.
   */
  app.get(
    '/api/objects/:objectToken',
    {
      schema: {
        access: 'public',
        params: z.object({ objectToken: z.string().min(1).max(64) }),
        response: { 200: sharedObjectSchema },
      },
    },
    async (request, reply) => {
      const { objectToken: token } = request.params;
      reply.header('cache-control', 'no-cache');
      const team = await repo.findTeamToken(database, token);
      if (!team) return { kind: 'athlete' as const, card: await service.tracking(token) };
      const race = await liveRace(team.db, team.raceId);
      const standings = teamStandings(race);
      const result = standings.find((t) => t.name === team.team);
      if (!result) throw errors.notFound('TEAM_NOT_FOUND', 'This team has no runner any more');
      return {
        kind: 'team' as const,
        db: team.db,
        race: { id: race.row.id, name: race.row.name },
        scoring: TEAM_SCORING,
        teams: standings.length,
        team: { ...result, token },
      };
    },
  );

  app.get(
    '/api/tracking/:trackingKey',
    {
      schema: {
        access: 'public',
        params: z.object({ trackingKey: z.string().min(1).max(64) }),
        response: { 200: athleteCardSchema },
      },
    },
    async (request, reply) => {
      const p = request.params;
      reply.header('cache-control', 'no-cache');
      return service.tracking(p.trackingKey);
    },
  );

  // POST /api/ingest/passings: a transport of the timing front door (devices/routes.ts).

  // The body is checked before the event (as it always was): a bad body is a 400 for anyone.
  app.post(
    '/api/results/events/:eventId/contexts',
    {
      schema: {
        access: 'manager',
        params: eventParam,
        body: z.object({ db: key, name: z.string().min(1).max(120) }),
        response: { 201: z.object({ db: z.string() }) },
      },
    },
    async (request, reply) => {
      const { eventId } = request.params;
      const body = request.body;
      const event = await repo.findEvent(database, eventId);
      if (!event) throw errors.notFound('EVENT_NOT_FOUND', `No event '${eventId}'`);
      requireAbility(request, 'update', 'Event', event.organisationId, `event '${eventId}'`);
      // Issue 41: one namespace per organisation (db/organisation-keys.ts): a key another
      // organisation holds gets a suffix, the answer names the key kept.
      const db = await organisationKey(database, 'context', body.db, event.organisationId);
      if (!db)
        throw errors.conflict('CONTEXT_EXISTS', `Your organisation has a context '${body.db}' already`);
      await repo.insertContext(database, { db, eventId, name: body.name });
      return reply.code(201).send({ db });
    },
  );

  app.post(
    '/api/results/contexts/:db/races',
    {
      schema: {
        access: 'manager',
        params: dbParam,
        body: afterAccess(raceSchema),
        response: { 201: z.object({ id: z.string() }) },
      },
    },
    async (request, reply) => {
      const { db } = request.params;
      await authorize(request, db, 'create', 'Race');
      const body = checked(request, 'body');
      // Ids are unique per context as far as callers can tell (setup.ts raceIdFor, issue 25).
      const id = await database.transaction(async (sql) => {
        const given = await raceIdFor(sql, db, body.id);
        await createRace(sql, db, { ...body, id: given });
        return given;
      });
      await service.reload(db);
      return reply.code(201).send({ id });
    },
  );

  app.post(
    '/api/results/contexts/:db/races/:raceId/participants',
    {
      bodyLimit: 20 * 1024 * 1024,
      schema: {
        access: 'manager',
        params: raceParams,
        body: afterAccess(z.object({ participants: z.array(participantSchema).min(1).max(100_000) })),
        response: { 201: addedSchema },
      },
    },
    async (request, reply) => {
      const { db, raceId } = request.params;
      await authorize(request, db, 'create', 'Participant');
      const body = checked(request, 'body');
      await requireRace(db, raceId);
      const bibs = new Set<string>();
      const dup = body.participants.findIndex((p) => bibs.size === bibs.add(p.bib).size);
      if (dup >= 0)
        throw errors.badRequest('VALIDATION_FAILED', 'Duplicate bib', [
          { field: `participants.${dup}.bib`, message: 'duplicate bib' },
        ]);
      return reply.code(201).send(await register(db, raceId, body.participants));
    },
  );

  app.post(
    '/api/results/contexts/:db/devices',
    {
      schema: {
        access: 'timekeeper',
        params: dbParam,
        body: afterAccess(
          z.object({ name: z.string().min(1).max(80), pointKey: key.nullable().default(null) }),
        ),
        response: { 201: z.object({ id: z.string(), key: z.string() }) },
      },
    },
    async (request, reply) => {
      const { db } = request.params;
      await authorize(request, db, 'manage', 'Device');
      const body = checked(request, 'body');
      const deviceKey = `tdk_${randomKey(24)}`;
      const id = await repo.insertDevice(database, {
        db,
        name: body.name,
        keyHash: hashKey(deviceKey),
        pointKey: body.pointKey,
      });
      return reply.code(201).send({ id, key: deviceKey });
    },
  );

  app.post(
    '/api/results/contexts/:db/passings',
    {
      schema: {
        access: 'timekeeper',
        params: dbParam,
        body: afterAccess(manualSchema),
        response: { 200: ingestResultSchema },
      },
    },
    async (request) => {
      const { db } = request.params;
      await authorize(request, db, 'manage', 'Passing');
      const body = checked(request, 'body');
      // Through the race-day ingest, like the passings desk: a read clears a DNS (issue 26).
      return app.raceday.service.ingest(
        db,
        body.passings.map((p) => ({
          id: p.id,
          bib: p.bib,
          pointKey: p.point,
          timeMs: toMs(p.time),
          deleted: p.deleted,
        })),
        'manual',
        { createdBy: request.user?.sub ?? null },
      );
    },
  );

  app.post(
    '/api/results/contexts/:db/import/passings',
    {
      bodyLimit: 50 * 1024 * 1024,
      // No body schema: the body is the CSV text (`csvBody`), read by the importer.
      schema: {
        access: 'timekeeper',
        params: dbParam,
        querystring: afterAccess(passingsMapping),
        response: { 200: ingestResultSchema },
      },
    },
    async (request) => {
      const { db } = request.params;
      const context = await authorize(request, db, 'manage', 'Passing');
      if (typeof request.body !== 'string')
        throw errors.badRequest('CSV_REQUIRED', `Send the file as ${csvBody}`);
      const mapping = checked(request, 'querystring');
      const { defaultPoint, day, correction, ...columns } = mapping;
      // Issue 43: only the organiser confirms a change of official results.
      if (correction && !allows(request, 'update', 'Race', { organisationId: context.organisationId }))
        throw new AppError(403, 'CORRECTION_NEEDS_ORGANISER', 'Only the organiser corrects official results');
      const confirmed = correction ? { reason: correction } : undefined;
      const dayStart = day ? Date.parse(`${day}T00:00:00Z`) : null;
      const incoming = await passingsFromCsv(request.body, columns, defaultPoint ?? null, dayStart);
      // Through the race-day ingest: a read clears a DNS, as from any other way in (issue 26).
      const service = app.raceday.service;
      const out = await service.ingest(
        db,
        incoming,
        'import',
        { createdBy: request.user?.sub ?? null },
        { confirmed },
      );
      if (confirmed && out.accepted) {
        // One correction per official race the file changed: how many of its reads came in.
        const ctx = await app.results.state(db);
        const official = service.officialRaces(ctx);
        const counts = new Map<string, number>();
        for (const r of incoming) {
          const race = ctx.raceOf({ ...(r.bib ? { bib: r.bib } : {}), ...(r.chip ? { chip: r.chip } : {}) });
          if (race && official.has(race.row.id)) counts.set(race.row.id, (counts.get(race.row.id) ?? 0) + 1);
        }
        await service.recordCorrections(
          db,
          confirmed,
          [...counts].map(([raceId, count]) =>
            service.correctionNote(ctx.races.get(raceId)!, null, 'imported', { count }),
          ),
        );
      }
      return out;
    },
  );

  app.post(
    '/api/results/contexts/:db/races/:raceId/import/participants',
    {
      bodyLimit: 20 * 1024 * 1024,
      // No body schema: the body is the CSV text (`csvBody`), read by the importer.
      schema: {
        access: 'manager',
        params: raceParams,
        querystring: afterAccess(participantsMapping),
        response: { 201: addedSchema },
      },
    },
    async (request, reply) => {
      const { db, raceId } = request.params;
      await authorize(request, db, 'create', 'Participant');
      if (typeof request.body !== 'string')
        throw errors.badRequest('CSV_REQUIRED', `Send the file as ${csvBody}`);
      const mapping = checked(request, 'querystring');
      const people = await participantsFromCsv(request.body, mapping);
      await requireRace(db, raceId);
      return reply.code(201).send(await register(db, raceId, people));
    },
  );

  app.post(
    '/api/results/contexts/:db/import/boston',
    {
      bodyLimit: 50 * 1024 * 1024,
      // No body schema: the body is the CSV text (`csvBody`), read by the importer.
      schema: {
        access: 'manager',
        params: dbParam,
        querystring: afterAccess(bostonQuery),
        response: { 201: bostonResultSchema },
      },
    },
    async (request, reply) => {
      const { db } = request.params;
      await authorize(request, db, 'create', 'Race');
      if (typeof request.body !== 'string')
        throw errors.badRequest('CSV_REQUIRED', `Send the CSV file as ${csvBody}`);
      const query = checked(request, 'querystring');
      const waves = parseWaves(query.waves);
      if (waves === null)
        throw errors.badRequest('VALIDATION_FAILED', 'Invalid query', [
          { field: 'waves', message: 'expected firstBib-lastBib@ISO time, comma separated' },
        ]);
      const table = await parseCsv(request.body);
      const result = await importBostonList(database, db, table, {
        id: query.race,
        name: query.name,
        date: query.date,
        gunTime: Date.parse(query.gun),
        waves,
      });
      await service.reload(db);
      return reply.code(201).send(result);
    },
  );
}
