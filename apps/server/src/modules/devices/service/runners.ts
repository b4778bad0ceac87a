import crypto from 'node:crypto';
import { errors } from '../../../errors.ts';
import * as desk from '../desk-repository.ts';
import type { Confirmed, Lock } from './lock.ts';
import { type RacedayCore, type RunnerStatus, withField } from './shared.ts';

/**
 * Runners on race day (issue 15): their statuses (DNS, DNF, DSQ), a chip given to a runner (a
 * swap), each audited with the race's epoch bumped and the results reloaded; and the reads no
 * runner owns (unknown chips and bibs).
 */
export function createRunners(core: RacedayCore, lock: Lock) {
  const { database, svc, refresh } = core;

  async function setStatus(
    db: string,
    raceId: string,
    bib: string,
    status: RunnerStatus,
    reason: string,
    actor: string | null,
    undoOf?: string,
    confirmed?: Confirmed,
  ) {
    const [official] = await lock.guardRaces(db, [raceId], confirmed);
    const rows = await database.query<{ status: RunnerStatus; reason: string | null }>(
      `SELECT p.status, p.status_reason AS reason FROM participants p JOIN races r ON r.id = p.race_id
        WHERE r.db = $1 AND p.race_id = $2 AND p.bib = $3`,
      [db, raceId, bib],
    );
    const before = rows[0];
    if (!before) throw errors.notFound('PARTICIPANT_NOT_FOUND', `No bib '${bib}' in race '${raceId}'`);
    const id = crypto.randomUUID();
    await database.transaction(async (sql) => {
      await sql.query(
        'UPDATE participants SET status = $3, status_reason = $4 WHERE race_id = $1 AND bib = $2',
        [raceId, bib, status, status === 'registered' ? null : reason],
      );
      await sql.query('UPDATE races SET epoch = epoch + 1 WHERE id = $1', [raceId]);
      await desk.insertAudit(sql, {
        id,
        db,
        action: 'status',
        bib,
        raceId,
        before,
        after: { status, reason },
        reason,
        actor,
        undoOf: undoOf ?? null,
      });
    });
    await refresh(db, [bib], {
      raceIds: [raceId],
      edit: (p) => (p.raceId === raceId && p.bib === bib ? withField(p, 'status', status) : undefined),
    });
    if (official) await lock.record(db, confirmed, [lock.note(official, bib, 'status', { status })]);
    return { auditId: id };
  }

  /**
   * The same status for many runners of a race in one step (issue 39: runners never picked up
   * marked DNS after the start): one transaction, one audit line per runner (each undoable on the
   * desk like a single change), one reload. Runners whose status differs from `from` are left.
   */
  async function setStatuses(
    db: string,
    raceId: string,
    bibs: readonly string[],
    status: RunnerStatus,
    reason: string,
    actor: string | null,
    from: RunnerStatus = 'registered',
    confirmed?: Confirmed,
  ) {
    // Issue 43: an official race's statuses change only as a confirmed correction.
    const [official] = await lock.guardRaces(db, [raceId], confirmed);
    const changed = await database.transaction(async (sql) => {
      // Only runners still in `from` change: their status before is `from`, without a reason.
      const rows = await sql.query<{ bib: string }>(
        `UPDATE participants p SET status = $4, status_reason = $5 FROM races r
          WHERE r.id = p.race_id AND r.db = $1 AND p.race_id = $2 AND p.bib = ANY($3::text[]) AND p.status = $6
            AND p.deleted_at IS NULL
          RETURNING p.bib`,
        [db, raceId, bibs, status, status === 'registered' ? null : reason, from],
      );
      if (!rows.length) return rows;
      await sql.query('UPDATE races SET epoch = epoch + 1 WHERE id = $1', [raceId]);
      for (const row of rows)
        await desk.insertAudit(sql, {
          id: crypto.randomUUID(),
          db,
          action: 'status',
          bib: row.bib,
          raceId,
          before: { status: from, reason: null },
          after: { status, reason },
          reason,
          actor,
          undoOf: null,
        });
      return rows;
    });
    if (changed.length) {
      const marked = new Set(changed.map((r) => r.bib));
      await refresh(db, [...marked], {
        raceIds: [raceId],
        edit: (p) => (p.raceId === raceId && marked.has(p.bib) ? withField(p, 'status', status) : undefined),
      });
      if (official)
        await lock.record(
          db,
          confirmed,
          [...marked].map((bib) => lock.note(official, bib, 'status', { status })),
        );
    }
    return { changed: changed.map((r) => r.bib) };
  }

  /** Gives an unknown chip to a participant (a chip swap on race day). */
  async function assignChip(
    db: string,
    chip: string,
    raceId: string,
    bib: string,
    actor: string | null,
    confirmed?: Confirmed,
  ) {
    const [official] = await lock.guardRaces(db, [raceId], confirmed);
    const id = crypto.randomUUID();
    await database.transaction(async (sql) => {
      const updated = await sql.query(
        `UPDATE participants p SET chips = array_append(p.chips, $3) FROM races r
            WHERE r.id = p.race_id AND r.db = $4 AND p.race_id = $1 AND p.bib = $2 AND NOT ($3 = ANY(p.chips))
            RETURNING p.bib`,
        [raceId, bib, chip, db],
      );
      if (!updated.length)
        throw errors.notFound(
          'PARTICIPANT_NOT_FOUND',
          `No bib '${bib}' in race '${raceId}' (or it has this chip)`,
        );
      await sql.query('UPDATE races SET epoch = epoch + 1 WHERE id = $1', [raceId]);
      await desk.insertAudit(sql, {
        id,
        db,
        action: 'assign',
        raceId,
        bib,
        after: { chip },
        reason: '',
        actor,
      });
    });
    await refresh(db, [bib], {
      raceIds: [raceId],
      edit: (p) =>
        p.raceId === raceId && p.bib === bib ? withField(p, 'chips', [...(p.chips ?? []), chip]) : undefined,
    });
    if (official) await lock.record(db, confirmed, [lock.note(official, bib, 'chip')]);
    return { auditId: id };
  }

  /** Reads whose chip or bib is no participant's, most reads first. */
  async function unknownRunners(db: string) {
    const ctx = await svc.state(db);
    const rows = await desk.readRunners(database, db);
    return rows
      .filter((r) => !ctx.raceOf({ ...(r.bib ? { bib: r.bib } : {}), ...(r.chip ? { chip: r.chip } : {}) }))
      .sort((a, b) => b.reads - a.reads)
      .slice(0, 200);
  }

  return { setStatus, setStatuses, assignChip, unknownRunners };
}

export type Runners = ReturnType<typeof createRunners>;
