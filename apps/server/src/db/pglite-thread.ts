import { drizzle } from 'drizzle-orm/pg-proxy';
import { spawnWorker } from '../workers/spawn.ts';
import type { Database, Db, Sql } from './database.ts';
import * as schema from './schema/index.ts';
import { sqlTrace, traced } from './sql-trace.ts';
import { createTurns, onTurns } from './turns.ts';

/** A statement's error as the database thread sends it (`src/pglite.worker.ts`). */
export interface SentError {
  message: string;
  name: string;
  /** PGlite's `DatabaseError` fields: code, detail, constraint, table, column, query, params… */
  fields: Record<string, unknown>;
}

/** What the main thread asks of the database thread. */
export type ToThread = { id: number } & (
  | { op: 'open' | 'commit' | 'close' }
  | { op: 'query'; text: string; params: unknown[]; tx: boolean; arrays: boolean }
  | { op: 'exec'; text: string }
  | { op: 'procedure'; name: string; args: unknown }
);

/** Its answer: the rows (objects, or arrays of values when asked), or the error. */
export type FromThread = { id: number; rows: unknown[] } | { id: number; error: SentError };

/**
 * PGlite on a thread of its own (issue 38, `PGLITE_THREAD=worker`; `main` is the default). PGlite
 * runs each statement synchronously on the thread that calls it; on the main thread that was a
 * quarter of the CPU the registration rush's busiest seconds spent, on the same thread as the
 * requests (HTTP, tokens, JSON): the node answered ≈ 900 entry steps a second when 2,500 runners
 * a second came. Here the main thread keeps the requests and the order of work on the database
 * (`turns.ts`: one statement or transaction at a time, requests before background work), and
 * the database thread runs the statements (`src/pglite.worker.ts`) while the main thread goes on
 * with other requests. A statement costs one message each way (its parameters and rows copied:
 * ≈ 10–40 µs for the rush's short statements).
 *
 * Errors keep PGlite's fields (code, constraint, detail…): callers read them as before.
 * A transaction is BEGIN … COMMIT on the one session, in its turn, as PGlite's own
 * `transaction` does (an error inside it rolls it back; a COMMIT of a transaction a statement
 * aborted is an error). If the thread dies, every waiting and later statement fails.
 */
export async function openPgliteThread(dataDir: string, loadDataDir?: Blob): Promise<Database> {
  const load = loadDataDir ? await loadDataDir.arrayBuffer() : undefined;
  const worker = spawnWorker(
    import.meta.url,
    'pglite-worker.mjs',
    new URL('../pglite.worker.ts', import.meta.url),
    {
      workerData: { dataDir, load },
      transferList: load ? [load] : [],
    },
  );
  const pending = new Map<number, { resolve(rows: unknown[]): void; reject(error: unknown): void }>();
  let next = 0;
  let dead: Error | null = null;
  // The thread keeps the process alive only while a statement waits for it (as PGlite in-process).
  worker.unref();
  worker.on('message', (m: FromThread) => {
    const waiting = pending.get(m.id);
    if (!waiting) return;
    pending.delete(m.id);
    if (!pending.size) worker.unref();
    if ('error' in m)
      waiting.reject(Object.assign(new Error(m.error.message), m.error.fields, { name: m.error.name }));
    else waiting.resolve(m.rows);
  });
  const fail = (error: Error) => {
    dead ??= error;
    for (const waiting of pending.values()) waiting.reject(dead);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the database thread has stopped (exit code ${code})`)));
  type Ask = ToThread extends infer T ? (T extends unknown ? Omit<T, 'id'> : never) : never;
  function ask<T>(message: Ask): Promise<T[]> {
    if (dead) return Promise.reject(dead);
    return new Promise((resolve, reject) => {
      const id = ++next;
      if (!pending.size) worker.ref();
      pending.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
      worker.postMessage({ ...message, id });
    });
  }
  await ask({ op: 'open' });

  const trace = sqlTrace();
  const sqlOf = (tx: boolean): Sql =>
    traced(
      {
        query: <T>(text: string, params?: unknown[]) =>
          ask<T>({ op: 'query', text, params: params ?? [], tx, arrays: false }),
        exec: async (text: string) => {
          await ask({ op: 'exec', text });
        },
      },
      trace,
    );
  const base = sqlOf(false);
  const inTransaction = sqlOf(true);
  const turns = createTurns(Number.POSITIVE_INFINITY);
  // Drizzle over the same turns (the server's code uses `query`; Drizzle's rows come as arrays).
  const db = drizzle(
    async (text, params, method) => ({
      rows: await turns.take(() => ask({ op: 'query', text, params, tx: false, arrays: method === 'all' })),
    }),
    { schema },
  ) as unknown as Db;
  return {
    kind: 'pglite',
    ...onTurns(turns, base),
    db,
    transaction: (fn) =>
      turns.take(async () => {
        await inTransaction.exec('BEGIN');
        try {
          const result = await fn(inTransaction);
          await ask({ op: 'commit' });
          return result;
        } catch (error) {
          await inTransaction.exec('ROLLBACK').catch(() => {});
          throw error;
        }
      }),
    procedure: (procedure, args) =>
      turns.take(async () => {
        const [result] = await ask({ op: 'procedure', name: procedure.name, args: args() });
        return result as never;
      }),
    close: async () => {
      if (dead) return;
      await turns.take(() => ask({ op: 'close' }));
      dead = new Error('the database is closed');
      await worker.terminate();
    },
  };
}
