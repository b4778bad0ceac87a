/**
 * Race-day routes (issue 15): devices and their connectors, the passings desk (reads, manual
 * entry, corrections, audit, statuses, unknown chips), start control, and the HTTP ingest of
 * Impinj Speedway Connect and RaceResult exporters. Every organiser route checks `manage` on
 * Passing or Device of the context's organisation (owner, staff, timekeeper: abilities.ts):
 * 401 anonymous, 403 others, 404 unknown context.
 */
import crypto from 'node:crypto';
import { ingestRequestSchema } from '@tempora/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, errors } from '../../errors.ts';
import { afterAccess, checked, type ZodTypeProvider } from '../../lib/zod-routes.ts';
import { allows, requireAbility } from '../../policy/policy.ts';
import { parseInput } from '../../validate.ts';
import * as resultsRepo from '../results/port.ts';
import { hashKey, type IncomingPassing, parseIngestCsv, randomKey } from '../results/port.ts';
import * as desk from './desk-repository.ts';
import { type FrontDoor, toIncoming } from './ingest.ts';
import type { ConnectorManager } from './manager.ts';
import { checkDeviceAddress, type DeviceNetworkRules } from './network-rules.ts';
import type { VendorRead } from './protocols/common.ts';
import { jsonRecords, parseImpinj, parseRrExporter } from './protocols/http.ts';
import * as repo from './repository.ts';
import * as s from './schemas.ts';
import type { RacedayService } from './service.ts';

