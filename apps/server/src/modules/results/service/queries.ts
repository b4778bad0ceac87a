import type { AthleteCard, ParticipantHit, ReportList } from '@tempora/contracts';
import { compareHits, getResultRow, matchScore, predict, statusOf, wallClock } from '@tempora/domain';
import { errors } from '../../../errors.ts';
import type { ContextState, RaceLive } from '../context-state.ts';
import { shownCorrections } from '../corrections.ts';
import { raceClock } from '../live-views.ts';
import * as repo from '../repository.ts';
import type { ResultsCore } from './core.ts';
import { state } from './state.ts';

/**
 * Queries on the results (issue 30, split from service.ts): the event's report list, the context
 * holding a group, runner search, an athlete's card by bib or tracking key. Each reads the live
 * state (`state`) or the database, and changes nothing but the group → context cache.
 */

/**
 * The groups and visible reports of an event, over its contexts: two statements (issue 41: two
 * and two more per context, each a fixed cost of the embedded database, on a spectator's first
 * screen).
 */
export async function reportList(core: ResultsCore, eventId: string): Promise<ReportList> {
  const { database } = core;
  const event = await repo.findEvent(database, eventId);
  if (!event) throw errors.notFound('EVENT_NOT_FOUND', `No event '${eventId}'`);
  const groups = await database.query<ReportList['groups'][number]>(
    `SELECT g.key, c.db, g.name,
            coalesce((SELECT json_agg(json_build_object('key', r.key, 'name', r.name) ORDER BY r.position, r.key)
                        FROM reports r WHERE r.db = g.db AND r.group_key = g.key AND r.hidden IS NOT TRUE),
                     '[]'::json) AS reports
       FROM contexts c JOIN report_groups g ON g.db = c.db
      WHERE c.event_id = $1
      ORDER BY c.created_at, c.db, g.position, g.key`,
    [eventId],
  );
  return { event: { id: event.id, name: event.name, status: event.status }, groups };
}

/** Finds the context holding a group of an event. */
export async function contextOfGroup(core: ResultsCore, eventId: string, group: string): Promise<string> {
  // Groups never move between contexts: remember the answer (reads are hot paths).
  const known = core.groupContexts.get(`${eventId}/${group}`);
  if (known) return known;
  for (const c of await repo.contextsOfEvent(core.database, eventId)) {
    const { groups } = await repo.reportsOf(core.database, c.db);
    if (groups.some((g) => g.key === group)) {
      core.groupContexts.set(`${eventId}/${group}`, c.db);
      return c.db;
    }
  }
  throw errors.notFound('REPORT_NOT_FOUND', `No report group '${group}' in event '${eventId}'`);
}

/** Runners of a context matching a search (at most 20, most relevant first). */
export async function participants(core: ResultsCore, db: string, q: string): Promise<ParticipantHit[]> {
  const ctx = await state(core, db);
  if (!q.trim()) return [];
  // Issue 19: accents and case ignored; relevance, then bibs in numeric order.
  const found: { score: number; bib: string; name: string; race: RaceLive; i: number }[] = [];
  for (const race of ctx.races.values()) {
    race.participants.forEach((p, i) => {
      const score = matchScore(q, p);
      if (score > 0) found.push({ score, bib: p.bib, name: `${p.lastName} ${p.firstName}`, race, i });
    });
  }
  return found
    .sort(compareHits)
    .slice(0, 20)
    .map((f) => hit(f.race, f.i));
}

/** An athlete of a context by bib (detail pages). */
export async function athleteByBib(core: ResultsCore, db: string, bib: string): Promise<AthleteCard> {
  const ctx = await state(core, db);
  for (const race of ctx.races.values()) {
    const i = race.byBib.get(bib);
    if (i !== undefined) return athleteCard(ctx, race, i);
  }
  throw errors.notFound('ATHLETE_NOT_FOUND', `No bib '${bib}' in '${db}'`);
}

/** An athlete by tracking key, in whichever context holds it. */
export async function tracking(core: ResultsCore, trackingKey: string): Promise<AthleteCard> {
  const rows = await core.database.query<{ db: string }>(
    'SELECT r.db FROM participants p JOIN races r ON r.id = p.race_id WHERE p.tracking_key = $1',
    [trackingKey],
  );
  const db = rows[0]?.db;
  if (!db) throw errors.notFound('ATHLETE_NOT_FOUND', 'No athlete with this tracking key');
  return trackingIn(core, db, trackingKey);
}

