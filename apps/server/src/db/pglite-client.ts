import fs from 'node:fs/promises';
import { PGlite, protocol, types } from '@electric-sql/pglite';

/**
 * PGlite's session as the server uses it, wherever it runs: on the main thread (the default) or
 * on a thread of its own (`PGLITE_THREAD=worker`: `src/pglite.worker.ts`, see `pglite-thread.ts`).
 */

/**
 * The write-ahead log PGlite keeps (issue 20: three Boston-size imports left 417 MB of WAL under
 * PostgreSQL's defaults of 1 GB / 80 MB). Server settings are read at start only, so a new data
 * directory gets them through ALTER SYSTEM and is opened again once.
 */
const WAL_SETTINGS = { max_wal_size: '64', min_wal_size: '32' } as const;

/** Opens (or creates) the PGlite data directory with the server's settings. */
export async function openPgliteClient(dataDir: string, loadDataDir?: Blob): Promise<PGlite> {
  const onDisk = !dataDir.startsWith('memory://');
  if (onDisk) await fs.mkdir(dataDir, { recursive: true });
  let client = await PGlite.create(loadDataDir ? { dataDir, loadDataDir } : { dataDir });
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
  return client;
}

/** The session's settings, on every PGlite the server uses (also one lent to tests). */
export async function usePgliteSession(client: PGlite): Promise<void> {
  // Generic plans for prepared statements (issue 38). PGlite never analyzes its tables (no
  // autovacuum in its one session), so a custom plan knows no more than a generic one — only the
  // values, not how they are distributed — yet PostgreSQL kept planning some statements anew at
  // every run because the generic plan's default estimates cost more: the authenticator's user
  // read (3 users, `= ANY($1)`) spent 1.6 ms of its 1.7 ms planning; 0.84 → 0.23 ms of CPU a run
  // generic. What a generic plan cannot do is fold a parameter's value: `($1 IS NULL OR x = $1)`
  // is planned for both cases (the few such statements filter small partial indexes: unmailed,
  // refunds due). Set for the session (also a PGlite lent to tests).
  await client.exec('SET plan_cache_mode = force_generic_plan');
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

export function preparedStatements(client: PGlite) {
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
    /** Runs `text` prepared; rows as objects, or as arrays of values in column order (`arrays`). */
    async query<T>(text: string, params: unknown[], inTransaction: boolean, arrays = false): Promise<T[]> {
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
            if (arrays) {
              rows.push(
                fields.map((f, k) => types.parseType(m.fields[k] ?? null, f.type, client.parsers)) as T,
              );
              continue;
            }
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
