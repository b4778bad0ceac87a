import { raceFormatSchema, raceReviewSchema } from '@tempora/contracts';
import { type Anomaly, passingsOfResults, reviewReads } from '@tempora/domain';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../../errors.ts';
import type { ZodTypeProvider } from '../../../lib/zod-routes.ts';
import { raceFor } from '../../../policy/policy.ts';
import type { RaceLive } from '../../results/port.ts';
import { raceParams, reviewQuery } from '../schemas.ts';

/**
 * The review before results are official (issue 31): the anomalies of a race for its timekeeper —
 * missing reads at a mat, segments faster than a plausible pace, reads out of order, reads of
 * DNS runners or of DNF runners at the finish — each with the reads behind it (their ids are the
 * ones the desk corrects through the passings API).
 */
/** The anomalies of a race (the review, and the count the publish dialog shows). */
export async function reviewOf(
  _app: FastifyInstance,
  _raceId: string,
  live: RaceLive,
  fastestPaceS?: number,
): Promise<Anomaly[]> {
  const { index } = live.results;
  const start = new Map(index.participants.map((p, i) => [p.bib, index.scheduledStart[i]!]));
  // A multisport race or a relay is reviewed on its legs' mats only (a start mat is not a leg's
  // end); a transition is no segment to pace (issue 31).
  const format = raceFormatSchema.safeParse(live.row.rules?.format);
  const legs = format.success && 'legs' in format.data ? format.data.legs : null;
  const onLegs = legs ? new Set(legs.map((l) => l.pointKey)) : null;
  const transitions = new Set(
    legs?.flatMap((l) => ('kind' in l && l.kind === 'transition' ? [l.pointKey] : [])) ?? [],
  );
  const multisport = format.success && format.data.kind === 'multisport';
  const points = index.race.points
    .filter((p) => !onLegs || onLegs.has(p.id))
    .map((p) => ({ id: p.id, distanceM: p.distanceM }));
  const pace = fastestPaceS ?? (multisport ? 60 : 120);
  return reviewReads(points, index.participants, passingsOfResults(live.results), {
    fastestPaceMsPerKm: pace * 1000,
    startOf: (p) => start.get(p.bib) ?? Number.NaN,
  }).filter((a) => !(a.kind === 'tooFast' && a.pointId && transitions.has(a.pointId)));
}

export async function reviewRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/console/races/:raceId/review',
    {
      schema: {
        access: 'timekeeper',
        params: raceParams,
        querystring: reviewQuery,
        response: { 200: raceReviewSchema },
      },
    },
    async (request) => {
      const { raceId } = request.params;
      const race = await raceFor(request, app.database, raceId, 'read');
      const live = (await app.results.state(race.db)).races.get(raceId);
      if (!live) throw errors.notFound('RACE_NOT_FOUND', `No race '${raceId}'`);
      const anomalies = await reviewOf(app, raceId, live, request.query.fastestPaceS);
      return {
        raceId,
        anomalies: anomalies.map((a) => ({
          kind: a.kind,
          bib: a.bib,
          pointId: a.pointId ?? null,
          paceMsPerKm: a.paceMsPerKm ?? null,
          reads: a.reads.map((r) => ({ id: r.id, pointId: r.pointId, timeMs: r.timeMs })),
        })),
      };
    },
  );
}
