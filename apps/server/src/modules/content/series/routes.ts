import { type SeriesStandings, seriesResultsInputSchema, seriesStandingsSchema } from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Sql } from '../../../db/database.ts';
import { errors } from '../../../errors.ts';
import { afterAccess, checked, type ZodTypeProvider } from '../../../lib/zod-routes.ts';
import { allows } from '../../../policy/policy.ts';
import * as repo from './repository.ts';
import { computeStandings } from './service.ts';

const seriesParams = z.object({ context: z.string().min(1).max(100) });
const raceParams = seriesParams.extend({ raceKey: z.string().min(1).max(100) });

/** The realtime channel of a series (public). */
export const seriesChannel = (context: string) => `series-${context}`;

async function standings(sql: Sql, context: string): Promise<SeriesStandings> {
  const series = await repo.findSeries(sql, context);
  if (!series) throw errors.notFound('SERIES_NOT_FOUND', `No series '${context}'`);
  const races = await repo.listRaces(sql, context);
  return {
    id: series.id,
    name: series.name,
    pointsTable: series.points,
    races,
    live: races.some((r) => r.live),
    categories: computeStandings(series.points, await repo.listResults(sql, context)),
  };
}

/**
 * Series standings (`/misc/crac/{context}`): `GET /api/series/{context}`; the organiser replaces
 * one race's category positions with `PUT /api/series/{context}/races/{raceKey}/results` (ability
 * `update Event` on the series' organisation), which publishes `standings-changed` on `series-{context}`.
 */
export async function seriesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/series/:context',
    { schema: { access: 'public', params: seriesParams, response: { 200: seriesStandingsSchema } } },
    async (request) => {
      const { context } = request.params;
      return standings(app.database, context);
    },
  );

  app.put(
    '/api/series/:context/races/:raceKey/results',
    {
      schema: {
        access: 'manager',
        params: raceParams,
        body: afterAccess(seriesResultsInputSchema),
        response: { 200: seriesStandingsSchema },
      },
    },
    async (request) => {
      const { context, raceKey } = request.params;
      const series = await repo.findSeries(app.database, context);
      if (!series) throw errors.notFound('SERIES_NOT_FOUND', `No series '${context}'`);
      if (!request.user) throw errors.unauthorized();
      if (!allows(request, 'update', 'Event', { organisationId: series.organisationId }))
        throw errors.forbidden();
      const input = checked(request, 'body');
      if (!(await repo.listRaces(app.database, context)).some((r) => r.key === raceKey)) {
        throw errors.notFound('SERIES_RACE_NOT_FOUND', `No race '${raceKey}' in the series`);
      }
      await app.database.transaction(async (sql) => {
        await repo.replaceRaceResults(sql, context, raceKey, input.results);
        if (input.live !== undefined) await repo.setRaceLive(sql, context, raceKey, input.live);
      });
      await app.realtime.publish([seriesChannel(context)], 'standings-changed', { context });
      return standings(app.database, context);
    },
  );
}
