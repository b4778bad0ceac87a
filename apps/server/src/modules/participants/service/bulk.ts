import type { ConsoleParticipant, ParticipantAuditEntry, ParticipantBulkOutcome } from '@tempora/contracts';
import * as repo from '../repository.ts';
import type { Actor, ParticipantsContext } from './shared.ts';

type AuditChange = ParticipantAuditEntry['changes'][number];

/**
 * Changes on a selection of runners (issue 29): each refused with its reason or applied, all in
 * one transaction, each audited; both races' results reloaded.
 */
export function createBulk(ctx: ParticipantsContext) {
  const { database, reload, race } = ctx;

  /**
   * One change for a selection (issue 29): race, category, status and/or club. Runners it
   * cannot apply to are refused one by one with the reason (another race: the bib taken there,
   * or passings already read in this one); the others change in one transaction, each change
   * audited (who, when, before → after). Both races' live states are reloaded.
   */
  async function bulkUpdate(
    eventId: string,
    ids: readonly string[],
    patch: { raceId?: string; category?: string | null; status?: string; club?: string },
    actor: Actor,
  ): Promise<ParticipantBulkOutcome> {
    const target = patch.raceId ? await race(eventId, patch.raceId) : null;
    const refused: ParticipantBulkOutcome['refused'] = [];
    const apply: { current: ConsoleParticipant & { db: string }; changes: AuditChange[] }[] = [];
    let unchanged = 0;
    const seenBibs = new Set<string>();
    for (const id of new Set(ids)) {
      const current = await repo.findParticipant(database, eventId, id);
      if (!current) {
        refused.push({ id, name: '', bib: null, code: 'PARTICIPANT_NOT_FOUND', message: 'not found' });
        continue;
      }
      const refuse = (code: string, message: string) =>
        refused.push({
          id,
          name: `${current.firstName} ${current.lastName}`,
          bib: current.bib,
          code,
          message,
        });
      const changes: AuditChange[] = Object.entries(patch)
        .filter(
          ([field, after]) =>
            JSON.stringify((current as Record<string, unknown>)[field] ?? null) !==
            JSON.stringify(after ?? null),
        )
        .map(([field, after]) => ({
          field,
          before: (current as Record<string, unknown>)[field] ?? null,
          after,
        }));
      if (!changes.length) {
        unchanged++;
        continue;
      }
      if (target && target.id !== current.raceId) {
        const passings = await repo.passingCount(database, current.db, current.bib, current.chips);
        if (passings > 0) {
          refuse('PARTICIPANT_HAS_PASSINGS', `${passings} passing(s) read in ${current.raceId}`);
          continue;
        }
        if (current.bib) {
          const [taken] = await database.query(
            'SELECT 1 FROM participants WHERE race_id = $1 AND bib = $2 AND deleted_at IS NULL',
            [target.id, current.bib],
          );
          if (taken || seenBibs.has(current.bib)) {
            refuse('BIB_TAKEN', `bib ${current.bib} is already taken in ${target.id}`);
            continue;
          }
          seenBibs.add(current.bib);
        }
      }
      apply.push({ current, changes });
    }
    if (apply.length) {
      await database.transaction(async (sql) => {
        for (const { current, changes } of apply) {
          const values = Object.fromEntries(changes.map((c) => [c.field, c.after]));
          await repo.updateParticipant(sql, current.id, values);
          if (typeof values.raceId === 'string')
            await sql.query('UPDATE participants SET race_id = $2 WHERE id = $1', [
              current.id,
              values.raceId,
            ]);
        }
        await repo.insertAudit(
          sql,
          apply.map(({ current, changes }) => ({
            participantId: current.id,
            raceId: target?.id ?? current.raceId,
            action: 'update' as const,
            changes,
          })),
          actor,
        );
        await repo.bumpEpoch(sql, [
          ...new Set([...apply.map((a) => a.current.raceId), ...(target ? [target.id] : [])]),
        ]);
      });
      for (const db of new Set([...apply.map((a) => a.current.db), ...(target ? [target.db] : [])]))
        await reload(db);
    }
    return { updated: apply.length, unchanged, refused };
  }

  return { bulkUpdate };
}
