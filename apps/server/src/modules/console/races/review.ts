import { raceFormatSchema } from '@tempora/contracts';
import { type Anomaly, passingsOfResults, reviewReads } from '@tempora/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errors } from '../../../errors.ts';
import { raceFor } from '../../../policy/policy.ts';
import { parseInput } from '../../../validate.ts';

const raceParams = z.object({ raceId: z.string().min(1).max(100) });
const reviewQuery = z.object({
  /**
   * Segments faster than this pace (seconds per km) are listed; 2:00/km by default, 1:00/km for
   * a multisport race (a bike leg runs well under 2:00/km; under 1:00/km no leg is plausible).
   */
  fastestPaceS: z.coerce.number().int().min(30).max(1200).optional(),
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
    const anomalies: Anomaly[] = reviewReads(points, index.participants, passingsOfResults(live.results), {
      fastestPaceMsPerKm: pace * 1000,
      startOf: (p) => start.get(p.bib) ?? Number.NaN,
    }).filter((a) => !(a.kind === 'tooFast' && a.pointId && transitions.has(a.pointId)));
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
