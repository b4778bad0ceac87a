import crypto from 'node:crypto';
import {
  type ConsolePoint,
  categoriesReplaceSchema,
  consoleRaceSchema,
  coursePlacementSchema,
  cutoffOverrideSchema,
  noContentSchema,
  pointsReplaceSchema,
  type ResultCorrection,
  raceCreateSchema,
  raceFormatSchema,
  racePublicationPreviewSchema,
  racePublicationSchema,
  raceUpdateSchema,
  relayMembersSchema,
  teamRuleSchema,
} from '@tempora/contracts';
import {
  editionBands,
  editionRunnersFromCsv,
  editionRunnersOf,
  type LonLat,
  pointAtDistance,
  projectOnTrack,
  statusOf,
  zonedTimeToUtc,
} from '@tempora/domain';
import type { FastifyInstance } from 'fastify';
import type { Sql } from '../../../db/database.ts';
import { errors } from '../../../errors.ts';
import { afterAccess, checked, type ZodTypeProvider } from '../../../lib/zod-routes.ts';
import { contextFor, raceFor } from '../../../policy/policy.ts';
import { createRace, raceIdFor, recordCorrections } from '../../results/port.ts';
import { syncCategoryReports } from '../reports/repository.ts';
import { dbParams, fadePriorSchema, raceParams } from '../schemas.ts';
import { courseFromUpload } from './course-file.ts';
import { bumpEpoch, cutoffOverridesOf, raceView, relayMembersOf, replacePoints } from './repository.ts';
import { reviewOf } from './review.ts';

/** An instant from a wall-clock time of the race day in the event's zone (400 when it cannot be). */
function instant(date: string, time: string, zone: string, field: string): number {
  const ms = zonedTimeToUtc(date, time, zone);
  if (ms === null)
    throw errors.badRequest('VALIDATION_FAILED', 'Invalid body', [{ field, message: 'not a time' }]);
  return ms;
}

const fieldError = (field: string, message: string) =>
  errors.badRequest('VALIDATION_FAILED', 'Invalid body', [{ field, message }]);

/**
 * Races of a context in the console (issue 14): create (with a start and a finish point and the
 * standard reports), edit (name, date, distance, start type, gun and wave times typed in the
 * event's time zone), delete while no passing is theirs; timing points; the course (GPX or
 * GeoJSON) and points placed on it; categories and their age basis; the team rule; the format.
 */
