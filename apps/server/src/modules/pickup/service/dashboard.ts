import type { PickupDashboard } from '@tempora/contracts';
import { errors } from '../../../errors.ts';
import { addOnsOf, eventTerms } from '../../entries/port.ts';
import * as repo from '../repository.ts';
import type { PickupActor, PickupDeps } from './shared.ts';

/**
 * The organiser's pickup figures (issue 39): picked up per race and per hour (the event's time
 * zone), add-ons sold, handed out and left, money taken on site by method, who is not picked up;
 * and, after a race's start, its runners never picked up marked DNS in one step — each through
 * the passings desk's status path (audited, undoable there, cleared by any read of theirs).
 */
export function createDashboard(deps: PickupDeps) {
  const { database } = deps;

  async function figures(event: { id: string; timeZone: string }): Promise<PickupDashboard> {
    const races = await repo.racesOf(database, event.id);
    const runners = await repo.runnersOf(database, event.id);
    const hours = await database.query<{ hour: string; raceId: string; count: number }>(
      `SELECT to_char(handed_at AT TIME ZONE $2, 'YYYY-MM-DD HH24:00') AS hour, race_id AS "raceId", count(*)::int AS count
         FROM pickup_handouts WHERE event_id = $1 AND state = 'kept' GROUP BY 1, 2 ORDER BY 1, 2`,
      [event.id, event.timeZone],
    );
    const perHour: PickupDashboard['perHour'] = [];
    for (const row of hours) {
      let hour = perHour.at(-1);
      if (hour?.hour !== row.hour) {
        hour = { hour: row.hour, count: 0, races: [] };
        perHour.push(hour);
      }
      hour.count += row.count;
      hour.races.push({ raceId: row.raceId, count: row.count });
    }
    const collected = await database.query<{ method: 'cash' | 'card'; cents: number; count: number }>(
      `SELECT method, sum(amount_cents)::int AS cents, count(*)::int AS count FROM pickup_payments
        WHERE event_id = $1 GROUP BY method ORDER BY method`,
      [event.id],
    );
    const [conflicts] = await database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pickup_handouts WHERE event_id = $1 AND state = 'conflict'`,
      [event.id],
    );
    const handedOut = new Map<string, number>();
    const sold = new Map<string, number>();
    for (const r of runners)
      for (const a of r.addOns) {
        sold.set(a.key, (sold.get(a.key) ?? 0) + a.quantity);
        if (r.handedOut) handedOut.set(a.key, (handedOut.get(a.key) ?? 0) + a.quantity);
      }
    const waiting = runners.filter((r) => !r.handedOut && r.status === 'registered');
    return {
      timeZone: event.timeZone,
      races: races.map((race) => {
        const of = runners.filter((r) => r.raceId === race.id);
        return {
          raceId: race.id,
          name: race.name,
          runners: of.length,
          pickedUp: of.filter((r) => r.handedOut).length,
          started: race.started,
        };
      }),
      perHour,
      addOns: (await addOnsOf(database, event.id)).map((a) => {
        const out = handedOut.get(a.key) ?? 0;
        const toHandOut = (sold.get(a.key) ?? 0) - out;
        return {
          key: a.key,
          name: a.name,
          sold: sold.get(a.key) ?? 0,
          handedOut: out,
          toHandOut,
          stock: a.capacity,
          onSite: a.capacity === null ? null : a.capacity - out,
          spare: a.capacity === null ? null : a.capacity - out - toHandOut,
          stockLeft: a.capacity === null ? null : a.capacity - a.taken - a.held,
        };
      }),
      collected,
      unpaid: {
        cents: runners.reduce((sum, r) => sum + (r.status === 'registered' ? r.unpaidCents : 0), 0),
        runners: runners.filter((r) => r.status === 'registered' && r.unpaidCents > 0).length,
      },
      currency: (await eventTerms(database, event.id))?.currency ?? 'EUR',
      notPickedUp: waiting.slice(0, 500).map((r) => ({
        id: r.id,
        name: `${r.firstName} ${r.lastName}`,
        bib: r.bib,
        raceName: r.raceName,
      })),
      notPickedUpCount: waiting.length,
      conflicts: conflicts?.n ?? 0,
    };
  }

  /** DNS for every runner of a started race who was never picked up (and has a bib, still registered). */
  async function markDns(eventId: string, raceId: string, actor: PickupActor): Promise<{ marked: number }> {
    const race = (await repo.racesOf(database, eventId)).find((r) => r.id === raceId);
    if (!race) throw errors.notFound('RACE_NOT_FOUND', `No race '${raceId}' in this event`);
    if (!race.started) throw errors.conflict('RACE_NOT_STARTED', 'The race has not started yet');
    const runners = (await repo.runnersOf(database, eventId)).filter(
      (r) => r.raceId === raceId && !r.handedOut && r.status === 'registered' && r.bib,
    );
    const { changed } = await deps.setStatuses(
      race.db,
      raceId,
      runners.map((r) => r.bib as string),
      'DNS',
      'not picked up',
      actor.sub,
    );
    return { marked: changed.length };
  }

  return { figures, markDns };
}
