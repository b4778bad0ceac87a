import type { Sql } from './database.ts';

/**
 * A transaction's work that can run where the database runs (`Database.procedure`): with PGlite
 * on its own thread (pglite-thread.ts) it runs there, its statements one call each instead of one
 * message each way; elsewhere in a transaction of the caller's thread. Its arguments and result
 * are plain data (they cross threads by structured clone: no functions, no class instances).
 * Each is registered by `name` in `src/procedures.ts`, which the database thread loads.
 */
export interface Procedure<A, R> {
  name: string;
  run(sql: Sql, args: A): Promise<R>;
}
