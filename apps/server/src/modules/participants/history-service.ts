import {
  type FieldErrorCode,
  type ImportHistoryEntry,
  type ImportLng,
  type ImportUndoBlocker,
  type ImportUndoOutcome,
  importIssueText,
  refusedFileHeaders,
} from '@tempora/contracts';
import type { Database } from '../../db/database.ts';
import { AppError, errors } from '../../errors.ts';
import type { TextTable } from '../exports/port.ts';
import * as history from './history-repository.ts';
import * as repo from './repository.ts';
import type { Actor } from './service.ts';

/**
 * The participant imports' history (issue 29, "as RaceResult users expect"): each import's refused
 * rows as a file to fix and import again, and the undo of an import, refused (409) while a runner
 * it created has results, a payment or a confirmation row, so nothing timed or paid disappears.
 */
const BLOCKER_CODES: Record<ImportUndoBlocker, FieldErrorCode> = {
  results: 'usedByResults',
  payments: 'usedByPayments',
  confirmation: 'usedByConfirmation',
};

export function createImportHistory(deps: { database: Database; reload: (db: string) => Promise<void> }) {
  const { database, reload } = deps;

  async function found(eventId: string, importId: string) {
    const entry = await history.findImport(database, eventId, importId);
    if (!entry) throw errors.notFound('IMPORT_NOT_FOUND', `No import '${importId}' in this event`);
    return entry;
  }

  return {
    list: (eventId: string): Promise<ImportHistoryEntry[]> => history.listImports(database, eventId),

    /**
     * The refused rows as a table: the file's own columns as it held them (so it can be fixed and
     * imported again), then the line and every reason in `lng`.
     */
    async refusedTable(eventId: string, importId: string, lng: ImportLng): Promise<TextTable> {
      const entry = await found(eventId, importId);
      const width = entry.header.length;
      return {
        title: `${entry.fileName.replace(/\.[^.]+$/, '')} - ${refusedFileHeaders.title[lng]}`,
        headers: [...entry.header, refusedFileHeaders.line[lng], refusedFileHeaders.reason[lng]],
        aligns: [...entry.header.map(() => 'left' as const), 'right', 'left'],
        bold: [...entry.header.map(() => false), false, false],
        rows: entry.rows.map((r) => [
          ...Array.from({ length: width }, (_v, k) => r.cells[k] ?? ''),
          String(r.line),
          r.errors.map((e) => importIssueText(e, lng)).join('; '),
        ]),
      };
    },

    /**
     * Removes the runners the import created and puts back the fields it changed, in one
     * transaction, each audited as a change by `actor`. 409 `IMPORT_ALREADY_UNDONE`, or
     * `IMPORT_UNDO_REFUSED` naming each kind of reference (`errors[].field`: results, payments,
     * confirmation; `params`: count and names) — nothing changed then.
     */
    async undo(eventId: string, importId: string, actor: Actor): Promise<ImportUndoOutcome> {
      const entry = await found(eventId, importId);
      if (entry.undoneAt) throw errors.conflict('IMPORT_ALREADY_UNDONE', 'This import was already undone');
      const touched = new Set<string>();
      const out = await database.transaction(async (sql) => {
        if (!(await history.markUndone(sql, importId, actor.email)))
          throw errors.conflict('IMPORT_ALREADY_UNDONE', 'This import was already undone');
        const blockers = await history.undoBlockers(sql, importId);
        if (blockers.length) {
          // Field errors with codes the web translates (contracts `fieldErrorCodes`, `usedBy…`).
          const issues = blockers.map((b) => ({
            field: b.kind,
            code: BLOCKER_CODES[b.kind],
            message: `${b.count} runner(s): ${b.names.join(', ')}`,
            params: { count: b.count, names: b.names.join(', ') },
          }));
          throw new AppError(
            409,
            'IMPORT_UNDO_REFUSED',
            `Runners of this import are used elsewhere (${blockers.map((b) => b.kind).join(', ')}): nothing undone`,
            issues,
          );
        }
        const items = await history.itemsOf(sql, importId);
        const created = items.filter((i) => i.previous === null);
        const changed = items.filter((i) => i.previous !== null);
        await history.softDeleteMany(
          sql,
          created.map((c) => c.id),
        );
        const undo = { field: 'import', before: entry.fileName, after: null };
        await repo.insertAudit(
          sql,
          created.map((c) => ({
            participantId: c.id,
            raceId: c.raceId,
            action: 'delete' as const,
            changes: [undo],
          })),
          actor,
        );
        for (const c of changed) {
          const now = ((await repo.findParticipant(sql, eventId, c.id)) ?? {}) as Record<string, unknown>;
          await repo.updateParticipant(sql, c.id, c.previous!);
          await repo.insertAudit(
            sql,
            [
              {
                participantId: c.id,
                raceId: c.raceId,
                action: 'update',
                changes: [
                  undo,
                  ...Object.entries(c.previous!).map(([field, after]) => ({
                    field,
                    before: now[field] ?? null,
                    after,
                  })),
                ],
              },
            ],
            actor,
          );
        }
        for (const i of items) touched.add(i.raceId);
        touched.add(entry.raceId);
        await repo.bumpEpoch(sql, [...touched]);
        return { removed: created.length, restored: changed.length };
      });
      const races = await repo.racesOfEvent(database, eventId);
      for (const db of new Set(races.filter((r) => touched.has(r.id)).map((r) => r.db))) await reload(db);
      return out;
    },
  };
}

export type ImportHistory = ReturnType<typeof createImportHistory>;