export async function racedayRoutes(
  fastify: FastifyInstance,
  opts: { service: RacedayService; manager: ConnectorManager; door: FrontDoor; rules: DeviceNetworkRules },
) {
  const { service, manager, door, rules } = opts;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const database = app.database;
  // `POST /api/ingest/passings` takes `chip;time;point` lines as text/csv too.
  if (!app.hasContentTypeParser('text/csv'))
    app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_r, body, done) => done(null, body));

  /**
   * A connector's fields, then its address under the network rules (network-rules.ts, issue 25):
   * a new one's, or a changed one's (a device whose stored address the operator has closed since
   * can still be renamed or disabled; it does not connect: the check is made again there).
   */
  async function checkConnector(
    c: Parameters<typeof checkFields>[0],
    current: { deviceId: string; host: string | null; listenPort: number | null } | null,
  ) {
    checkFields(c);
    const address = {
      host: c.host !== current?.host ? c.host : null,
      listenPort: c.listenPort !== current?.listenPort ? c.listenPort : null,
    };
    await checkDeviceAddress(rules, address, async (port) =>
      (await repo.allConnectors(database)).some(
        (o) => o.listenPort === port && o.deviceId !== current?.deviceId,
      ),
    );
  }

  async function authorize(request: FastifyRequest, db: string, subject: 'Passing' | 'Device' = 'Passing') {
    const context = await resultsRepo.findContext(database, db);
    if (!context) throw errors.notFound('CONTEXT_NOT_FOUND', `No context '${db}'`);
    requireAbility(request, 'manage', subject, context.organisationId, `race day of '${db}'`);
    return context;
  }
  const actor = (request: FastifyRequest) => request.user?.sub ?? null;

  /**
   * A change of official results confirmed in the request (issue 43): only the organiser (owner
   * or staff: `update` on the race) confirms one — a timekeeper is refused with 403
   * `CORRECTION_NEEDS_ORGANISER` and asks them. Undefined when the request confirms nothing.
   */
  function confirmedBy(
    request: FastifyRequest,
    context: { organisationId: string },
    correction: { reason: string } | undefined,
  ) {
    if (!correction) return undefined;
    if (!allows(request, 'update', 'Race', { organisationId: context.organisationId }))
      throw new AppError(
        403,
        'CORRECTION_NEEDS_ORGANISER',
        'Only the organiser (owner or staff) corrects official results',
      );
    return { reason: correction.reason };
  }

  app.get(
    '/api/raceday/clock',
    { schema: { access: 'public', response: { 200: s.serverClockSchema } } },
    async () => ({ serverTimeMs: Date.now() }),
  );

  /** The event's contexts with their races, points, waves and gun times (the race-day pages' frame). */
  app.get(
    '/api/raceday/events/:eventId',
    { schema: { access: 'timekeeper', params: s.eventParams, response: { 200: s.racedayEventSchema } } },
    async (request) => {
      const { eventId } = request.params;
      const event = await resultsRepo.findEvent(database, eventId);
      if (!event) throw errors.notFound('EVENT_NOT_FOUND', `No event '${eventId}'`);
      requireAbility(request, 'manage', 'Passing', event.organisationId, `race day of '${eventId}'`);
      const contexts = await resultsRepo.contextsOfEvent(database, eventId);
      // Times are stored in UTC and shown in the event's zone (migration 0007: events.time_zone).
      const [zone] = await database.query<{ timeZone: string | null }>(
        'SELECT time_zone AS "timeZone" FROM events WHERE id = $1',
        [eventId],
      );
      return {
        event: { id: event.id, name: event.name, status: event.status, timeZone: zone?.timeZone ?? null },
        serverTimeMs: Date.now(),
        contexts: await Promise.all(
          contexts.map(async (c) => {
            const [races, points] = await Promise.all([
              resultsRepo.racesOf(database, c.db),
              resultsRepo.pointsOf(database, c.db),
            ]);
            return {
              db: c.db,
              name: c.name,
              races: races.map((r) => ({
                id: r.id,
                name: r.name,
                startType: r.startType,
                gunTimeMs: r.gunTimeMs,
                waves: r.waves,
                clockRate: r.clockRate,
                official: resultsRepo.isOfficial(r.rules),
                points: points
                  .filter((p) => p.raceId === r.id)
                  // Both names (issue 43: the French desk said "Finish" for "Arrivée").
                  .map((p) => ({
                    key: p.key,
                    name: p.name,
                    nameFr: p.nameFr || p.name,
                    isStart: p.isStart,
                    distanceM: p.distanceM,
                  })),
              })),
            };
          }),
        ),
      };
    },
  );

  /** Bibs of a context, for the desk's at-once wrong-bib check (also offline, cached). */
  app.get(
    '/api/raceday/contexts/:db/runners',
    {
      schema: { access: 'timekeeper', params: s.dbParams, response: { 200: z.array(s.racedayRunnerSchema) } },
    },
    async (request) => {
      const { db } = request.params;
      await authorize(request, db);
      const ctx = await app.results.state(db);
      const out: {
        bib: string;
        name: string;
        raceId: string;
        status: string;
        statusReason: string | null;
      }[] = [];
      const reasons = new Map(
        (
          await database.query<{ raceId: string; bib: string; reason: string }>(
            `SELECT p.race_id AS "raceId", p.bib, p.status_reason AS reason FROM participants p JOIN races r ON r.id = p.race_id
            WHERE r.db = $1 AND p.status_reason IS NOT NULL`,
            [db],
          )
        ).map((r) => [`${r.raceId}/${r.bib}`, r.reason]),
      );
      for (const race of ctx.races.values())
        for (const p of race.participants)
          out.push({
            bib: p.bib,
            name: `${p.firstName} ${p.lastName}`,
            raceId: race.row.id,
            status: p.status,
            statusReason: reasons.get(`${race.row.id}/${p.bib}`) ?? null,
          });
      return out;
    },
  );

  // ── devices ─────────────────────────────────────────────────────────────
  app.get(
    '/api/raceday/contexts/:db/devices',
    { schema: { access: 'timekeeper', params: s.dbParams, response: { 200: s.devicesAnswerSchema } } },
    async (request) => {
      const { db } = request.params;
      await authorize(request, db, 'Device');
      const [configs, counts] = await Promise.all([
        repo.connectorsOf(database, db),
        repo.deviceCounts(database, db),
      ]);
      return {
        serverTimeMs: Date.now(),
        devices: configs.map((c) => {
          const count = counts.get(c.deviceId);
          const live = manager.status(c.deviceId).view();
          const listening = manager.connector(c.deviceId)?.port ?? null;
          return {
            id: c.deviceId,
            name: c.name,
            kind: c.kind,
            pointKey: c.pointKey,
            host: c.host,
            port: c.port,
            listenPort: listening || c.listenPort,
            clockOffsetMs: c.clockOffsetMs,
            timeZone: c.timeZone,
            chipFormat: c.chipFormat,
            enabled: c.enabled,
            pointMap: c.pointMap,
            status: {
              ...live,
              state: c.enabled
                ? live.state === 'disabled'
                  ? ('waiting' as const)
                  : live.state
                : ('disabled' as const),
              readsTotal: count?.total ?? 0,
              readsPerMinute: Math.max(live.readsPerMinute, count?.lastMinute ?? 0),
              lastReadTimeMs: count?.lastTimeMs ?? live.lastReadTimeMs,
              lastReadAt: count?.lastAt ?? live.lastReadAt,
            },
          };
        }),
      };
    },
  );

  app.post(
    '/api/raceday/contexts/:db/devices',
    {
      schema: {
        rules: CONNECTOR_RULES,
        access: 'timekeeper',
        params: s.dbParams,
        body: afterAccess(s.connectorSchema),
        response: { 201: s.deviceCreatedSchema },
      },
    },
    async (request, reply) => {
      const { db } = request.params;
      await authorize(request, db, 'Device');
      const body = checked(request, 'body');
      await checkConnector(body, null);
      const deviceKey = `tdk_${randomKey(24)}`;
      const id = await database.transaction(async (sql) => {
        const deviceId = await resultsRepo.insertDevice(sql, {
          db,
          name: body.name,
          keyHash: hashKey(deviceKey),
          pointKey: body.pointKey,
        });
        await repo.upsertConnector(sql, { deviceId, db, ...body });
        return deviceId;
      });
      if (manager.active) await manager.reload();
      return reply.code(201).send({ id, key: deviceKey });
    },
  );

  app.patch(
    '/api/raceday/contexts/:db/devices/:deviceId',
    {
      schema: {
        rules: CONNECTOR_RULES,
        access: 'timekeeper',
        params: s.deviceParams,
        body: afterAccess(s.connectorPatchSchema),
        response: { 200: s.deviceIdSchema },
      },
    },
    async (request) => {
      const { db, deviceId } = request.params;
      await authorize(request, db, 'Device');
      const body = checked(request, 'body');
      const current = await repo.findConnector(database, deviceId);
      if (!current || current.db !== db)
        throw errors.notFound('DEVICE_NOT_FOUND', `No device '${deviceId}' in '${db}'`);
      const next = { ...current, ...body };
      await checkConnector(next, current);
      await database.transaction(async (sql) => {
        await sql.query('UPDATE devices SET name = $2, point_key = $3 WHERE id = $1', [
          deviceId,
          next.name,
          next.pointKey,
        ]);
        await repo.upsertConnector(sql, { ...next, deviceId, db });
      });
      if (manager.active) await manager.reload();
      return { id: deviceId };
    },
  );

  /**
   * Corrects a device's clock: the measured drift applied to its offset (or a given offset), with
   * the audit trail (who, when, old and new offset, the drift it corrected). Reads to come carry
   * the new offset; reads stored already keep their times (retime them at the desk if needed).
   */
  app.post(
    '/api/raceday/contexts/:db/devices/:deviceId/clock',
    {
      schema: {
        access: 'timekeeper',
        params: s.deviceParams,
        body: afterAccess(s.clockSchema),
        response: { 201: s.clockCorrectedSchema },
      },
    },
    async (request, reply) => {
      const { db, deviceId } = request.params;
      await authorize(request, db, 'Device');
      const body = checked(request, 'body');
      const current = await repo.findConnector(database, deviceId);
      if (!current || current.db !== db)
        throw errors.notFound('DEVICE_NOT_FOUND', `No device '${deviceId}' in '${db}'`);
      const status = manager.status(deviceId);
      const { driftMs, driftSource } = status.view();
      let next: number;
      if (body.action === 'applyDrift') {
        if (driftMs === null) throw errors.conflict('DRIFT_UNKNOWN', 'No drift measured for this device yet');
        next = current.clockOffsetMs - driftMs;
      } else next = body.clockOffsetMs;
      const offset = parseInput(s.connectorPatchSchema, { clockOffsetMs: next });
      const auditId = crypto.randomUUID();
      await database.transaction(async (sql) => {
        await repo.upsertConnector(sql, { ...current, clockOffsetMs: offset.clockOffsetMs! });
        await desk.insertAudit(sql, {
          id: auditId,
          db,
          action: 'clock',
          before: {
            deviceId,
            name: current.name,
            clockOffsetMs: current.clockOffsetMs,
            driftMs,
            driftSource,
          },
          after: { deviceId, clockOffsetMs: next },
          reason: body.reason,
          actor: actor(request),
        });
      });
      status.resetDrift();
      if (manager.active) await manager.reload();
      return reply.code(201).send({ auditId, previousOffsetMs: current.clockOffsetMs, clockOffsetMs: next });
    },
  );

  // ── passings desk ──────────────────────────────────────────────────────
  app.get(
    '/api/raceday/contexts/:db/passings',
    {
      schema: {
        access: 'timekeeper',
        params: s.dbParams,
        querystring: afterAccess(s.listQuery),
        response: { 200: s.deskReadsSchema },
      },
    },
    async (request) => {
      const { db } = request.params;
      await authorize(request, db);
      const q = checked(request, 'querystring');
      const rows = await desk.listReads(database, db, q);
      const ctx = await app.results.state(db);
      return {
        reads: rows.map((r) => {
          const race = ctx.raceOf({ ...(r.bib ? { bib: r.bib } : {}), ...(r.chip ? { chip: r.chip } : {}) });
          const i = race && (r.chip ? race.byChip.get(r.chip) : race.byBib.get(r.bib ?? ''));
          const p = race && i !== undefined ? race.participants[i]! : null;
          return {
            ...r,
            runner: p
              ? { raceId: race!.row.id, bib: p.bib, name: `${p.firstName} ${p.lastName}`, status: p.status }
              : null,
          };
        }),
        next: rows.length === q.limit ? rows[rows.length - 1]!.seq : null,
      };
    },
  );

  app.post(
    '/api/raceday/contexts/:db/manual',
    {
      schema: {
        access: 'timekeeper',
        params: s.dbParams,
        body: afterAccess(s.manualSchema),
        response: { 200: s.manualResultSchema },
      },
    },
    async (request) => {
      const { db } = request.params;
      const context = await authorize(request, db);
      const body = checked(request, 'body');
      return service.manual(db, body.entries, actor(request), confirmedBy(request, context, body.correction));
    },
  );

  app.post(
    '/api/raceday/contexts/:db/corrections',
    {
      schema: {
        access: 'timekeeper',
        params: s.dbParams,
        body: afterAccess(s.correctionSchema),
        response: { 201: s.auditedSchema },
      },
    },
    async (request, reply) => {
      const { db } = request.params;
      const context = await authorize(request, db);
      const body = checked(request, 'body');
      const who = actor(request);
      const confirmed = confirmedBy(request, context, body.correction);
      const out =
        body.action === 'void'
          ? await service.voidRead(db, body.passingId, body.reason, who, undefined, confirmed)
          : body.action === 'restore'
            ? await service.restoreRead(db, body.passingId, body.reason, who, undefined, confirmed)
            : body.action === 'edit'
              ? await service.editRead(
                  db,
                  body.passingId,
                  { timeMs: body.timeMs, pointKey: body.pointKey },
                  body.reason,
                  who,
                  confirmed,
                )
              : await service.addRead(
                  db,
                  { bib: body.bib, pointKey: body.pointKey, timeMs: body.timeMs },
                  body.reason,
                  who,
                  confirmed,
                );
      return reply.code(201).send(out);
    },
  );

  app.post(
    '/api/raceday/contexts/:db/audit/:auditId/undo',
    {
      schema: {
        access: 'timekeeper',
        params: s.auditParams,
        body: afterAccess(s.undoSchema),
        response: { 201: s.auditedSchema },
      },
    },
    async (request, reply) => {
      const { db, auditId } = request.params;
      const context = await authorize(request, db);
      const body = checked(request, 'body');
      return reply
        .code(201)
        .send(
          await service.undo(
            db,
            auditId,
            body.reason,
            actor(request),
            confirmedBy(request, context, body.correction),
          ),
        );
    },
  );

  app.get(
    '/api/raceday/contexts/:db/audit',
    {
      schema: {
        access: 'timekeeper',
        params: s.dbParams,
        querystring: afterAccess(s.auditQuery),
        response: { 200: s.racedayAuditSchema },
      },
    },
    async (request) => {
      const { db } = request.params;
      await authorize(request, db);
      const q = checked(request, 'querystring');
      return desk.listAudit(database, db, q.limit);
    },
  );

  app.post(
    '/api/raceday/contexts/:db/races/:raceId/status',
    {
      schema: {
        rules: { reason: 'required to set a status other than registered' },
        access: 'timekeeper',
        params: s.raceParams,
        body: afterAccess(s.statusSchema),
        response: { 201: s.auditedSchema },
      },
    },
    async (request, reply) => {
      const { db, raceId } = request.params;
      const context = await authorize(request, db);
      const body = checked(request, 'body');
      if (body.status !== 'registered' && !body.reason)
        throw errors.badRequest('VALIDATION_FAILED', 'A reason is required', [
          { field: 'reason', message: 'required' },
        ]);
      const confirmed = confirmedBy(request, context, body.correction);
      return reply
        .code(201)
        .send(
          await service.setStatus(
            db,
            raceId,
            body.bib,
            body.status,
            body.reason,
            actor(request),
            undefined,
            confirmed,
          ),
        );
    },
  );

  app.post(
    '/api/raceday/contexts/:db/races/:raceId/start',
    {
      schema: {
        access: 'timekeeper',
        params: s.raceParams,
        body: afterAccess(s.startSchema),
        response: { 201: s.auditedSchema },
      },
    },
    async (request, reply) => {
      const { db, raceId } = request.params;
      const context = await authorize(request, db);
      const body = checked(request, 'body');
      const who = actor(request);
      const confirmed = confirmedBy(request, context, body.correction);
      if (body.action === 'gun')
        return reply
          .code(201)
          .send(
            await service.setGun(
              db,
              raceId,
              body.timeMs ?? Date.now(),
              body.reason,
              who,
              undefined,
              confirmed,
            ),
          );
      if (body.action === 'wave')
        return reply
          .code(201)
          .send(
            await service.setWave(
              db,
              raceId,
              body.waveId,
              body.timeMs,
              body.reason,
              who,
              undefined,
              confirmed,
            ),
          );
      return reply
        .code(201)
        .send(await service.setStarts(db, raceId, body.starts, body.reason, who, confirmed));
    },
  );

  app.get(
    '/api/raceday/contexts/:db/unknown',
    {
      schema: {
        access: 'timekeeper',
        params: s.dbParams,

        response: { 200: z.array(s.unknownRunnerSchema) },
      },
    },
    async (request) => {
      const { db } = request.params;
      await authorize(request, db);
      return service.unknownRunners(db);
    },
  );

  app.post(
    '/api/raceday/contexts/:db/unknown/assign',
    {
      schema: {
        access: 'timekeeper',
        params: s.dbParams,
        body: afterAccess(s.assignSchema),
        response: { 201: s.auditedSchema },
      },
    },
    async (request, reply) => {
      const { db } = request.params;
      const context = await authorize(request, db);
      const body = checked(request, 'body');
      const confirmed = confirmedBy(request, context, body.correction);
      return reply
        .code(201)
        .send(await service.assignChip(db, body.chip, body.raceId, body.bib, actor(request), confirmed));
    },
  );

  // ── HTTP-fed devices ───────────────────────────────────────────────────
  /**
   * Tempora's own ingest (JSON `{ passings: [...] }` or `chip;time;point` CSV lines): times are
   * UTC; the device's point map, clock offset and chip format apply, and its status counts them,
   * as for every other transport (the front door, ./ingest.ts).
   */
  app.post(
    '/api/ingest/passings',
    {
      bodyLimit: 5 * 1024 * 1024,
      schema: {
        summary: 'A device’s reads (header x-device-key): JSON, or `chip;time;point` lines as text/csv',
        access: 'key',
        body: afterAccess(
          z.union([
            ingestRequestSchema,
            z.string().describe('text/csv: one `chip;time;point` line per read'),
          ]),
        ),
        response: { 200: s.ingestResultSchema },
      },
    },
    async (request) => {
      const receivedAt = Date.now();
      const header = request.headers['x-device-key'];
      if (typeof header !== 'string' || header.length < 10)
        throw errors.unauthorized('x-device-key header required');
      const config = await door.authenticate(header);
      if (!config) throw new AppError(401, 'DEVICE_UNKNOWN', 'Unknown device key');
      let reads: { read: VendorRead & { deleted?: boolean }; point: string | null }[];
      if (typeof request.body === 'string')
        reads = (await parseIngestCsv(request.body, null)).map((p) => ({
          read: { chip: p.chip!, pointKey: null, deviceTimeMs: p.timeMs },
          point: p.pointKey,
        }));
      else {
        const body = parseInput(ingestRequestSchema, request.body);
        reads = body.passings.map((p) => ({
          read: {
            ...(p.id ? { id: p.id } : {}),
            ...(p.bib ? { bib: p.bib } : {}),
            ...(p.chip ? { chip: p.chip } : {}),
            ...(p.deleted ? { deleted: true } : {}),
            pointKey: null,
            deviceTimeMs: typeof p.time === 'number' ? p.time : Date.parse(p.time),
          },
          point: p.point ?? null,
        }));
      }
      const incoming: IncomingPassing[] = [];
      for (const [k, r] of reads.entries()) {
        const p = toIncoming(config, r.read, r.point);
        if (!p)
          throw errors.badRequest('VALIDATION_FAILED', 'point is required', [
            { field: `passings.${k}.point`, message: 'required for this device' },
          ]);
        incoming.push(p);
      }
      // Answered once stored and its effects applied (a DNS cleared): the caller reads after it.
      return door.store(config, incoming, { receivedAt, settle: true });
    },
  );

  async function deviceOf(request: FastifyRequest, kind: 'impinj' | 'rrexporter') {
    const q = request.query as { key?: string };
    const header = request.headers['x-device-key'];
    // Speedway Connect and RaceResult's exporter cannot always set headers: the key may be a query parameter.
    const key = typeof header === 'string' ? header : q.key;
    if (!key || key.length < 10) throw errors.unauthorized('x-device-key header or key parameter required');
    const config = await door.authenticate(key);
    if (!config) throw new AppError(401, 'DEVICE_UNKNOWN', 'Unknown device key');
    if (config.kind !== kind)
      throw errors.badRequest('DEVICE_KIND', `This device is not configured as ${kind}`);
    if (!config.enabled) throw errors.conflict('DEVICE_DISABLED', 'This device is disabled');
    return config;
  }

  for (const kind of ['impinj', 'rrexporter'] as const) {
    const path = kind === 'impinj' ? '/api/ingest/impinj' : '/api/ingest/raceresult';
    app.post(
      path,
      {
        bodyLimit: 5 * 1024 * 1024,
        schema: {
          summary:
            kind === 'impinj'
              ? 'Impinj Speedway Connect reads (its JSON records; key in x-device-key or ?key=)'
              : 'RaceResult exporter reads (its JSON records; key in x-device-key or ?key=)',
          access: 'key',
          querystring: s.ingestKeyQuery,
          body: afterAccess(z.unknown().describe('The vendor’s JSON records')),
          response: { 200: s.ingestResultSchema },
        },
      },
      async (request) => {
        const receivedAt = Date.now();
        const config = await deviceOf(request, kind);
        const records = jsonRecords(request.body);
        if (records === null) throw errors.badRequest('BAD_FORMAT', 'Expected JSON records');
        if (records.length > 10_000)
          throw errors.badRequest('TOO_MANY', 'At most 10,000 records per request');
        const incoming = [];
        if (kind === 'impinj') {
          const parsed = parseImpinj(records);
          if (!parsed.ok) throw errors.badRequest('BAD_FORMAT', parsed.reason);
          for (const r of parsed.reads) {
            const p = toIncoming(config, r, r.antenna || null);
            if (!p) throw errors.badRequest('POINT_UNKNOWN', `No timing point for antenna '${r.antenna}'`);
            incoming.push(p);
          }
        } else {
          const parsed = parseRrExporter(records);
          if (!parsed.ok) throw errors.badRequest('BAD_FORMAT', parsed.reason);
          for (const r of parsed.reads) {
            const p = toIncoming(config, r, r.timingPoint || null);
            if (!p) throw errors.badRequest('POINT_UNKNOWN', `No timing point for '${r.timingPoint}'`);
            incoming.push(p);
          }
        }
        manager.status(config.deviceId).set('connected', null, request.ip);
        // Speedway Connect and the exporter send each read's UTC time: the drift is estimated from them.
        return door.store(config, incoming, { receivedAt });
      },
    );
  }
}

/** The rules `checkFields` holds, for the API document (issue 41). */
const CONNECTOR_RULES = {
  host: 'required for a device Tempora connects to (kind raceresult or wiclax)',
  port: 'required for kind wiclax',
  listenPort: 'required for a device that connects to Tempora (kind mylaps or chronotrack)',
} as const;

/** A connector needs its address: clients a host (and a port for Wiclax), listeners a port. */
function checkFields(c: {
  kind: string;
  host: string | null;
  port: number | null;
  listenPort: number | null;
}) {
  const need = (ok: boolean, field: string, message: string) => {
    if (!ok) throw errors.badRequest('VALIDATION_FAILED', message, [{ field, message }]);
  };
  if (c.kind === 'raceresult') need(!!c.host, 'host', 'the decoder’s address is required');
  if (c.kind === 'wiclax') {
    need(!!c.host, 'host', 'the device’s address is required');
    need(!!c.port, 'port', 'the device’s port is required');
  }
  if (c.kind === 'mylaps' || c.kind === 'chronotrack')
    need(!!c.listenPort, 'listenPort', 'a port to listen on is required');
}
