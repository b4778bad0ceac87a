import crypto from 'node:crypto';
import { errors } from '../../../errors.ts';
import * as desk from '../desk-repository.ts';
import type { Confirmed, Lock } from './lock.ts';
import { type RacedayCore, withField } from './shared.ts';

/**
 * Start control (issue 15): a race's gun time, its waves' start times and individual start
 * times (time trials), each audited with the race's epoch bumped and the results reloaded.
 */
export function createStarts(core: RacedayCore, lock: Lock) {
  const { database, refresh, requireRaceOf } = core;

  /** Issue 43: an official race's start changes only as a confirmed correction (409 otherwise). */
  async function guarded(db: string, raceId: string, confirmed: Confirmed | undefined) {
    const [official] = await lock.guardRaces(db, [raceId], confirmed);
    return () => (official ? lock.record(db, confirmed, [lock.note(official, null, 'start')]) : undefined);
  }

  async function setGun(
    db: string,
    raceId: string,
    gunTimeMs: number | null,
    reason: string,
    actor: string | null,
    undoOf?: string,
    confirmed?: Confirmed,
  ) {
    const race = await requireRaceOf(db, raceId);
    const done = await guarded(db, raceId, confirmed);
    const id = crypto.randomUUID();
    await database.transaction(async (sql) => {
      await sql.query('UPDATE races SET gun_time_ms = $2, epoch = epoch + 1 WHERE id = $1', [
        raceId,
        gunTimeMs,
      ]);
      await desk.insertAudit(sql, {
        id,
        db,
        action: 'gun',
        raceId,
        before: { gunTimeMs: race.gunTimeMs },
        after: { gunTimeMs },
        reason,
        actor,
        undoOf: undoOf ?? null,
      });
    });
    await refresh(db, [], { raceIds: [raceId] });
    await done();
    return { auditId: id, gunTimeMs };
  }

  async function setWave(
    db: string,
    raceId: string,
    waveId: string,
    startTime: number,
    reason: string,
    actor: string | null,
    undoOf?: string,
    confirmed?: Confirmed,
  ) {
    const race = await requireRaceOf(db, raceId);
    const done = await guarded(db, raceId, confirmed);
    const waves = race.waves.some((w) => w.id === waveId)
      ? race.waves.map((w) => (w.id === waveId ? { ...w, startTime } : w))
      : [...race.waves, { id: waveId, startTime }];
    const id = crypto.randomUUID();
    await database.transaction(async (sql) => {
      await sql.query('UPDATE races SET waves = $2, epoch = epoch + 1 WHERE id = $1', [
        raceId,
        JSON.stringify(waves),
      ]);
      await desk.insertAudit(sql, {
        id,
        db,
        action: 'wave',
        raceId,
        before: { waves: race.waves },
        after: { waves },
        reason,
        actor,
        undoOf: undoOf ?? null,
      });
    });
    await refresh(db, [], { raceIds: [raceId] });
    await done();
    return { auditId: id };
  }

  /** Individual start times (time trials): one audit entry for the list. */
  async function setStarts(
    db: string,
    raceId: string,
    starts: { bib: string; startTimeMs: number | null }[],
    reason: string,
    actor: string | null,
    confirmed?: Confirmed,
  ) {
    await requireRaceOf(db, raceId);
    const done = await guarded(db, raceId, confirmed);
    const id = crypto.randomUUID();
    await database.transaction(async (sql) => {
      const before = await sql.query<{ bib: string; startTimeMs: number | null }>(
        `SELECT bib, start_time_ms::float8 AS "startTimeMs" FROM participants WHERE race_id = $1 AND bib = ANY($2::text[])`,
        [raceId, starts.map((s) => s.bib)],
      );
      if (before.length !== new Set(starts.map((s) => s.bib)).size)
        throw errors.badRequest('PARTICIPANT_NOT_FOUND', 'Some bibs are not in this race');
      await sql.query(
        `UPDATE participants p SET start_time_ms = u.t::bigint
             FROM unnest($2::text[], $3::float8[]) AS u(bib, t) WHERE p.race_id = $1 AND p.bib = u.bib`,
        [raceId, starts.map((s) => s.bib), starts.map((s) => s.startTimeMs)],
      );
      await sql.query('UPDATE races SET epoch = epoch + 1 WHERE id = $1', [raceId]);
      await desk.insertAudit(sql, {
        id,
        db,
        action: 'starts',
        raceId,
        before,
        after: starts,
        reason,
        actor,
      });
    });
    const at = new Map(starts.map((s) => [s.bib, s.startTimeMs]));
    await refresh(
      db,
      starts.map((s) => s.bib),
      {
        raceIds: [raceId],
        edit: (p) =>
          p.raceId === raceId && at.has(p.bib) ? withField(p, 'startTime', at.get(p.bib)!) : undefined,
      },
    );
    await done();
    return { auditId: id, updated: starts.length };
  }

  return { setGun, setWave, setStarts };
}

export type Starts = ReturnType<typeof createStarts>;
