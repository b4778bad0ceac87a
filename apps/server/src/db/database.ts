import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { openPgliteClient, preparedStatements, usePgliteSession } from './pglite-client.ts';
import { openPgliteThread } from './pglite-thread.ts';
import type { Procedure } from './procedure.ts';
import * as schema from './schema/index.ts';
import { sqlTrace, traced } from './sql-trace.ts';
import { createTurns, lentTurns, onTurns } from './turns.ts';

/** Drizzle over either driver; both speak the same pg-core schema. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A raw SQL runner bound to one connection (inside a transaction when given by `transaction`). */
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  exec(text: string): Promise<void>;
}

/** The database handle the rest of the server receives. */
export interface Database extends Sql {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  /** Runs `fn` in one transaction on one connection; rolls back if it throws. */
  transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` when a statement would run, without a transaction: on PGlite's one connection, at
   * its turn (what it reads then includes what arrived while it waited: the authenticator's
   * batches take their users then); on PostgreSQL, at once with the pool.
   */
  atTurn<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /**
   * Runs `procedure` in one transaction with the arguments `args` gives when the transaction
   * begins (what waited meanwhile is in them): on the database's own thread when PGlite runs
   * there, else as `transaction` does (db/procedure.ts).
   */
  procedure<A, R>(procedure: Procedure<A, R>, args: () => A): Promise<R>;
  ping(): Promise<void>;
  /**
   * Gives disk back after heavy writes (issue 20): on PGlite a CHECKPOINT, which lets the
   * write-ahead log recycle down to `max_wal_size`; PostgreSQL's own checkpointer does this.
   */
  housekeep(): Promise<void>;
  /** The connections: open, idle, and queries waiting for one (PGlite: one, never waiting). */
  poolStats(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent the embedded PGlite is used. */
  url?: string | undefined;
  /** PGlite directory; `memory://` for an in-memory database (tests). */
  dataDir: string;
  poolSize?: number;
  /** A PGlite data directory dump (`dumpDataDir`) to start from instead of running initdb (tests). */
  loadDataDir?: Blob;
  /**
   * An open PGlite to use instead of opening one, and what `close` does instead of closing it
   * (tests: one PGlite serves the test apps of a worker in turn, emptied between them). Once
   * closed, this handle refuses every statement.
   */
  pglite?: { client: PGlite; release(): Promise<void> };
  /**
   * Where PGlite runs (issue 38): `worker` on a thread of its own (`pglite-thread.ts`; the
   * server's `PGLITE_THREAD`), `main` on the caller's thread (the default). A lent PGlite runs
   * where it was opened.
   */
  thread?: 'main' | 'worker';
}

/** Opens PostgreSQL when a URL is given, else the embedded PGlite in `dataDir`. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options.poolSize ?? 10);
  if (options.thread === 'worker' && !options.pglite)
    return openPgliteThread(options.dataDir, options.loadDataDir);
  return openPglite(options.dataDir, options.loadDataDir, options.pglite);
}

async function openPglite(
  dataDir: string,
  loadDataDir?: Blob,
  lent?: DatabaseOptions['pglite'],
): Promise<Database> {
  const trace = sqlTrace();
  const client = lent?.client ?? (await openPgliteClient(dataDir, loadDataDir));
  await usePgliteSession(client);
  const prepared = preparedStatements(client);
  const wrap = (c: Pick<PGlite, 'exec'>, inTransaction: boolean): Sql =>
    traced(
      {
        query: <T>(text: string, params?: unknown[]) => prepared.query<T>(text, params ?? [], inTransaction),
        exec: async (text: string) => {
          prepared.changed(text);
          await c.exec(text);
        },
      },
      trace,
    );
  const base = wrap(client, false);
  let closed = false;
  const turns = lent ? lentTurns(createTurns(), () => closed) : createTurns();
  const pglite = client;
  // A lent PGlite goes on serving others once this handle is closed: Drizzle's queries too are
  // refused from then on.
  const drizzleClient = lent
    ? new Proxy(pglite, {
        get(target, key) {
          if (closed) throw new Error('the database is closed');
          const value = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      })
    : pglite;
  return {
    kind: 'pglite',
    ...onTurns(turns, base),
    db: drizzlePglite({ client: drizzleClient, schema }) as unknown as Db,
    transaction: (fn) => turns.take(() => client.transaction((tx) => fn(wrap(tx, true)))),
    procedure: (procedure, args) =>
      turns.take(() => client.transaction((tx) => procedure.run(wrap(tx, true), args()))),
    close: async () => {
      if (!lent) return pglite.close();
      if (closed) return;
      closed = true;
      await lent.release();
    },
  };
}

async function openPostgres(url: string, max: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const wrap = (c: pg.Pool | pg.PoolClient): Sql => ({
    query: async <T>(text: string, params?: unknown[]) =>
      (await c.query(text, params as unknown[] | undefined)).rows as T[],
    exec: async (text: string) => {
      await c.query(text);
    },
  });
  async function transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(wrap(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
  return {
    kind: 'postgres',
    db: drizzlePg({ client: pool, schema }) as unknown as Db,
    ...wrap(pool),
    transaction,
    procedure: (procedure, args) => transaction((sql) => procedure.run(sql, args())),
    atTurn: (fn) => fn(wrap(pool)),
    ping: async () => {
      await pool.query('select 1');
    },
    housekeep: async () => {},
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}
