import * as repo from './repository.ts';
import { createEdits } from './service/edits.ts';
import { createFiles } from './service/files.ts';
import { createLifecycle } from './service/lifecycle.ts';
import { createSettlement } from './service/settlement.ts';
import { type ConfirmationDeps, createContext } from './service/shared.ts';
import { createValidation } from './service/validation.ts';
import { createViews } from './service/views.ts';

export { type Actor, type ConfirmationDeps, unitPrice } from './service/shared.ts';

export type ConfirmationService = ReturnType<typeof createConfirmationService>;

/**
 * Registration documents (issue 17): upload, mapping, validation, edits with undo, merges,
 * confirmation into participants, rejection, closing, with a history of who did what.
 *
 * Composed of parts that each hold one responsibility (issue 30), over one shared context
 * (`service/shared.ts`: dependencies, history, reloading, which documents may change):
 * `service/views.ts` (summaries, lists, detail), `service/validation.ts` (rows checked against
 * the event), `service/settlement.ts` (status from the rows, bill, mails), `service/files.ts`
 * (uploads, mapping, rows built), `service/edits.ts` (edits, bulk actions, merges, undo) and
 * `service/lifecycle.ts` (creation, rejection, closing).
 */
export function createConfirmationService(deps: ConfirmationDeps) {
  const ctx = createContext(deps);
  const views = createViews(ctx);
  const settlement = createSettlement(ctx, views);
  const validation = createValidation(ctx, settlement);
  const files = createFiles(ctx, views, validation);
  const edits = createEdits(ctx, validation);
  const lifecycle = createLifecycle(ctx, views, settlement);

  return {
    detail: views.detail,
    reload: ctx.reload,
    summarise: views.summarise,
    revalidate: validation.revalidate,
    events: views.events,
    list: views.list,
    eventDocuments: views.eventDocuments,
    create: lifecycle.create,
    upload: files.upload,
    setMapping: files.setMapping,
    rows: (doc: repo.DocumentRecord) => repo.rowsOf(ctx.database, doc.id),
    edit: edits.edit,
    bulk: edits.bulk,
    undo: edits.undo,
    merge: edits.merge,
    reject: lifecycle.reject,
    close: lifecycle.close,
    settleStatus: settlement.settleStatus,
    history: ctx.history,
    invalidateContext: deps.invalidateContext,
  };
}
