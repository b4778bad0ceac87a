import type { MyWaitlist } from '@tempora/contracts';
import type { Sql } from '../../../db/database.ts';
import { errors } from '../../../errors.ts';
import { iso } from '../../../lib/iso-time.ts';
import { holdUnits, releaseUnits } from '../counters.ts';
import { newInvitationToken } from '../repository.ts';
import type * as settingsRepo from '../settings-repository.ts';

/**
 * A full race's waitlist (issue 38; the rule in `@tempora/domain`'s `waitlist.ts`): first in,
 * first out. An invitation holds a place (the race's `held`, like a runner paying) until its time
 * runs out; then it expires, the place is released and passes to the next. Runs in the caller's
 * transaction — a cancellation, an expiry, places released — so a freed place goes to the
 * waitlist before anyone else can enter.
 */
export interface Invitation {
  id: string;
  raceId: string;
  email: string;
  name: string;
  lang: 'en' | 'fr';
  token: string;
  invitedUntil: string;
}

/** Lapsed invitations expire, then the next waiting people are invited while places are left. */
export async function advanceWaitlist(
  sql: Sql,
  raceId: string,
  now: Date,
  validMinutes: number,
): Promise<Invitation[]> {
  const lapsed = await sql.query(
    `UPDATE registration_waitlist SET state = 'expired', token = NULL
      WHERE race_id = $1 AND state = 'invited' AND invited_until <= $2 RETURNING id`,
    [raceId, now],
  );
  if (lapsed.length) await releaseUnits(sql, 'registration_races', raceId, lapsed.length);
  const invited: Invitation[] = [];
  // Nobody is invited into a race whose registration has closed (a cancellation, a release or
  // the sweep after the closing time): the invitation could not be used (issue 38).
  const [open] = await sql.query(
    'SELECT 1 FROM registration_races WHERE race_id = $1 AND (closes_at IS NULL OR closes_at > $2)',
    [raceId, now],
  );
  if (!open) return invited;
  const until = new Date(now.getTime() + validMinutes * 60_000);
  for (;;) {
    const [next] = await sql.query<{ id: string }>(
      `SELECT id::text AS id FROM registration_waitlist WHERE race_id = $1 AND state = 'waiting' ORDER BY id LIMIT 1 FOR UPDATE`,
      [raceId],
    );
    if (!next || !(await holdUnits(sql, 'registration_races', raceId))) break;
    const [row] = await sql.query<Invitation>(
      `UPDATE registration_waitlist SET state = 'invited', token = $2, invited_until = $3 WHERE id = $1::bigint
       RETURNING id::text AS id, race_id AS "raceId", email, name, lang, token, invited_until AS "invitedUntil"`,
      [next.id, newInvitationToken(), until],
    );
    invited.push({ ...(row as Invitation), invitedUntil: until.toISOString() });
  }
  return invited;
}

/**
 * Joins a full race's waitlist; the position among those waiting. A race whose registration has
 * closed at `now` takes nobody (409 `RACE_CLOSED`): its waitlist will invite no one.
 */
export async function joinWaitlist(
  sql: Sql,
  race: settingsRepo.RaceRegistration,
  who: { sub: string | null; email: string; name: string; lang: 'en' | 'fr' },
  now: Date,
): Promise<{ id: string; position: number; state: string }> {
  if (race.closesAt && Date.parse(race.closesAt) <= now.getTime())
    throw errors.conflict('RACE_CLOSED', 'Entries to this race are closed');
  if (race.capacity == null || race.capacity - race.taken - race.held > 0)
    throw errors.conflict('RACE_NOT_FULL', 'The race still has places: enter it');
  const [known] = await sql.query<{ id: string }>(
    `SELECT id::text AS id FROM registration_waitlist WHERE race_id = $1 AND email = $2 AND state IN ('waiting', 'invited')`,
    [race.raceId, who.email],
  );
  const id =
    known?.id ??
    (
      (await sql.query<{ id: string }>(
        `INSERT INTO registration_waitlist (race_id, account_sub, email, name, lang) VALUES ($1, $2::uuid, $3, $4, $5) RETURNING id::text AS id`,
        [race.raceId, who.sub, who.email, who.name, who.lang],
      )) as [{ id: string }]
    )[0].id;
  const [row] = await sql.query<{ position: number; state: string }>(
    `SELECT (SELECT count(*)::int FROM registration_waitlist w WHERE w.race_id = $1 AND w.state = 'waiting' AND w.id <= $2::bigint) AS position,
            state FROM registration_waitlist WHERE id = $2::bigint`,
    [race.raceId, id],
  );
  return { id, position: row?.position ?? 0, state: row?.state ?? 'waiting' };
}

/** An invitation used to enter: its held place becomes the entry's (locked, valid, for this race). */
export async function takeInvitation(
  sql: Sql,
  token: string,
  raceId: string,
  now: Date,
): Promise<string | null> {
  const [row] = await sql.query<{ id: string }>(
    `UPDATE registration_waitlist SET state = 'entered' WHERE token = $1 AND race_id = $2 AND state = 'invited' AND invited_until > $3
     RETURNING id::text AS id`,
    [token, raceId, now],
  );
  return row?.id ?? null;
}

/**
 * A runner's waitlist places (their account's, or their e-mail's), newest first: waiting (with
 * the position among those waiting), invited, expired, or closed (the race closed while waiting).
 */
export async function myWaitlists(sql: Sql, who: { sub: string; email: string }): Promise<MyWaitlist> {
  const rows = await sql.query<{
    id: string;
    eventId: string;
    eventName: string;
    raceId: string;
    raceName: string;
    state: MyWaitlist[number]['state'];
    position: number | null;
    invitedUntil: Date | string | null;
    createdAt: Date | string;
  }>(
    `SELECT w.id::text AS id, g.event_id AS "eventId", ev.name AS "eventName", w.race_id AS "raceId",
            coalesce(r.name, w.race_id) AS "raceName", w.state,
            CASE WHEN w.state = 'waiting' THEN
              (SELECT count(*)::int FROM registration_waitlist o WHERE o.race_id = w.race_id AND o.state = 'waiting' AND o.id <= w.id)
            END AS position,
            CASE WHEN w.state = 'invited' THEN w.invited_until END AS "invitedUntil", w.created_at AS "createdAt"
       FROM registration_waitlist w JOIN registration_races g ON g.race_id = w.race_id
       JOIN events ev ON ev.id = g.event_id LEFT JOIN races r ON r.id = w.race_id
      WHERE (w.account_sub = $1::uuid OR lower(w.email) = lower($2))
        AND w.state IN ('waiting', 'invited', 'expired', 'closed')
      ORDER BY w.id DESC`,
    [who.sub, who.email],
  );
  return rows.map((r) => ({
    ...r,
    invitedUntil: iso(r.invitedUntil),
    createdAt: iso(r.createdAt) as string,
  }));
}
