import { createBulk } from './service/bulk.ts';
import { createChips } from './service/chips.ts';
import { createEdits } from './service/edits.ts';
import { createImports } from './service/imports.ts';
import { createContext, type ParticipantsDeps } from './service/shared.ts';
import { createUploads } from './service/uploads.ts';

export type { Actor } from './service/shared.ts';

/**
 * The participants service (style.md: a factory taking its database and publisher): the grid's
 * writes with their audit, uploads parsed once and validated against the race, imports in
 * chunks publishing their progress, bibs from a range, chip files. After every change the
 * results module reloads the context (`reload`, its one reload command), so start lists show the new runners.
 *
 * Composed of parts that each hold one responsibility (issue 30), over one shared context
 * (`service/shared.ts`: dependencies, a race of the event, storing new runners):
 * `service/uploads.ts` (files parsed, previewed, validated), `service/imports.ts` (an upload's
 * import), `service/edits.ts` (one runner's writes, bibs from a range), `service/bulk.ts`
 * (changes on a selection) and `service/chips.ts` (chip files).
 */
export function createParticipantsService(deps: ParticipantsDeps) {
  const ctx = createContext(deps);
  const uploads = createUploads(ctx);
  const { commit } = createImports(ctx, uploads);
  const edits = createEdits(ctx);
  const { bulkUpdate } = createBulk(ctx);
  const { chips } = createChips(ctx, uploads);

  return {
    upload: uploads.upload,
    info: uploads.info,
    preview: uploads.preview,
    commit,
    add: edits.add,
    update: edits.update,
    bulkUpdate,
    remove: edits.remove,
    assignBibs: edits.assignBibs,
    chips,
  };
}

export type ParticipantsService = ReturnType<typeof createParticipantsService>;
