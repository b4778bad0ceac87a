import { AsyncLocalStorage } from 'node:async_hooks';
import { writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { PGlite, protocol, types } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema/index.ts';

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
}

/** Opens PostgreSQL when a URL is given, else the embedded PGlite in `dataDir`. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url
    ? openPostgres(options.url, options.poolSize ?? 10)
    : openPglite(options.dataDir, options.loadDataDir, options.pglite);
}

/**
 * The write-ahead log PGlite keeps (issue 20: three Boston-size imports left 417 MB of WAL under
 * PostgreSQL's defaults of 1 GB / 80 MB). Server settings are read at start only, so a new data
 * directory gets them through ALTER SYSTEM and is opened again once.
 */
const WAL_SETTINGS = { max_wal_size: '64', min_wal_size: '32' } as const;

/**
 * `SQL_TRACE=file` (diagnostics, PGlite): counts each statement's text, the milliseconds it
 * held the connection and the process's CPU milliseconds meanwhile (what a loaded machine does not inflate), written to `file.<pid>` as JSON lines when the process exits (what a bench's
 * requests cost the database, statement by statement).
 */
function sqlTrace(): ((text: string, ms: number, cpuMs: number) => void) | undefined {
  const file = process.env.SQL_TRACE;
  if (!file) return undefined;
  const seen = new Map<string, { n: number; ms: number; cpuMs: number }>();
  process.on('exit', () => {
    const rows = [...seen].sort((a, b) => b[1].ms - a[1].ms);
    writeFileSync(
      `${file}.${process.pid}`,
      rows
        .map(([sql, s]) => JSON.stringify({ ms: Math.round(s.ms), cpuMs: Math.round(s.cpuMs), n: s.n, sql }))
        .join('\n'),
    );
  });
  return (text, ms, cpuMs) => {
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 300);
    const s = seen.get(key) ?? { n: 0, ms: 0, cpuMs: 0 };
    s.n++;
    s.ms += ms;
    s.cpuMs += cpuMs;
    seen.set(key, s);
  };
}

/** Marks the work run inside {@link inBackground}: its statements wait behind requests'. */
const backgroundLane = new AsyncLocalStorage<true>();

/**
 * Runs `fn` as background work (issue 38: the rush's payments, confirmations and mails): on
 * PGlite's one connection its statements and transactions go after every statement a request
 * is waiting for, so a runner's entry step does not queue behind other runners' payments. On
 * PostgreSQL it changes nothing (the pool serves both).
 */
export function inBackground<T>(fn: () => Promise<T>): Promise<T> {
  return backgroundLane.run(true, fn);
}

/** How long the scheduler runs statements back to back before it lets the event loop turn. */
const YIELD_AFTER_MS = 4;
/** The longest background work waits behind requests' statements before it gets a turn anyway. */
const BACKGROUND_EVERY_MS = 200;

/**
 * The order of work on PGlite's one connection (issue 38). PGlite runs a statement on the main
 * thread and chains the next waiting one in a microtask, so thousands of queued statements ran
 * without the event loop turning (`/api/health` waited seconds) and in arrival order (a runner's
 * entry step behind others' payments). Here each statement or transaction takes its turn from
 * two queues — requests' first, then background work's ({@link inBackground}) — and the event
 * loop turns at least every {@link YIELD_AFTER_MS} ms between turns. Background work waiting
 * gets a turn at least every {@link BACKGROUND_EVERY_MS} ms even while requests keep coming. A
 * transaction keeps the connection until it ends, so background transactions are kept short by
 * their callers.
 */
function createTurns() {
  const queues: [(() => void)[], (() => void)[]] = [[], []];
  let busy = false;
  let since = performance.now();
  let scheduled = false;
  /** When background work last had a turn, or began to wait for one. */
  let backgroundSince = performance.now();
  const next = () => {
    scheduled = false;
    if (busy) return;
    // Background work waits behind requests, but not for ever: it gets a turn at least every
    // BACKGROUND_EVERY_MS (a payment recorded while requests never stop coming; its hold expires).
    const overdue = queues[1].length > 0 && performance.now() - backgroundSince >= BACKGROUND_EVERY_MS;
    const lane = overdue || !queues[0].length ? 1 : 0;
    const run = queues[lane].shift();
    if (!run) return;
    if (lane === 1) backgroundSince = performance.now();
    busy = true;
    run();
  };
  const release = () => {
    busy = false;
    if (scheduled) return;
    scheduled = true;
    if (performance.now() - since >= YIELD_AFTER_MS) {
      setImmediate(() => {
        since = performance.now();
        next();
      });
    } else queueMicrotask(next);
  };
  return {
    /** Runs `op` in its turn (its lane from the caller's context). */
    take<T>(op: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const lane = backgroundLane.getStore() ? 1 : 0;
        if (lane === 1 && !queues[1].length) backgroundSince = performance.now();
        queues[lane].push(() => {
          op().then(
            (value) => {
              release();
              resolve(value);
            },
            (error: unknown) => {
              release();
              reject(error);
            },
          );
        });
        if (!busy && !scheduled) {
          scheduled = true;
          queueMicrotask(next);
        }
      });
    },
    /** Statements or transactions waiting: requests', background work's. */
    waiting: () => ({ foreground: queues[0].length, background: queues[1].length }),
  };
}