/** {@link tracking} when the context is known (followers' alerts: no query, the live state). */
export async function trackingIn(core: ResultsCore, db: string, trackingKey: string): Promise<AthleteCard> {
  const ctx = await state(core, db);
  for (const race of ctx.races.values()) {
    const i = race.byTracking.get(trackingKey);
    if (i !== undefined) return athleteCard(ctx, race, i);
  }
  throw errors.notFound('ATHLETE_NOT_FOUND', 'No athlete with this tracking key');
}

function hit(race: RaceLive, i: number): ParticipantHit {
  const p = race.participants[i]!;
  const c = race.results.index.categoryOf[i]!;
  return {
    raceId: race.row.id,
    bib: p.bib,
    name: `${p.firstName} ${p.lastName}`,
    gender: p.gender,
    category: c >= 0 ? race.results.index.race.categories[c]!.name : null,
    club: p.club ?? '',
    nationality: p.nationality ?? '',
    status: statusOf(race.results, i),
    trackingKey: p.trackingKey,
  };
}

function athleteCard(
  ctx: ContextState,
  race: RaceLive,
  i: number,
  now = raceClock(race, Date.now()),
): AthleteCard {
  const row = getResultRow(race.results, i);
  const prediction = predict(race.results, i, race.prior ? { prior: race.prior } : {});
  // Times of day on the wall clock (a replay's race clock runs ahead of it: issue 19).
  const wall = (ms: number | null) =>
    ms === null ? null : wallClock(race.row.gunTimeMs, race.row.clockRate, ms);
  const p = race.participants[i]!;
  const ranked = race.points.filter((pt) => !pt.isStart).sort((a, b) => a.position - b.position);
  let estimatedDistanceM: number | null = null;
  const lastIdx = row.lastPointId ? ranked.findIndex((pt) => pt.key === row.lastPointId) : -1;
  if (row.status === 'finished') estimatedDistanceM = race.row.distanceM;
  else if (prediction && row.netStart !== null) {
    // Linear between the last point reached and the next predicted one: the course is run at
    // the predicted segment pace (prediction.ts), so position follows the clock.
    const fromDist = lastIdx >= 0 ? ranked[lastIdx]!.distanceM : 0;
    const fromTime = lastIdx >= 0 ? (row.points[lastIdx]!.timeOfDay ?? row.netStart) : row.netStart;
    const next = prediction.points[0];
    const nextPoint = next ? ranked.find((pt) => pt.key === next.pointId) : undefined;
    if (next?.timeOfDay && nextPoint && next.timeOfDay > fromTime) {
      const share = Math.min(1, Math.max(0, (now - fromTime) / (next.timeOfDay - fromTime)));
      estimatedDistanceM = Math.round(fromDist + share * (nextPoint.distanceM - fromDist));
    } else estimatedDistanceM = fromDist;
  }
  return {
    eventId: ctx.context.eventId,
    db: ctx.context.db,
    timeZone: ctx.context.timeZone ?? null,
    race: {
      id: race.row.id,
      name: race.row.name,
      distanceM: race.row.distanceM,
      points: ranked.map(repo.coursePoint),
    },
    athlete: { ...hit(race, i), firstName: p.firstName, lastName: p.lastName },
    status: row.status,
    splits: row.points.map((pt) => ({
      pointKey: pt.pointId,
      timeOfDay: wall(pt.timeOfDay),
      gunMs: pt.gunMs,
      netMs: pt.netMs,
      rankOverall: pt.rank.overall,
      rankGender: pt.rank.gender,
      rankCategory: pt.rank.category,
      gapMs: pt.gapMs,
      gapCategoryMs: pt.gapCategoryMs,
      paceMsPerKm: pt.paceMsPerKm,
    })),
    prediction: prediction
      ? {
          basis: prediction.basis,
          finishNetMs: prediction.finishNetMs,
          finishTimeOfDay: wall(prediction.finishTimeOfDay),
          finishRangeNetMs: prediction.finishRange ? [...prediction.finishRange] : null,
          points: prediction.points.map((pp) => ({
            pointKey: pp.pointId,
            netMs: pp.netMs,
            timeOfDay: wall(pp.timeOfDay),
          })),
        }
      : null,
    estimatedDistanceM,
    corrections: shownCorrections(race),
  };
}
