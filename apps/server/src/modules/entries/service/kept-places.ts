import type { RegistrationSettings } from '@tempora/contracts';
import type { Sql } from '../../../db/database.ts';
import { AppError } from '../../../errors.ts';
import { holdUnits } from '../counters.ts';
import { releasePlaces } from './credits.ts';
import { fieldProblem } from './shared.ts';

/**
 * A race that keeps places for the previous edition's deferral credits (credits.ts) and is left
 * out of the registration settings (issue 38). Its `held` counts those places, so it could never
 * be removed while they are kept, and the race came back after each save with no word why. What
 * an organiser expects: the save says so (409 `KEPT_PLACES`, one error `keptPlaces.<raceId>` per
 * race, the number kept in the message) and lets them choose, race by race, to move the places to
 * another race of the event (the runners keep a place) or to release them (the runners keep their
 * credit's amount, with no place) — `keptPlaces` in the settings, chosen on the form.
 */

/** The places kept for deferral credits in each race of `eventId`. */
export async function keptPlaces(sql: Sql, eventId: string): Promise<Map<string, number>> {
  const rows = await sql.query<{ raceId: string; n: number }>(
    `SELECT k.place_race_id AS "raceId", count(*)::int AS n FROM registration_credits k
       JOIN registration_races g ON g.race_id = k.place_race_id
      WHERE g.event_id = $1 AND k.place_state = 'reserved' GROUP BY k.place_race_id`,
    [eventId],
  );
  return new Map(rows.map((r) => [r.raceId, r.n]));
}

/**
 * The races left out of `input` that keep places: each must have its choice in `keptPlaces`
 * (else 409), a move to a race of `input` (else 400). Answers the places kept per race left out.
 */
export async function checkKeptPlaces(
  sql: Sql,
  eventId: string,
  input: RegistrationSettings,
): Promise<Map<string, number>> {
  const kept = await keptPlaces(sql, eventId);
  const listed = new Set(input.races.map((r) => r.raceId));
  const leaving = new Map([...kept].filter(([raceId]) => !listed.has(raceId)));
  const choice = new Map(input.keptPlaces.map((c) => [c.raceId, c.moveTo]));
  const bad = input.keptPlaces.flatMap((c, n) =>
    c.moveTo !== null && !listed.has(c.moveTo)
      ? [{ field: `keptPlaces.${n}.moveTo`, code: 'RACE_NOT_FOUND' }]
      : [],
  );
  if (bad.length) throw fieldProblem(400, bad);
  const unsaid = [...leaving].filter(([raceId]) => !choice.has(raceId));
  if (unsaid.length) {
    throw new AppError(
      409,
      'KEPT_PLACES',
      `${unsaid.map(([raceId, n]) => `${raceId} keeps ${n} place(s) for deferred runners`).join('; ')}: move them to another race or release them (keptPlaces)`,
      unsaid.map(([raceId]) => ({ field: `keptPlaces.${raceId}`, message: 'KEPT_PLACES' })),
    );
  }
  return leaving;
}

/** A move decided: the credits taken off `from`, to be kept in `to` once it is saved. */
interface Move {
  from: string;
  to: string;
  credits: string[];
}

/** The kept places of the races left out given back (released, or to be moved: `moveKeptPlaces`). */
export async function leaveKeptPlaces(
  sql: Sql,
  leaving: ReadonlyMap<string, number>,
  input: RegistrationSettings,
): Promise<Move[]> {
  const moves: Move[] = [];
  for (const c of input.keptPlaces) {
    if (!leaving.has(c.raceId)) continue;
    const credits = (
      await sql.query<{ id: string }>(
        `SELECT id::text AS id FROM registration_credits WHERE place_race_id = $1 AND place_state = 'reserved' ORDER BY id FOR UPDATE`,
        [c.raceId],
      )
    ).map((r) => r.id);
    await releasePlaces(sql, `k.place_race_id = $1`, [c.raceId], 'released');
    if (c.moveTo) moves.push({ from: c.raceId, to: c.moveTo, credits });
  }
  return moves;
}

/** The places moved, kept in their new race; 409 `RACE_FULL` on the race left when the new one has too few. */
export async function moveKeptPlaces(sql: Sql, moves: readonly Move[]): Promise<void> {
  for (const m of moves) {
    if (!m.credits.length) continue;
    if (!(await holdUnits(sql, 'registration_races', m.to, m.credits.length)))
      throw fieldProblem(409, [{ field: `keptPlaces.${m.from}`, code: 'RACE_FULL' }]);
    await sql.query(
      `UPDATE registration_credits SET place_race_id = $2, place_state = 'reserved' WHERE id = ANY($1::bigint[])`,
      [m.credits, m.to],
    );
  }
}