/** Statements that change the schema: the plans prepared before them may no longer hold. */
const DDL = /\b(create|alter|drop|truncate|comment)\s/i;

/** The most statements kept prepared on PGlite's session (each holds its parse tree and plans). */
const PREPARED_MAX = 400;

/**
 * Statements run as named prepared statements on PGlite's one session (issue 38): PGlite's own
 * `query` parses, describes and plans every statement anew, in five calls into the database per
 * statement. Planning dominated the cost of the rush's short statements: a five-table join by id
 * took 1.31 ms of CPU through `query` and 0.22 ms once prepared, a read by key 0.27 → 0.08 ms, an
 * UPDATE committed alone 0.37 → 0.16 ms (`npm run bench -- pglite-statements`). Here a statement's text is parsed and
 * described once (its parameters' and columns' types kept), then each run is one call: bind,
 * execute, sync. PostgreSQL keeps the plan once it has seen that a generic one serves (after five
 * runs, its `plan_cache_mode = auto`). The least recently used statements are closed beyond
 * `PREPARED_MAX`; DDL (through `exec` or `query`) closes them all (a cached plan whose columns change
 * would fail). Values are serialized and parsed with PGlite's own type handlers, as its `query`
 * does; errors are PGlite's `DatabaseError`s with `query` and `params` set, as its `query` gives.
 */
/** Handles that prepared statements in this process (their statements' names' prefix). */
let handles = 0;

