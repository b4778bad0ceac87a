import { raceFormatSchema, raceReviewSchema } from '@tempora/contracts';
import { type Anomaly, passingsOfResults, reviewField, reviewReads } from '@tempora/domain';
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
/** Reads not voided, as the review looks at them. */
interface StoredRead {
  id: string;
  bib: string | null;
  chip: string | null;
  pointId: string;
  timeMs: number;
}
const READ_COLUMNS = `s.passing_id AS id, s.bib, s.chip, s.point_key AS "pointId", s.time_ms::float8 AS "timeMs"`;
const NOT_VOIDED = `NOT s.deleted AND NOT EXISTS (
  SELECT 1 FROM passings v WHERE v.db = s.db AND v.passing_id = s.passing_id AND v.deleted)`;
/** Unknown reads listed at most (a decoder reading the crowd's chips). */
const UNKNOWN_LISTED = 500;

/**
 * What the review needs beyond the race's own reads (issue 43): the reads at its points naming
 * nobody of the context, its runners' reads at points off its course, the chips two runners carry.
 */
async function contextReads(app: FastifyInstance, db: string, live: RaceLive, pointIds: string[]) {
  const ctx = await app.results.state(db);
  const owner = (r: { bib: string | null; chip: string | null }) =>
    ctx.raceOf({ ...(r.bib ? { bib: r.bib } : {}), ...(r.chip ? { chip: r.chip } : {}) });
  // Who was read: one row per bib and chip (a few thousand), the owners looked up here.
  const readers = await app.database.query<{ bib: string | null; chip: string | null }>(
    'SELECT DISTINCT bib, chip FROM passings s WHERE s.db = $1 AND NOT s.deleted',
    [db],
  );
  const nobody = readers.filter((r) => !owner(r));
  const unknown = nobody.length
    ? await app.database.query<StoredRead>(
        `SELECT ${READ_COLUMNS} FROM passings s
          WHERE s.db = $1 AND ${NOT_VOIDED} AND s.point_key = ANY($2::text[])
            AND (s.bib = ANY($3::text[]) OR (s.bib IS NULL AND s.chip = ANY($4::text[])))
          ORDER BY s.time_ms LIMIT ${UNKNOWN_LISTED}`,
        [
          db,
          pointIds,
          nobody.flatMap((r) => (r.bib ? [r.bib] : [])),
          nobody.flatMap((r) => (!r.bib && r.chip ? [r.chip] : [])),
        ],
      )
    : [];
  const elsewhere = await app.database.query<StoredRead>(
    `SELECT ${READ_COLUMNS} FROM passings s
      WHERE s.db = $1 AND ${NOT_VOIDED} AND s.point_key <> ALL($2::text[]) ORDER BY s.time_ms`,
    [
      db,
      [...pointIds, ...(live.results.index.race.startPoint ? [live.results.index.race.startPoint.id] : [])],
    ],
  );
  const offCourse = elsewhere.flatMap((r) => {
    const race = owner(r);
    if (race?.row.id !== live.row.id) return [];
    const i = r.chip && !r.bib ? race.byChip.get(r.chip) : race.byBib.get(r.bib ?? '');
    const bib = i === undefined ? undefined : race.participants[i]?.bib;
    return bib ? [{ bib, read: { id: r.id, pointId: r.pointId, timeMs: r.timeMs } }] : [];
  });
  // Chips two runners of the context carry: whose their reads are is a guess (issue 43).
  const carriers = new Map<string, number>();
  for (const race of ctx.races.values())
    for (const p of race.participants)
      for (const c of p.chips ?? []) carriers.set(c, (carriers.get(c) ?? 0) + 1);
  const shared = [...carriers].filter(([, n]) => n > 1).map(([c]) => c);
  const sharedReads = shared.length
    ? await app.database.query<StoredRead>(
        `SELECT ${READ_COLUMNS} FROM passings s
          WHERE s.db = $1 AND ${NOT_VOIDED} AND s.chip = ANY($2::text[]) AND s.point_key = ANY($3::text[])
          ORDER BY s.time_ms`,
        [db, shared, pointIds],
      )
    : [];
  const sharedChipReads = sharedReads.flatMap((r) => {
    const race = owner(r);
    const i = race?.row.id === live.row.id ? race.byChip.get(r.chip!) : undefined;
    const bib = i === undefined ? undefined : race!.participants[i]?.bib;
    return bib ? [{ bib, read: { id: r.id, pointId: r.pointId, timeMs: r.timeMs } }] : [];
  });
  return {
    unknownReads: unknown.map((r) => ({
      id: r.id,
      pointId: r.pointId,
      timeMs: r.timeMs,
      ...(r.bib ? { bib: r.bib } : {}),
      ...(r.chip ? { chip: r.chip } : {}),
    })),
    offCourse,
    sharedChipReads,
  };
}

/** The anomalies of a race (the review, and the count the publish dialog shows). */
export async function reviewOf(
  app: FastifyInstance,
  _raceId: string,
  live: RaceLive,
  fastestPaceS?: number,
  slowestPaceS?: number,
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
  // "Slower than a cut-off" (issue 43): the asked pace, else the road race's cut-off over the
  // finish's distance, else (undefined) a multiple of the field's median.
  const finishKm = (points.at(-1)?.distanceM ?? 0) / 1000;
  const cutoffMinutes = format.success && format.data.kind === 'road' ? format.data.cutoffMinutes : undefined;
  const slowest = slowestPaceS
    ? slowestPaceS * 1000
    : cutoffMinutes && finishKm > 0
      ? (cutoffMinutes * 60_000) / finishKm
      : undefined;
  const passings = passingsOfResults(live.results);
  const startOf = (p: { bib: string }) => start.get(p.bib) ?? Number.NaN;
  const perRunner = reviewReads(points, index.participants, passings, {
    fastestPaceMsPerKm: pace * 1000,
    startOf,
  }).filter((a) => !(a.kind === 'tooFast' && a.pointId && transitions.has(a.pointId)));
  // Issue 43: what a timer also catches — the field's paces, unknown reads, DNF and DNS
  // candidates, reads before the start, shared chips, reads on another course.
  const field = reviewField({
    points,
    participants: index.participants,
    passings,
    startOf,
    ...(await contextReads(
      app,
      live.row.db,
      live,
      index.race.points.map((p) => p.id),
    )),
    ...(slowest ? { slowestPaceMsPerKm: slowest } : {}),
  });
  return [...perRunner, ...field];
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
      const anomalies = await reviewOf(
        app,
        raceId,
        live,
        request.query.fastestPaceS,
        request.query.slowestPaceS,
      );
      // A point of another race's course is named as that race names it (issue 43: otherCourse).
      const ctx = await app.results.state(race.db);
      const elsewhere = (key: string) => {
        for (const other of ctx.races.values()) {
          const p = other.points.find((x) => x.key === key);
          if (p) return { en: p.name, fr: p.nameFr || p.name };
        }
        return null;
      };
      const own = new Set(live.points.map((p) => p.key));
      return {
        raceId,
        anomalies: anomalies.map((a) => ({
          kind: a.kind,
          bib: a.bib,
          pointId: a.pointId ?? null,
          ...(a.pointId && !own.has(a.pointId) ? { pointName: elsewhere(a.pointId) } : {}),
          paceMsPerKm: a.paceMsPerKm ?? null,
          reads: a.reads.map((r) => ({ id: r.id, pointId: r.pointId, timeMs: r.timeMs })),
        })),
      };
    },
  );
}
