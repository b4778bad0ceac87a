/**
 * Results command line (issue 6: "a CLI command and an API" for imports).
 *
 *   npx tsx apps/server/src/modules/results/cli.ts import-boston <file.csv> --event <eventId> --db <db> [--race <id>]
 *
 * Uses the server's configuration (DATA_DIR or DATABASE_URL), applies migrations, creates the
 * context when missing (the event must exist), imports the result list as a race with its splits,
 * divisions, runners and reads, and prints what it did. Stop the server first when on PGlite
 * (one process owns its directory).
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../config/config.ts';
import { type Database, openDatabase } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import * as repo from './repository.ts';
import { importBoston } from './setup.ts';

export interface CliResult {
  code: number;
  out: string;
}

function option(args: string[], name: string): string | undefined {
  const k = args.indexOf(`--${name}`);
  return k >= 0 ? args[k + 1] : undefined;
}

/** Runs a command against an open database; returns the exit code and what to print. */
export async function runCli(args: string[], database: Database): Promise<CliResult> {
  const [command, file] = args;
  const usage = 'usage: import-boston <file.csv> --event <eventId> --db <db> [--race <id>]';
  if (command !== 'import-boston' || !file) return { code: 64, out: usage };
  const eventId = option(args, 'event');
  const db = option(args, 'db');
  const raceId = option(args, 'race') ?? 'boston-2017';
  if (!eventId || !db) return { code: 64, out: usage };
  if (!fs.existsSync(file)) return { code: 66, out: `no such file: ${file}` };
  if (!(await repo.findEvent(database, eventId))) return { code: 65, out: `no event '${eventId}'` };
  const existing = await repo.findContext(database, db);
  if (existing && existing.eventId !== eventId)
    return { code: 65, out: `context '${db}' belongs to event '${existing.eventId}'` };
  if ((await database.query('SELECT 1 FROM races WHERE id = $1', [raceId])).length) {
    return { code: 65, out: `race '${raceId}' exists` };
  }
  const csv = fs.readFileSync(file, 'utf8');
  const result = await database.transaction(async (sql) => {
    if (!existing) await repo.insertContext(sql, { db, eventId, name: path.basename(file, '.csv') });
    return importBoston(sql, db, csv, raceId);
  });
  const issues = result.issues.map((i) => `  line ${i.line}: ${i.message}`).join('\n');
  return {
    code: 0,
    out: `imported race '${raceId}' into '${db}': ${result.participants} runners, ${result.passings} reads${issues ? `\n${result.issues.length} issue(s):\n${issues}` : ''}`,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const config = loadConfig(process.env);
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: path.join(config.dataDir, 'pglite'),
  });
  await migrate(database);
  const { code, out } = await runCli(process.argv.slice(2), database);
  console.log(out);
  await database.close();
  process.exit(code);
}
