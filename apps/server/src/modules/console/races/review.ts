import { type Anomaly, passingsOfResults, reviewReads } from '@tempora/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errors } from '../../../errors.ts';
import { parseInput } from '../../../validate.ts';
import { raceFor } from '../access.ts';

const raceParams = z.object({ raceId: z.string().min(1).max(100) });
const reviewQuery = z.object({
  /** Segments faster than this pace (seconds per km) are listed; 2:00/km by default. */
  fastestPaceS: z.coerce.number().int().min(30).max(1200).default(120),
});

/**
 * The review before results are official (issue 31): the anomalies of a race for its timekeeper —
 * missing reads at a mat, segments faster than a plausible pace, reads out of order, reads of
 * DNS runners or of DNF runners at the finish — each with the reads behind it (their ids are the
 * ones the desk corrects through the passings API).
 */
export async function reviewRoutes(app: FastifyInstance) {
  app.get('/api/console/races/:raceId/review', async (request) => {
    const { raceId } = parseInput(raceParams, request.params, 'params');
    const { fastestPaceS } = parseInput(reviewQuery, request.query, 'query');
    const race = await raceFor(request, app.database, raceId, 'read');
    const live = (await app.results.state(race.db)).races.get(raceId);
    if (!live) throw errors.notFound('RACE_NOT_FOUND', `No race '${raceId}'`);
    const { index } = live.results;
    const start = new Map(index.participants.map((p, i) => [p.bib, index.scheduledStart[i]!]));
    const points = index.race.points.map((p) => ({ id: p.id, distanceM: p.distanceM }));
    const anomalies: Anomaly[] = reviewReads(points, index.participants, passingsOfResults(live.results), {
      fastestPaceMsPerKm: fastestPaceS * 1000,
      startOf: (p) => start.get(p.bib) ?? Number.NaN,
    });
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
  });
}
