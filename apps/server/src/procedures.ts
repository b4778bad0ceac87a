import type { Procedure } from './db/procedure.ts';
import { holdBatchProcedure } from './modules/entries/service/hold-batch.ts';

/**
 * The procedures the database thread can run (db/procedure.ts), by name: beside app.ts, where
 * modules are put together, as the thread's entry (`pglite.worker.ts`) loads them.
 */
export const procedures = new Map<string, Procedure<never, unknown>>(
  [holdBatchProcedure].map((p) => [p.name, p as Procedure<never, unknown>]),
);
