import crypto from 'node:crypto';
import { errors } from '../../../errors.ts';
import * as desk from '../desk-repository.ts';
import type { Ingest } from './ingest.ts';
import type { Confirmed, Lock } from './lock.ts';
import type { RacedayCore } from './shared.ts';

/**
 * Corrections of reads (issue 15), each audited: voiding a read (its void marker stored),
 * restoring it (a new read 1 ms later), changing its time or point (voided and replaced), and
 * adding a missing one. Readers are told first, then the audit entry is written.
 */
export function createReads(core: RacedayCore, incoming: Ingest, lock: Lock) {
  const { database, svc, runner, requireRead, asIncoming, publishCorrection } = core;
  const { ingest } = incoming;

  /**
   * Issue 43: a read of an official race changes only as a confirmed correction (409 otherwise);
   * returns how to record it once done.
   */
  async function guarded(
    db: string,
    read: { bib?: string | null; chip?: string | null },
    confirmed: Confirmed | undefined,
  ) {
    const who = await runner(db, read);
    const [race] = who ? await lock.guardRaces(db, [who.raceId], confirmed) : [];
    return (kind: 'added' | 'voided' | 'restored' | 'edited', pointKey: string, timeMs: number) =>
      race ? lock.record(db, confirmed, [lock.note(race, who!.bib, kind, { pointKey, timeMs })]) : undefined;
  }

  /** The runner a read is of: its bib, else the runner of its chip. */
  const bibOf = async (db: string, read: { bib?: string | null; chip?: string | null }) =>
    read.bib ?? (await runner(db, read))?.bib ?? null;

  /** Tells the readers of `bib` (a tracking card refetches on it), then writes the audit entry. */
  async function corrected(entry: Parameters<typeof desk.insertAudit>[1]) {
    await publishCorrection(entry.db, [entry.bib ?? null]);
    await desk.insertAudit(database, entry);
  }

  async function voidRead(
    db: string,
    passingId: string,
    reason: string,
    actor: string | null,
    undoOf?: string,
    confirmed?: Confirmed,
  ) {
    const read = await requireRead(db, passingId);
    if (read.voided) throw errors.conflict('PASSING_VOIDED', 'This read is voided already');
    const done = await guarded(db, read, confirmed);
    const id = crypto.randomUUID();
    const bib = await bibOf(db, read);
    await svc.ingest(
      db,
      [asIncoming(read, { deleted: true })],
      read.source === 'manual' ? 'manual' : 'decoder',
      {
        deviceId: read.deviceId,
        createdBy: actor,
      },
    );
    await corrected({
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
    await done('voided', read.pointKey, read.timeMs);
    return { auditId: id };
  }

  async function restoreRead(
    db: string,
    passingId: string,
    reason: string,
    actor: string | null,
    undoOf?: string,
    confirmed?: Confirmed,
  ) {
    const read = await requireRead(db, passingId);
    if (!read.voided) throw errors.conflict('PASSING_NOT_VOIDED', 'This read is not voided');
    const done = await guarded(db, read, confirmed);
    const id = crypto.randomUUID();
    const bib = await bibOf(db, read);
    const restored = asIncoming(read, { id: `r:${id}`, timeMs: read.timeMs + 1 });
    await svc.ingest(db, [restored], 'manual', { createdBy: actor });
    await corrected({
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
    await done('restored', read.pointKey, restored.timeMs);
    return { auditId: id, passingId: restored.id };
  }

  /** Changes a read's time and/or point: the read is voided and its replacement stored. */
  async function editRead(
    db: string,
    passingId: string,
    change: { timeMs?: number | undefined; pointKey?: string | undefined },
    reason: string,
    actor: string | null,
    confirmed?: Confirmed,
  ) {
    const read = await requireRead(db, passingId);
    if (read.voided)
      throw errors.conflict('PASSING_VOIDED', 'A voided read cannot be changed; restore it first');
    const done = await guarded(db, read, confirmed);
    const id = crypto.randomUUID();
    const bib = await bibOf(db, read);
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
    await corrected({
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
    await done('edited', replacement.pointKey, replacement.timeMs);
    return { auditId: id, passingId: replacement.id };
  }

  /** Adds a missing read (a runner the mat missed). */
  async function addRead(
    db: string,
    read: { bib: string; pointKey: string; timeMs: number },
    reason: string,
    actor: string | null,
    confirmed?: Confirmed,
  ) {
    const done = await guarded(db, read, confirmed);
    const id = crypto.randomUUID();
    await ingest(db, [{ id: `a:${id}`, ...read }], 'manual', { createdBy: actor }, { confirmed });
    await corrected({
      id,
      db,
      action: 'add',
      passingId: `a:${id}`,
      bib: read.bib,
      after: read,
      reason,
      actor,
    });
    await done('added', read.pointKey, read.timeMs);
    return { auditId: id, passingId: `a:${id}` };
  }

  return { voidRead, restoreRead, editRead, addRead };
}

export type Reads = ReturnType<typeof createReads>;
