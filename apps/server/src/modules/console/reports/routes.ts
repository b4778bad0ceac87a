import {
  noContentSchema,
  reportCreateSchema,
  reportDefinitionViewSchema,
  reportFields,
  reportOrderSchema,
  reportUpdateSchema,
  reportVisibilitySchema,
} from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errors } from '../../../errors.ts';
import { afterAccess, checked, type ZodTypeProvider } from '../../../lib/zod-routes.ts';
import { raceFor } from '../../../policy/policy.ts';
import type { ReportDefinition } from '../../results/port.ts';
import { bumpEpoch } from '../races/repository.ts';
import { raceParams, reportParams } from '../schemas.ts';
import * as repo from './repository.ts';

/**
 * Report definitions of a race (issue 14): the standard ones made with the race are renamed,
 * reordered, hidden and given other columns; an organiser adds filtered reports (a club, a wave,
 * a gender or a category) of any kind, and deletes those. Members read them; staff manage them.
 */
export async function reportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app;

  app.get(
    '/api/console/races/:raceId/reports',
    {
      schema: {
        access: 'timekeeper',
        params: raceParams,
        response: { 200: z.array(reportDefinitionViewSchema) },
      },
    },
    async (request) => {
      const { raceId } = request.params;
      const race = await raceFor(request, database, raceId, 'read', 'Report');
      return repo.reportsOfRace(database, race.db, raceId);
    },
  );

  app.post(
    '/api/console/races/:raceId/reports',
    {
      schema: {
        access: 'manager',
        params: raceParams,
        body: afterAccess(reportCreateSchema),
        response: { 201: reportDefinitionViewSchema },
      },
    },
    async (request, reply) => {
      const { raceId } = request.params;
      const race = await raceFor(request, database, raceId, 'create', 'Report');
      const body = checked(request, 'body');
      if (await repo.reportRow(database, race.db, raceId, body.key))
        throw errors.conflict('REPORT_EXISTS', `A report '${body.key}' exists for this race`);
      const common = {
        raceId,
        custom: true,
        filter: body.filter,
        ...(body.columns ? { columns: body.columns } : {}),
      };
      const definition: ReportDefinition =
        body.kind === 'ranking'
          ? { kind: 'ranking', scope: 'overall', ...common }
          : body.kind === 'lastPassings'
            ? { kind: 'lastPassings', limit: 50, ...common }
            : { kind: 'startList', ...common };
      await database.transaction(async (sql) => {
        await sql.query(
          'INSERT INTO report_groups (db, key, name, position) VALUES ($1, $2, $3, 0) ON CONFLICT DO NOTHING',
          [race.db, raceId, JSON.stringify({ en: raceId, fr: raceId })],
        );
        await repo.insertReport(sql, race.db, raceId, {
          key: body.key,
          name: body.name,
          definition,
          hidden: body.hidden,
        });
        await bumpEpoch(sql, raceId);
      });
      await app.results.reload(race.db);
      const views = await repo.reportsOfRace(database, race.db, raceId);
      return reply.code(201).send(views.find((v) => v.key === body.key)!);
    },
  );

  app.patch(
    '/api/console/races/:raceId/reports/:key',
    {
      schema: {
        access: 'manager',
        params: reportParams,
        body: afterAccess(reportUpdateSchema),
        response: { 200: reportDefinitionViewSchema },
      },
    },
    async (request) => {
      const { raceId, key } = request.params;
      const race = await raceFor(request, database, raceId, 'update', 'Report');
      const patch = checked(request, 'body');
      const row = await repo.reportRow(database, race.db, raceId, key);
      if (!row) throw errors.notFound('REPORT_NOT_FOUND', `No report '${key}'`);
      const allowed = reportFields[row.definition.kind] as readonly string[];
      const bad = patch.columns?.findIndex((c) => !allowed.includes(c)) ?? -1;
      if (bad >= 0)
        throw errors.badRequest('VALIDATION_FAILED', 'Invalid body', [
          { field: `columns.${bad}`, message: `not a field of a ${row.definition.kind} report` },
        ]);
      if (patch.limit !== undefined && row.definition.kind !== 'lastPassings')
        throw errors.badRequest('VALIDATION_FAILED', 'Invalid body', [
          { field: 'limit', message: 'last passings only' },
        ]);
      const definition = { ...row.definition } as ReportDefinition & { limit?: number };
      if (patch.filter !== undefined) definition.filter = patch.filter;
      if (patch.columns === null) delete definition.columns;
      else if (patch.columns !== undefined) definition.columns = patch.columns;
      if (patch.limit !== undefined) definition.limit = patch.limit;
      await database.transaction(async (sql) => {
        await repo.updateReport(sql, race.db, {
          ...row,
          name: patch.name ?? row.name,
          hidden: patch.hidden ?? row.hidden,
          definition,
        });
        await bumpEpoch(sql, raceId);
      });
      await app.visibility.forget();
      await app.results.reload(race.db);
      return (await repo.reportsOfRace(database, race.db, raceId)).find((v) => v.key === key);
    },
  );

  app.delete(
    '/api/console/races/:raceId/reports/:key',
    {
      schema: {
        access: 'manager',
        params: reportParams,
        response: { 204: noContentSchema },
      },
    },
    async (request, reply) => {
      const { raceId, key } = request.params;
      const race = await raceFor(request, database, raceId, 'delete', 'Report');
      const row = await repo.reportRow(database, race.db, raceId, key);
      if (!row) throw errors.notFound('REPORT_NOT_FOUND', `No report '${key}'`);
      if (!row.definition.custom)
        throw errors.conflict('REPORT_STANDARD', 'A standard report is hidden, not deleted');
      await database.transaction(async (sql) => {
        await repo.deleteReport(sql, race.db, row.groupKey, key);
        await bumpEpoch(sql, raceId);
      });
      await app.results.reload(race.db);
      return reply.code(204).send();
    },
  );

  app.put(
    '/api/console/races/:raceId/reports/order',
    {
      schema: {
        rules: { keys: "every one of the race's report keys, once" },
        access: 'manager',
        params: raceParams,
        body: afterAccess(reportOrderSchema),
        response: { 200: z.array(reportDefinitionViewSchema) },
      },
    },
    async (request) => {
      const { raceId } = request.params;
      const race = await raceFor(request, database, raceId, 'update', 'Report');
      const { keys } = checked(request, 'body');
      const current = await repo.reportsOfRace(database, race.db, raceId);
      const same =
        keys.length === current.length &&
        new Set(keys).size === keys.length &&
        current.every((r) => keys.includes(r.key));
      if (!same)
        throw errors.badRequest('VALIDATION_FAILED', 'Invalid body', [
          { field: 'keys', message: "every one of the race's report keys, once" },
        ]);
      await database.transaction(async (sql) => {
        await repo.reorderReports(sql, race.db, raceId, keys);
        await bumpEpoch(sql, raceId);
      });
      await app.results.reload(race.db);
      return repo.reportsOfRace(database, race.db, raceId);
    },
  );

  // Issue 29: a race has 33 reports (28 of them per category), all public by default; several
  // (a whole group) are shown or hidden at once. Every key must be one of the race's, else nothing changes.
  app.post(
    '/api/console/races/:raceId/reports/visibility',
    {
      schema: {
        rules: { keys: 'report keys of this race' },
        access: 'manager',
        params: raceParams,
        body: afterAccess(reportVisibilitySchema),
        response: { 200: z.array(reportDefinitionViewSchema) },
      },
    },
    async (request) => {
      const { raceId } = request.params;
      const race = await raceFor(request, database, raceId, 'update', 'Report');
      const { keys, hidden } = checked(request, 'body');
      const current = new Set((await repo.reportsOfRace(database, race.db, raceId)).map((r) => r.key));
      const unknown = keys.flatMap((key, k) => (current.has(key) ? [] : [k]));
      if (unknown.length)
        throw errors.badRequest(
          'VALIDATION_FAILED',
          'Invalid body',
          unknown.map((k) => ({ field: `keys.${k}`, message: `no report '${keys[k]}' in this race` })),
        );
      await database.transaction(async (sql) => {
        await repo.setReportsHidden(sql, race.db, raceId, [...new Set(keys)], hidden);
        await bumpEpoch(sql, raceId);
      });
      await app.visibility.forget();
      await app.results.reload(race.db);
      return repo.reportsOfRace(database, race.db, raceId);
    },
  );
}