function preparedStatements(client: PGlite) {
  interface Statement {
    name: string;
    params: number[];
    fields: { name: string; type: number }[];
  }
  const { serialize } = protocol;
  const statements = new Map<string, Statement>();
  const toClose: string[] = [];
  let named = 0;
  // Names unique in the process: a PGlite lent to several handles in turn (the tests') never sees
  // one handle's statement named as another's.
  const prefix = `t${(++handles).toString(36)}_`;
  const concat = (parts: Uint8Array[]) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  const failed = (error: unknown, text: string, params: unknown[]) => {
    if (error && typeof error === 'object' && 'code' in error)
      Object.assign(error, { query: text, params, queryOptions: undefined });
    return error;
  };
  function forget() {
    for (const s of statements.values()) toClose.push(s.name);
    statements.clear();
  }
  async function prepare(text: string): Promise<Statement> {
    const name = `${prefix}${++named}`;
    const messages = await client.execProtocolStream(
      concat([
        ...toClose.splice(0).map((n) => serialize.close({ type: 'S', name: n })),
        serialize.parse({ name, text }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const statement: Statement = { name, params: [], fields: [] };
    for (const m of messages as unknown as {
      name: string;
      dataTypeIDs?: number[];
      fields?: { name: string; dataTypeID: number }[];
    }[]) {
      if (m.name === 'parameterDescription') statement.params = m.dataTypeIDs ?? [];
      else if (m.name === 'rowDescription')
        statement.fields = (m.fields ?? []).map((f) => ({ name: f.name, type: f.dataTypeID }));
    }
    statements.set(text, statement);
    if (statements.size > PREPARED_MAX) {
      const [oldest, old] = statements.entries().next().value as [string, Statement];
      statements.delete(oldest);
      toClose.push(old.name);
    }
    return statement;
  }
  return {
    async query<T>(text: string, params: unknown[], inTransaction: boolean): Promise<T[]> {
      return client.runExclusive(async () => {
        let statement = statements.get(text);
        try {
          if (!statement && DDL.test(text)) forget();
          if (statement) {
            statements.delete(text);
            statements.set(text, statement);
          } else statement = await prepare(text);
          const st = statement;
          const values = params.map((v, k) => {
            if (v === null || v === undefined) return null;
            const write = client.serializers[st.params[k] ?? 0];
            return write ? write(v) : String(v);
          });
          const messages = await client.execProtocolStream(
            concat([
              ...toClose.splice(0).map((n) => serialize.close({ type: 'S', name: n })),
              serialize.bind({ statement: st.name, values: values as string[] }),
              serialize.execute({}),
              serialize.sync(),
            ]),
            { syncToFs: !inTransaction },
          );
          const rows: T[] = [];
          const { fields } = st;
          for (const m of messages as unknown as { name: string; fields: (string | null)[] }[]) {
            if (m.name !== 'dataRow') continue;
            const row: Record<string, unknown> = {};
            for (let k = 0; k < fields.length; k++) {
              const f = fields[k] as { name: string; type: number };
              row[f.name] = types.parseType(m.fields[k] ?? null, f.type, client.parsers);
            }
            rows.push(row as T);
          }
          return rows;
        } catch (error) {
          throw failed(error, text, params);
        }
      });
    },
    /** DDL through `exec`: every prepared statement is closed before it runs. */
    changed(text: string) {
      if (DDL.test(text)) forget();
    },
  };
}

async function openPglite(
  dataDir: string,
  loadDataDir?: Blob,
  lent?: DatabaseOptions['pglite'],
): Promise<Database> {
  const trace = sqlTrace();
  const onDisk = !lent && !dataDir.startsWith('memory://');
  if (onDisk) await fs.mkdir(dataDir, { recursive: true });
  let client = lent?.client ?? (await PGlite.create(loadDataDir ? { dataDir, loadDataDir } : { dataDir }));
  if (onDisk) {
    const current = await client.query<{ name: string; setting: string }>(
      "SELECT name, setting FROM pg_settings WHERE name IN ('max_wal_size', 'min_wal_size')",
    );
    if (current.rows.some((r) => WAL_SETTINGS[r.name as keyof typeof WAL_SETTINGS] !== r.setting)) {
      for (const [name, mb] of Object.entries(WAL_SETTINGS))
        await client.exec(`ALTER SYSTEM SET ${name} = '${mb}MB'`);
      await client.close();
      client = await PGlite.create({ dataDir });
    }
  }
  // Generic plans for prepared statements (issue 38). PGlite never analyzes its tables (no
  // autovacuum in its one session), so a custom plan knows no more than a generic one — only the
  // values, not how they are distributed — yet PostgreSQL kept planning some statements anew at
  // every run because the generic plan's default estimates cost more: the authenticator's user
  // read (3 users, `= ANY($1)`) spent 1.6 ms of its 1.7 ms planning; 0.84 → 0.23 ms of CPU a run
  // generic. What a generic plan cannot do is fold a parameter's value: `($1 IS NULL OR x = $1)`
  // is planned for both cases (the few such statements filter small partial indexes: unmailed,
  // refunds due). Set for the session (also a PGlite lent to tests).
  await client.exec('SET plan_cache_mode = force_generic_plan');
  const prepared = preparedStatements(client);
  const wrap = (c: Pick<PGlite, 'exec'>, inTransaction: boolean): Sql => ({
    query: trace
      ? async <T>(text: string, params?: unknown[]) => {
          const t = performance.now();
          const cpu = process.cpuUsage();
          try {
            return await prepared.query<T>(text, params ?? [], inTransaction);
          } finally {
            const used = process.cpuUsage(cpu);
            trace(text, performance.now() - t, (used.user + used.system) / 1000);
          }
        }
      : <T>(text: string, params?: unknown[]) => prepared.query<T>(text, params ?? [], inTransaction),
    exec: async (text: string) => {
      prepared.changed(text);
      await c.exec(text);
    },
  });
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
    db: drizzlePglite({ client: drizzleClient, schema }) as unknown as Db,
    query: (text, params) => turns.take(() => base.query(text, params)),
    exec: (text) => turns.take(() => base.exec(text)),
    transaction: (fn) => turns.take(() => client.transaction((tx) => fn(wrap(tx, true)))),
    atTurn: (fn) => turns.take(() => fn(base)),
    ping: () => turns.take(() => base.exec('select 1')),
    housekeep: () => turns.take(() => base.exec('CHECKPOINT')),
    poolStats: () => {
      const w = turns.waiting();
      return { total: 1, idle: 1, waiting: w.foreground + w.background };
    },
    close: async () => {
      if (!lent) return pglite.close();
      if (closed) return;
      closed = true;
      await lent.release();
    },
  };
}

/** Turns that refuse new statements once `closed` says so (a lent PGlite, `DatabaseOptions.pglite`). */
function lentTurns(
  turns: ReturnType<typeof createTurns>,
  closed: () => boolean,
): ReturnType<typeof createTurns> {
  return {
    ...turns,
    // Checked again at its turn: a statement queued before the close never reaches the next holder.
    take: (op) => turns.take(() => (closed() ? Promise.reject(new Error('the database is closed')) : op())),
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
  return {
    kind: 'postgres',
    db: drizzlePg({ client: pool, schema }) as unknown as Db,
    ...wrap(pool),
    async transaction(fn) {
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
    },
    atTurn: (fn) => fn(wrap(pool)),
    ping: async () => {
      await pool.query('select 1');
    },
    housekeep: async () => {},
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}
