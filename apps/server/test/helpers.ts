import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config/config.ts';
import { type Database, openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';

const require = createRequire(import.meta.url);

/** A configuration for tests: a fresh temp data dir, no logging, overrides applied. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tempora-test-'));
  return loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'test', ...overrides });
}

/** A database backend the suite runs on: always PGlite, plus PostgreSQL when TEST_DATABASE_URL is set. */
export interface Backend {
  name: 'pglite' | 'postgres';
  /** A fresh, empty database (its own PGlite, or its own PostgreSQL database). */
  fresh(): Promise<{ url?: string; dataDir: string; open(): Promise<Database>; drop(): Promise<void> }>;
}

const pgliteBackend: Backend = {
  name: 'pglite',
  async fresh() {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tempora-pglite-'));
    // The initialised cluster unpacked, not initdb at the first open: empty, unmigrated, the same.
    unpackDump(await initdbDumpFile(), dataDir);
    return {
      dataDir,
      open: () => openDatabase({ dataDir }),
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  },
};

function postgresBackend(adminUrl: string): Backend {
  return {
    name: 'postgres',
    async fresh() {
      const name = `tempora_t_${crypto.randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return {
        url: url.toString(),
        dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'tempora-pgdata-')),
        open: () => openDatabase({ url: url.toString(), dataDir: 'unused' }),
        drop: async () => {
          const c = new pg.Client({ connectionString: adminUrl });
          await c.connect();
          await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await c.end();
        },
      };
    },
  };
}

/** The backends this run covers (CI sets TEST_DATABASE_URL to the machine's PostgreSQL). */
export function backends(): Backend[] {
  const url = process.env.TEST_DATABASE_URL;
  return url ? [pgliteBackend, postgresBackend(url)] : [pgliteBackend];
}

/**
 * A freshly initialised PGlite cluster, dumped once per PGlite version into the temp directory:
 * initdb costs ~4.5 s, loading the dump ~0.6 s, and nearly every test file opens a database.
 * Written to a temporary name then renamed, so concurrent workers never read half a file.
 * Returns the dump's path.
 */
async function initdbDumpFile(): Promise<string> {
  const { version } = JSON.parse(
    fs.readFileSync(
      path.join(path.dirname(require.resolve('@electric-sql/pglite')), '../package.json'),
      'utf8',
    ),
  ) as { version: string };
  const file = path.join(os.tmpdir(), `tempora-pglite-initdb-${version}.tar`);
  if (!fs.existsSync(file)) {
    const client = await PGlite.create('memory://');
    const dump = await client.dumpDataDir('none');
    await client.close();
    const partial = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
  }
  return file;
}

async function initdbDump(): Promise<Blob> {
  return new Blob([fs.readFileSync(await initdbDumpFile())]);
}

/**
 * Unpacks a dump (`initdbDumpFile`, `migratedDumpFile`: tar files of a PGlite data directory) into
 * `dir`, which then opens as an on-disk PGlite without initdb (~4 s of CPU each) — and, from the
 * migrated one, without the migrations. Debian's `tar`.
 */
export function unpackDump(file: string, dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['-xf', file, '-C', dir], { stdio: 'ignore' });
  return dir;
}

/** An in-memory PGlite database, migrated by buildApp. */
export async function memoryDatabase(): Promise<Database> {
  return openDatabase({ dataDir: 'memory://', loadDataDir: await initdbDump() });
}

/** The migrated dump of this worker (each worker reads the file once), and its path. */
let migrated: Promise<Blob> | undefined;
let migratedFile: Promise<string> | undefined;

/**
 * A cluster with every migration applied, dumped once per PGlite version and set of migrations
 * (their names and contents hashed into the file's name): applying the 45 migrations cost each
 * test app 0.45–1.9 s, loading the migrated dump costs what loading the bare one does. `migrate`
 * then finds nothing to do, as on a restarted server. Written like the initdb dump (temporary
 * name, then renamed).
 */
export function migratedDumpFile(): Promise<string> {
  migratedFile ??= (async () => {
    const dir = path.join(import.meta.dirname, '../src/db/migrations');
    const hash = crypto.createHash('sha256');
    for (const name of fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .sort())
      hash
        .update(name)
        .update('\0')
        .update(fs.readFileSync(path.join(dir, name)))
        .update('\0');
    const initdb = await initdbDumpFile();
    const file = path.join(
      os.tmpdir(),
      `tempora-pglite-migrated-${fs.statSync(initdb).size}-${hash.digest('hex').slice(0, 16)}.tar`,
    );
    if (!fs.existsSync(file)) {
      const client = await PGlite.create({ dataDir: 'memory://', loadDataDir: await initdbDump() });
      const wrap = (c: Pick<PGlite, 'query' | 'exec'>) => ({
        query: async <T>(text: string, params?: unknown[]) => (await c.query<T>(text, params)).rows,
        exec: async (text: string) => {
          await c.exec(text);
        },
      });
      await migrate({ transaction: (fn) => client.transaction((tx) => fn(wrap(tx))) } as Pick<
        Database,
        'transaction'
      > as Database);
      const dump = await client.dumpDataDir('none');
      await client.close();
      const partial = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
      fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
      fs.renameSync(partial, file);
    }
    return file;
  })();
  return migratedFile;
}

function migratedDump(): Promise<Blob> {
  migrated ??= migratedDumpFile().then((file) => new Blob([fs.readFileSync(file)]));
  return migrated;
}

/**
 * A temporary data directory (`DATA_DIR`) whose database has every migration applied, for the
 * tests that start the real server process: it starts as on a restart, without initdb nor the
 * migrations (a fresh start cost ~23 s of CPU, one on a migrated directory ~10 s).
 */
export async function migratedDataDir(prefix: string): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  unpackDump(await migratedDumpFile(), path.join(dir, 'pglite'));
  return dir;
}

/**
 * The migrated in-memory PGlites of this worker that no test app holds (`migratedMemoryDatabase`).
 * Opening one from the dump cost 1.4–1.6 s of CPU, emptying one ~0.2 s: a closed test app's PGlite
 * is emptied and serves the next one. Apps alive at once each hold their own.
 */
const idle: PGlite[] = [];

/**
 * What makes a database the migrated one: its relations and columns, functions, triggers,
 * constraints, schemas, roles and extensions. A PGlite whose print changed (a test ran DDL) is
 * closed rather than reused.
 */
const PRINT = `SELECT md5(concat_ws('|',
  (SELECT string_agg(n.nspname || '.' || c.relname || ':' || c.relkind::text || ':' || c.relnatts::text, ',' ORDER BY 1)
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND c.relpersistence <> 't'),
  (SELECT count(*) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND NOT a.attisdropped),
  (SELECT count(*) FROM pg_attrdef),
  (SELECT string_agg(p.proname, ',' ORDER BY 1) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')),
  (SELECT string_agg(tgname, ',' ORDER BY 1) FROM pg_trigger WHERE NOT tgisinternal),
  (SELECT string_agg(conname, ',' ORDER BY 1) FROM pg_constraint),
  (SELECT string_agg(nspname, ',' ORDER BY 1) FROM pg_namespace),
  (SELECT string_agg(rolname, ',' ORDER BY 1) FROM pg_roles),
  (SELECT string_agg(extname, ',' ORDER BY 1) FROM pg_extension))) AS print`;

/** The migrated database's print and the statement that empties it (every table but the migrations' list, sequences restarted). */
let migratedState: Promise<{ print: string; empty: string }> | undefined;

function stateOf(client: PGlite): Promise<{ print: string; empty: string }> {
  migratedState ??= (async () => {
    const print = (await client.query<{ print: string }>(PRINT)).rows[0]?.print ?? '';
    const tables = (
      await client.query<{ name: string }>(
        `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
          WHERE schemaname NOT IN ('pg_catalog', 'information_schema') AND tablename <> 'schema_migrations'`,
      )
    ).rows.map((r) => r.name);
    const empty = `TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE;
      SELECT setval(format('%I.%I', schemaname, sequencename), start_value, false) FROM pg_sequences;`;
    return { print, empty };
  })();
  return migratedState;
}

/**
 * Gives a closed test app's PGlite back (`idle`), as the migrated dump opens: session state
 * discarded (settings, prepared statements, temporary tables, locks), every row removed but the
 * migrations' list, sequences restarted. Closed instead when its schema changed or a step fails.
 */
async function giveBack(client: PGlite): Promise<void> {
  try {
    await client.exec('DISCARD ALL');
    const state = await stateOf(client);
    const print = (await client.query<{ print: string }>(PRINT)).rows[0]?.print;
    if (print !== state.print) throw new Error('schema changed');
    await client.exec(state.empty);
    idle.push(client);
  } catch {
    await client.close().catch(() => undefined);
  }
}

/**
 * An in-memory PGlite database with every migration applied (see `migratedDump`): an idle one of
 * this worker emptied (`giveBack`), else one opened from the dump. Closing it gives it back.
 */
export async function migratedMemoryDatabase(): Promise<Database> {
  const client =
    idle.pop() ?? (await PGlite.create({ dataDir: 'memory://', loadDataDir: await migratedDump() }));
  await stateOf(client);
  return openDatabase({ dataDir: 'memory://', pglite: { client, release: () => giveBack(client) } });
}

/** Builds the app on a fresh in-memory database, migrated (closed with the app). */
export async function buildTestApp(overrides: Record<string, string> = {}): Promise<FastifyInstance> {
  const database = await migratedMemoryDatabase();
  const app = await buildApp(testConfig(overrides), { database, logger: false });
  app.addHook('onClose', () => database.close());
  return app;
}
