import crypto from 'node:crypto';
import { errors } from '../../../errors.ts';
import * as desk from '../desk-repository.ts';
import type { Ingest } from './ingest.ts';
import type { RacedayCore } from './shared.ts';

/**
 * Corrections of reads (issue 15), each audited: voiding a read (its void marker stored),
 * restoring it (a new read 1 ms later), changing its time or point (voided and replaced), and
 * adding a missing one. Readers are told first, then the audit entry is written.
 */
export function createReads(core: RacedayCore, incoming: Ingest) {
  const { database, svc, runner, requireRead, asIncoming, publishCorrection } = core;
  const { ingest } = incoming;

  async function voidRead(
    db: string,
    passingId: string,
    reason: string,
    actor: string | null,
    undoOf?: string,
  ) {
    const read = await requireRead(db, passingId);
    if (read.voided) throw errors.conflict('PASSING_VOIDED', 'This read is voided already');
    const id = crypto.randomUUID();
    const bib = read.bib ?? (await runner(db, read))?.bib ?? null;
    await svc.ingest(
      db,
      [asIncoming(read, { deleted: true })],
      read.source === 'manual' ? 'manual' : 'decoder',
      {
        deviceId: read.deviceId,
        createdBy: actor,
      },
    );
    // Readers first (a tracking card refetches on it), then the audit entry.
    await publishCorrection(db, [bib]);
    await desk.insertAudit(database, {
      id,
      db,
      action: 'void',
      passingId,
      bib,
      before: read,
      reason,
      actor,
      undoOf: undoOf ?? null,
    });
    return { auditId: id };
  }

  async function restoreRead(
    db: string,
    passingId: string,
    reason: string,
    actor: string | null,
    undoOf?: string,
  ) {
    const read = await requireRead(db, passingId);
    if (!read.voided) throw errors.conflict('PASSING_NOT_VOIDED', 'This read is not voided');
    const id = crypto.randomUUID();
    const bib = read.bib ?? (await runner(db, read))?.bib ?? null;
    const restored = asIncoming(read, { id: `r:${id}`, timeMs: read.timeMs + 1 });
    await svc.ingest(db, [restored], 'manual', { createdBy: actor });
    await publishCorrection(db, [bib]);
    await desk.insertAudit(database, {
      id,
      db,
      action: 'restore',
      passingId,
      bib,
      before: read,
      after: { id: restored.id, timeMs: restored.timeMs },
      reason,
      actor,
      undoOf: undoOf ?? null,
    });
    return { auditId: id, passingId: restored.id };
  }

  /** Changes a read's time and/or point: the read is voided and its replacement stored. */
  async function editRead(
    db: string,
    passingId: string,
    change: { timeMs?: number | undefined; pointKey?: string | undefined },
    reason: string,
    actor: string | null,
  ) {
    const read = await requireRead(db, passingId);
    if (read.voided)
      throw errors.conflict('PASSING_VOIDED', 'A voided read cannot be changed; restore it first');
    const id = crypto.randomUUID();
    const bib = read.bib ?? (await runner(db, read))?.bib ?? null;
    const replacement = asIncoming(read, {
      id: `e:${id}`,
      timeMs: change.timeMs ?? read.timeMs,
      pointKey: change.pointKey ?? read.pointKey,
    });
    if (replacement.timeMs === read.timeMs && replacement.pointKey === read.pointKey)
      throw errors.badRequest('NOTHING_CHANGED', 'The new time and point equal the old ones');
    // The void marker first, then the replacement: in one batch, one transaction.
    await svc.ingest(db, [asIncoming(read, { deleted: true }), replacement], 'manual', {
      createdBy: actor,
    });
    await publishCorrection(db, [bib]);
    await desk.insertAudit(database, {
      id,
      db,
      action: 'edit',
      passingId,
      bib,
      before: read,
      after: { id: replacement.id, timeMs: replacement.timeMs, pointKey: replacement.pointKey },
      reason,
      actor,
    });
    return { auditId: id, passingId: replacement.id };
  }

  /** Adds a missing read (a runner the mat missed). */
  async function addRead(
    db: string,
    read: { bib: string; pointKey: string; timeMs: number },
    reason: string,
    actor: string | null,
  ) {
    const id = crypto.randomUUID();
    await ingest(db, [{ id: `a:${id}`, ...read }], 'manual', { createdBy: actor });
    await publishCorrection(db, [read.bib]);
    await desk.insertAudit(database, {
      id,
      db,
      action: 'add',
      passingId: `a:${id}`,
      bib: read.bib,
      after: read,
      reason,
      actor,
    });
    return { auditId: id, passingId: `a:${id}` };
  }

  return { voidRead, restoreRead, editRead, addRead };
}

export type Reads = ReturnType<typeof createReads>;
