import { errors } from '../../../errors.ts';
import * as desk from '../desk-repository.ts';
import type { Confirmed } from './lock.ts';
import type { Reads } from './reads.ts';
import type { Runners } from './runners.ts';
import type { RacedayCore, RunnerStatus } from './shared.ts';
import type { Starts } from './starts.ts';

/**
 * Undo (issue 15): an audited action reversed by its opposite, itself audited — a void by a
 * restore, a restore or an added read by a void, an edit by both, a status or gun time by the
 * previous one. Other actions are undone by hand.
 */
export function createUndo(core: RacedayCore, reads: Reads, runners: Runners, starts: Starts) {
  const { database } = core;
  const { voidRead, restoreRead } = reads;
  const { setStatus } = runners;
  const { setGun } = starts;

  /** Undoes an audited action by its opposite (itself audited). */
  async function undo(
    db: string,
    auditId: string,
    reason: string,
    actor: string | null,
    confirmed?: Confirmed,
  ) {
    const entry = await desk.findAudit(database, db, auditId);
    if (!entry) throw errors.notFound('AUDIT_NOT_FOUND', `No action '${auditId}'`);
    if (entry.undoneBy) throw errors.conflict('ALREADY_UNDONE', 'This action was undone already');
    const before = (entry.before ?? {}) as Record<string, unknown>;
    const after = (entry.after ?? {}) as Record<string, unknown>;
    switch (entry.action) {
      case 'void':
        return restoreRead(db, entry.passingId!, reason, actor, auditId, confirmed);
      case 'restore':
        return voidRead(db, String(after.id), reason, actor, auditId, confirmed);
      case 'add':
        return voidRead(db, entry.passingId!, reason, actor, auditId, confirmed);
      case 'edit': {
        const undone = await voidRead(db, String(after.id), reason, actor, auditId, confirmed);
        await restoreRead(db, entry.passingId!, reason, actor, undefined, confirmed);
        return undone;
      }
      case 'status':
        return setStatus(
          db,
          entry.raceId!,
          entry.bib!,
          before.status as RunnerStatus,
          reason,
          actor,
          auditId,
          confirmed,
        );
      case 'gun':
        return setGun(
          db,
          entry.raceId!,
          (before.gunTimeMs as number | null) ?? null,
          reason,
          actor,
          auditId,
          confirmed,
        );
      default:
        throw errors.badRequest('UNDO_UNSUPPORTED', `A '${entry.action}' action is undone by hand`);
    }
  }

  return { undo };
}