export async function raceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app;

  async function view(raceId: string) {
    const race = await raceView(database, raceId);
    if (!race) throw errors.notFound('RACE_NOT_FOUND', `No race '${raceId}'`);
    return race;
  }

  /** The contexts each open transaction changed, reloaded once it has committed. */
  const changedIn = new WeakMap<Sql, Set<string>>();

  /**
   * After a change of a race's setup: its epoch moves with the change, and its context's results
   * reload once the transaction has committed — inside it, the reload's rebuild (when someone
   * watches) would read the rows before the change, or wait for the transaction itself on the
   * embedded database's one connection.
   */
  async function changed(sql: Sql, db: string, raceId: string) {
    await bumpEpoch(sql, raceId);
    const dbs = changedIn.get(sql) ?? new Set<string>();
    dbs.add(db);
    changedIn.set(sql, dbs);
  }

  /** `database.transaction`, then the reloads its changes asked for (see `changed`). */
  async function transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    let held: Sql | undefined;
    const result = await database.transaction((sql) => {
      held = sql;
      return fn(sql);
    });
    for (const db of (held && changedIn.get(held)) ?? []) await app.results.reload(db);
    return result;
  }

  app.post(
    '/api/console/contexts/:db/races',
    {
      schema: {
        rules: { waves: 'a wave start (startType waves) needs its waves' },
        access: 'manager',
        params: dbParams,
        body: afterAccess(raceCreateSchema),
        response: { 201: consoleRaceSchema },
      },
    },
    async (request, reply) => {
      const { db } = request.params;
      const ctx = await contextFor(request, database, db, 'create', 'Race');
      const { id: requested, ...body } = checked(request, 'body');
      // Ids are unique per context as far as callers can tell (results/setup.ts raceIdFor, issue 25).
      const id = await raceIdFor(database, db, requested);
      if (body.startType === 'waves' && body.waves.length === 0)
        throw fieldError('waves', 'a wave start needs its waves');
      const gunTimeMs =
        body.gunTime === null ? null : instant(body.date, body.gunTime, ctx.timeZone, 'gunTime');
      const waves = body.waves.map((w, k) => ({
        id: w.id,
        name: w.name,
        startTime: instant(body.date, w.gunTime, ctx.timeZone, `waves.${k}.gunTime`),
      }));
      await transaction(async (sql) => {
        const [{ n } = { n: 0 }] = await sql.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM races WHERE db = $1',
          [db],
        );
        await createRace(
          sql,
          db,
          {
            id,
            name: body.name,
            date: body.date,
            distanceM: body.distanceM,
            startType: body.startType,
            gunTimeMs,
            waves,
            points: [
              { key: 'start', name: 'Start', distanceM: 0, isStart: true },
              { key: 'finish', name: 'Finish', distanceM: body.distanceM },
            ],
          },
          n,
        );
        await replacePoints(sql, id, [
          {
            key: 'start',
            name: { en: 'Start', fr: 'Départ' },
            distanceM: 0,
            kind: 'start',
            lat: null,
            lon: null,
          },
          {
            key: 'finish',
            name: { en: 'Finish', fr: 'Arrivée' },
            distanceM: body.distanceM,
            kind: 'finish',
            lat: null,
            lon: null,
          },
        ]);
      });
      await app.results.reload(db);
      return reply.code(201).send(await view(id));
    },
  );

  app.get(
    '/api/console/races/:raceId',
    {
      schema: {
        access: 'timekeeper',
        params: raceParams,
        response: { 200: consoleRaceSchema },
      },
    },
    async (request) => {
      const { raceId } = request.params;
      await raceFor(request, database, raceId, 'read');
      return view(raceId);
    },
  );

  app.patch(
    '/api/console/races/:raceId',
    {
      schema: {
        rules: { waves: 'a wave start (startType waves) needs its waves' },
        access: 'manager',
        params: raceParams,
        body: afterAccess(raceUpdateSchema),
        response: { 200: consoleRaceSchema },
      },
    },
    async (request) => {
      const { raceId } = request.params;
      const race = await raceFor(request, database, raceId, 'update');
      const patch = checked(request, 'body');
      const current = await view(raceId);
      const date = patch.date ?? current.date;
      // A new date keeps the gun's wall-clock time (the instants move with the day).
      const gunTime = patch.gunTime !== undefined ? patch.gunTime : current.gunTime;
      const gunTimeMs = gunTime === null ? null : instant(date, gunTime, race.timeZone, 'gunTime');
      const waves = (
        patch.waves ?? current.waves.map((w) => ({ id: w.id, name: w.name, gunTime: w.gunTime }))
      ).map((w, k) => ({
        id: w.id,
        name: w.name,
        startTime: instant(date, w.gunTime, race.timeZone, `waves.${k}.gunTime`),
      }));
      if ((patch.startType ?? current.startType) === 'waves' && waves.length === 0)
        throw fieldError('waves', 'a wave start needs its waves');
      await transaction(async (sql) => {
        await sql.query(
          `UPDATE races SET name = $2, race_date = $3::date, distance_m = $4, start_type = $5, gun_time_ms = $6,
                waves = $7::jsonb WHERE id = $1`,
          [
            raceId,
            patch.name ?? current.name,
            date,
            patch.distanceM ?? current.distanceM,
            patch.startType ?? current.startType,
            gunTimeMs,
            JSON.stringify(waves),
          ],
        );
        if (patch.name !== undefined)
          await sql.query('UPDATE report_groups SET name = $3::jsonb WHERE db = $1 AND key = $2', [
            race.db,
            raceId,
            JSON.stringify({ en: patch.name, fr: patch.name }),
          ]);
        await changed(sql, race.db, raceId);
      });
      return view(raceId);
    },
  );

  app.delete(
    '/api/console/races/:raceId',
    {
      schema: {
        access: 'manager',
        params: raceParams,
        response: { 204: noContentSchema },
      },
    },
    async (request, reply) => {
      const { raceId } = request.params;
      const race = await raceFor(request, database, raceId, 'delete');
      const current = await view(raceId);
      if (current.passings > 0)
        throw errors.conflict(
          'RACE_HAS_PASSINGS',
          `The race has ${current.passings} passings; it can no longer be deleted`,
        );
      await transaction(async (sql) => {
        await sql.query(`DELETE FROM reports WHERE db = $1 AND definition->>'raceId' = $2`, [
          race.db,
          raceId,
        ]);
        await sql.query(
          'DELETE FROM report_groups g WHERE g.db = $1 AND g.key = $2 AND NOT EXISTS (SELECT 1 FROM reports r WHERE r.db = g.db AND r.group_key = g.key)',
          [race.db, raceId],
        );
        await sql.query('DELETE FROM team_tokens WHERE db = $1 AND race_id = $2', [race.db, raceId]);
        await sql.query('DELETE FROM races WHERE id = $1', [raceId]);
      });
      await app.results.reload(race.db);
      return reply.code(204).send();
    },
  );

  app.put(
    '/api/console/races/:raceId/points',
    {
      schema: {
        access: 'manager',
        params: raceParams,
        body: afterAccess(pointsReplaceSchema),
        response: { 200: consoleRaceSchema },
      },
    },
    async (request) => {
      const { raceId } = request.params;
      const race = await raceFor(request, database, raceId, 'update');
      const { points } = checked(request, 'body');
      await transaction(async (sql) => {
        await replacePoints(sql, raceId, points as ConsolePoint[]);
        await changed(sql, race.db, raceId);
      });
      return view(raceId);
    },
  );

  app.put(
    '/api/console/races/:raceId/course',
    {
      bodyLimit: 20 * 1024 * 1024,
      schema: {
        access: 'manager',
        params: raceParams,
        response: { 200: consoleRaceSchema },
      },
    },
    async (request) => {
      const { raceId } = request.params;
      const race = await raceFor(request, database, raceId, 'update');
      const track = courseFromUpload(request.body);
      const current = await view(raceId);
      // Points without coordinates are placed at their distance along the new track.
      const points = current.points.map((p) =>
        p.lat === null ? { ...p, ...(pointAtDistance(track, p.distanceM) ?? { lat: null, lon: null }) } : p,
      );
      await transaction(async (sql) => {
        await sql.query('UPDATE races SET course = $2::jsonb WHERE id = $1', [
          raceId,
          JSON.stringify({ type: 'LineString', coordinates: track }),
        ]);
        await replacePoints(sql, raceId, points);
        await changed(sql, race.db, raceId);
      });
      return view(raceId);
    },
  );

  app.delete(
    '/api/console/races/:raceId/course',
    {
      schema: {
        access: 'manager',
        params: raceParams,
        response: { 200: consoleRaceSchema },
      },
    },
    async (request) => {
      const { raceId } = request.params;
      const race = await raceFor(request, database, raceId, 'update');
      await transaction(async (sql) => {
        await sql.query('UPDATE races SET course = NULL WHERE id = $1', [raceId]);
        await changed(sql, race.db, raceId);
      });
      return view(raceId);
    },
  );

  app.post(
    '/api/console/races/:raceId/course/place',
    {
      schema: {
        rules: { placements: 'each key names a timing point of the race' },
        access: 'manager',
        params: raceParams,
        body: afterAccess(coursePlacementSchema),
        response: { 200: consoleRaceSchema },
      },
    },
    async (request) => {
      const { raceId } = request.params;
      const race = await raceFor(request, database, raceId, 'update');
      const { placements } = checked(request, 'body');
      const current = await view(raceId);
      if (!current.course) throw errors.conflict('COURSE_MISSING', 'Upload the course first');
      const track = current.course.coordinates as LonLat[];
      const points = current.points.map((p) => ({ ...p }));
      for (const [k, placement] of placements.entries()) {
        const index = points.findIndex((p) => p.key === placement.key);
        if (index < 0) throw fieldError(`placements.${k}.key`, 'no such timing point');
        const point = points[index]!;
        if ('distanceM' in placement) {
          const at = pointAtDistance(track, placement.distanceM)!;
          Object.assign(point, { distanceM: placement.distanceM, lat: at.lat, lon: at.lon });
        } else {
          // On an out-and-back course, the passage after the previous point is the one meant.
          const before = index > 0 ? points[index - 1]!.distanceM : 0;
          const at = projectOnTrack(track, placement.lat, placement.lon, before)!;
          Object.assign(point, {
            distanceM: point.kind === 'start' ? 0 : Math.round(at.distanceM),
            lat: Math.round(at.lat * 1e6) / 1e6,
            lon: Math.round(at.lon * 1e6) / 1e6,
          });
        }
      }
      const check = pointsReplaceSchema.safeParse({ points });
      if (!check.success)
        throw errors.badRequest(
          'VALIDATION_FAILED',
          'The placed points are out of course order',
          check.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })),
        );
      await transaction(async (sql) => {
        await replacePoints(sql, raceId, points);
        await changed(sql, race.db, raceId);
      });
      return view(raceId);
    },
  );

  app.put(
    '/api/console/races/:raceId/categories',
    {
      schema: {
        access: 'manager',
        params: raceParams,
        body: afterAccess(categoriesReplaceSchema),
        response: { 200: consoleRaceSchema },
      },
    },
    async (request) => {
      const { raceId } = request.params;
      const race = await raceFor(request, database, raceId, 'update');
      const body = checked(request, 'body');
      await transaction(async (sql) => {
        await sql.query('UPDATE races SET categories = $2::jsonb, age_basis = $3 WHERE id = $1', [
          raceId,
          JSON.stringify(body.categories),
          body.ageBasis,
        ]);
        await syncCategoryReports(sql, race.db, raceId, body.categories);
        await changed(sql, race.db, raceId);
      });
      return view(raceId);
    },
  );

  app.put(
    '/api/console/races/:raceId/team-rule',
    {
      schema: {
        access: 'manager',
        params: raceParams,
        body: afterAccess(teamRuleSchema),
        response: { 200: consoleRaceSchema },
      },
    },
    async (request) => {
      const { raceId } = request.params;
      const race = await raceFor(request, database, raceId, 'update');
      const rule = checked(request, 'body');
      await transaction(async (sql) => {
        await sql.query('UPDATE races SET team_rule = $2::jsonb WHERE id = $1', [
          raceId,
          JSON.stringify(rule),
        ]);
        await changed(sql, race.db, raceId);
      });
      return view(raceId);
    },
  );

  /**
   * The course's previous editions for the finish prediction (issue 19): their finishers' half
   * and finish times, from a CSV or from an earlier race the caller can read, kept as per-band
   * ratios (`editionBands`) in the race's rules; the predictions of the race use them as their
   * prior (`priorFromBands`), which the live field then refines.
   */
  app.put(
    '/api/console/races/:raceId/fade-prior',
    {
      bodyLimit: 12 * 1024 * 1024,
      schema: {
        rules: {
          csv: 'a result list with at least one half-time band of 5 finishers',
          fromRaceId: 'a race with at least one half-time band of 5 finishers',
        },
        access: 'manager',
        params: raceParams,
        body: afterAccess(fadePriorSchema),
        response: { 200: consoleRaceSchema },
      },
    },
    async (request) => {
      const { raceId } = request.params;
      const race = await raceFor(request, database, raceId, 'update');
      const body = checked(request, 'body');
      let runners: { halfMs: number; finishMs: number }[];
      let source: string;
      if ('csv' in body) {
        runners = editionRunnersFromCsv(body.csv);
        source = 'csv';
      } else {
        const from = await raceFor(request, database, body.fromRaceId, 'read');
        const live = (await app.results.state(from.db)).races.get(body.fromRaceId);
        if (!live) throw errors.notFound('RACE_NOT_FOUND', `No race '${body.fromRaceId}'`);
        runners = editionRunnersOf(live.results);
        source = body.fromRaceId;
      }
      const bands = editionBands(runners);
      if (bands.bands.length === 0)
        throw fieldError('csv' in body ? 'csv' : 'fromRaceId', 'no half-time band with 5 finishers');
      await transaction(async (sql) => {
        await sql.query(
          `UPDATE races SET rules = rules || jsonb_build_object('fadePrior', $2::jsonb) WHERE id = $1`,
          [raceId, JSON.stringify({ ...bands, source })],
        );
        await changed(sql, race.db, raceId);
      });
      return view(raceId);
    },
  );

  /**
   * The race's format (issue 31): the road race, laps, time-limited, backyard, multisport or
   * relay, with its parameters, kept in the race's rules. Every point it names must be one of the
   * race's timing points.
   */
  app.put(
    '/api/console/races/:raceId/format',
    {
      schema: {
        rules: {
          lapPointKey: 'a timing point of the race',
          legs: 'each pointKey names a timing point of the race',
          cutoffs: 'each pointKey names a timing point of the race',
        },
        access: 'manager',
        params: raceParams,
        body: afterAccess(raceFormatSchema),
        response: { 200: consoleRaceSchema },
      },
    },
    async (request) => {
      const { raceId } = request.params;
      const race = await raceFor(request, database, raceId, 'update');
      const format = checked(request, 'body');
      const current = await view(raceId);
      const keys = new Set(current.points.map((p) => p.key));
      if ('lapPointKey' in format && !keys.has(format.lapPointKey))
        throw fieldError('lapPointKey', 'no such timing point');
      if ('legs' in format)
        format.legs.forEach((leg, k) => {
          if (!keys.has(leg.pointKey)) throw fieldError(`legs.${k}.pointKey`, 'no such timing point');
        });
      if ('cutoffs' in format)
        format.cutoffs?.forEach((c, k) => {
          if (!keys.has(c.pointKey)) throw fieldError(`cutoffs.${k}.pointKey`, 'no such timing point');
        });
      await transaction(async (sql) => {
        await sql.query(
          `UPDATE races SET rules = rules || jsonb_build_object('format', $2::jsonb) WHERE id = $1`,
          [raceId, JSON.stringify(format)],
        );
        await changed(sql, race.db, raceId);
      });
      return view(raceId);
    },
  );

  /**
   * Publishing results (issue 31): official now, after an optional protest window, or back to
   * provisional. Spectators' live tables say which (`publication` beside the rows). Issue 43:
   * official results go back to provisional only with a reason, kept as a correction spectators
   * see ("re-opened as provisional") and sent to webhooks; the lock (devices `service/lock.ts`)
   * holds from the moment of publishing.
   */
  app.put(
    '/api/console/races/:raceId/publication',
    {
      schema: {
        access: 'manager',
        params: raceParams,
        body: afterAccess(racePublicationSchema),
        response: { 200: consoleRaceSchema },
      },
    },
    async (request) => {
      const { raceId } = request.params;
      const race = await raceFor(request, database, raceId, 'update');
      const body = checked(request, 'body');
      const current = await view(raceId);
      if (!body.official && current.publication && !body.reason)
        throw fieldError('reason', 'say why official results are re-opened');
      const reopened: ResultCorrection | null =
        !body.official && current.publication
          ? {
              id: crypto.randomUUID(),
              raceId,
              atMs: Date.now(),
              kind: 'reopened',
              bib: null,
              name: null,
              point: null,
              timeMs: null,
              status: null,
              count: null,
              reason: body.reason!,
            }
          : null;
      await transaction(async (sql) => {
        if (body.official)
          await sql.query(
            `UPDATE races SET rules = rules || jsonb_build_object('publication', $2::jsonb) WHERE id = $1`,
            [
              raceId,
              JSON.stringify({
                publishedAtMs: Date.now(),
                protestWindowMs: body.protestWindowMinutes * 60_000,
              }),
            ],
          );
        else await sql.query(`UPDATE races SET rules = rules - 'publication' WHERE id = $1`, [raceId]);
        if (reopened) await recordCorrections(sql, [reopened]);
        await changed(sql, race.db, raceId);
      });
      if (reopened) await app.results.announceCorrections(race.db, [reopened]);
      return view(raceId);
    },
  );

  /**
   * What "Publish as official" would publish (issue 43: the console asks first): finishers, DNF,
   * DNS, DSQ, runners on course or not started, and the review's open anomalies.
   */
  app.get(
    '/api/console/races/:raceId/publication',
    {
      schema: {
        access: 'timekeeper',
        params: raceParams,
        response: { 200: racePublicationPreviewSchema },
      },
    },
    async (request) => {
      const { raceId } = request.params;
      const race = await raceFor(request, database, raceId, 'read');
      const live = (await app.results.state(race.db)).races.get(raceId);
      if (!live) throw errors.notFound('RACE_NOT_FOUND', `No race '${raceId}'`);
      const counts = { finished: 0, DNF: 0, DNS: 0, DSQ: 0, onCourse: 0, notStarted: 0 };
      live.participants.forEach((_p, i) => {
        const status = statusOf(live.results, i) as keyof typeof counts;
        if (status in counts) counts[status]++;
      });
      return {
        raceId,
        timeZone: race.timeZone,
        nowMs: Date.now(),
        finishers: counts.finished,
        dnf: counts.DNF,
        dns: counts.DNS,
        dsq: counts.DSQ,
        onCourse: counts.onCourse,
        notStarted: counts.notStarted,
        anomalies: (await reviewOf(app, raceId, live)).length,
      };
    },
  );

  /**
   * The desk reinstates an athlete (or a team) past a cut-off, or undoes that (issue 31): kept in
   * the race's rules; the leg table then shows the decision without applying it. Race-day access.
   */
  app.put(
    '/api/console/races/:raceId/cutoff-overrides',
    {
      schema: {
        access: 'timekeeper',
        params: raceParams,
        body: afterAccess(cutoffOverrideSchema),
        response: { 200: consoleRaceSchema },
      },
    },
    async (request) => {
      const { raceId } = request.params;
      const race = await raceFor(request, database, raceId, 'manage', 'Passing');
      const body = checked(request, 'body');
      await transaction(async (sql) => {
        const [row] = await sql.query<{ list: unknown }>(
          `SELECT rules->'cutoffOverrides' AS list FROM races WHERE id = $1 FOR UPDATE`,
          [raceId],
        );
        const others = cutoffOverridesOf(row?.list).filter(
          (o) => o.bib !== body.bib || o.pointKey !== body.pointKey,
        );
        const list = body.reinstated ? [...others, { bib: body.bib, pointKey: body.pointKey }] : others;
        await sql.query(
          `UPDATE races SET rules = rules || jsonb_build_object('cutoffOverrides', $2::jsonb) WHERE id = $1`,
          [raceId, JSON.stringify(list)],
        );
        await bumpEpoch(sql, raceId);
      });
      // After the commit: the reload rebuilds the results when someone watches, reading the races
      // row this transaction held (inside it, on one connection, the reload waited for itself).
      await app.results.reload(race.db);
      return view(raceId);
    },
  );

  /**
   * A relay's members (issue 31): who runs each leg of each team, kept in the race's rules by team
   * bib (a team is one participant, read at every exchange). The spectators' leg table names them
   * and who is on course. The teams sent replace theirs; every bib must be a participant's.
   */
  app.put(
    '/api/console/races/:raceId/relay-members',
    {
      schema: {
        rules: { teams: 'each bib names a team of this race' },
        access: 'manager',
        params: raceParams,
        body: afterAccess(relayMembersSchema),
        response: { 200: consoleRaceSchema },
      },
    },
    async (request) => {
      const { raceId } = request.params;
      const race = await raceFor(request, database, raceId, 'update');
      const { teams } = checked(request, 'body');
      await transaction(async (sql) => {
        const known = new Set(
          (
            await sql.query<{ bib: string }>(
              'SELECT bib FROM participants WHERE race_id = $1 AND deleted_at IS NULL AND bib IS NOT NULL',
              [raceId],
            )
          ).map((p) => p.bib),
        );
        teams.forEach((team, k) => {
          if (!known.has(team.bib)) throw fieldError(`teams.${k}.bib`, 'no such team in this race');
        });
        const [row] = await sql.query<{ stored: unknown }>(
          `SELECT rules->'relayMembers' AS stored FROM races WHERE id = $1 FOR UPDATE`,
          [raceId],
        );
        const members = relayMembersOf(row?.stored);
        for (const team of teams) {
          if (team.members.some((m) => m)) members[team.bib] = team.members;
          else delete members[team.bib];
        }
        await sql.query(
          `UPDATE races SET rules = rules || jsonb_build_object('relayMembers', $2::jsonb) WHERE id = $1`,
          [raceId, JSON.stringify(members)],
        );
        await changed(sql, race.db, raceId);
      });
      return view(raceId);
    },
  );

  app.delete(
    '/api/console/races/:raceId/fade-prior',
    {
      schema: {
        access: 'manager',
        params: raceParams,
        response: { 200: consoleRaceSchema },
      },
    },
    async (request) => {
      const { raceId } = request.params;
      const race = await raceFor(request, database, raceId, 'update');
      await transaction(async (sql) => {
        await sql.query(`UPDATE races SET rules = rules - 'fadePrior' WHERE id = $1`, [raceId]);
        await changed(sql, race.db, raceId);
      });
      return view(raceId);
    },
  );
}
