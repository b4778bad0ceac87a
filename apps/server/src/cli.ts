/**
 * Results command line (issue 6: "a CLI command and an API" for imports).
 *
 *   npx tsx apps/server/src/cli.ts import-boston <file.csv> --event <eventId> --db <db> --name <race name>
 *     --date YYYY-MM-DD --gun <ISO time> [--race <id>]
 *   … import-participants <file.csv> --db <db> --race <id> --map bib=Dossard,firstName=Prénom,lastName=Nom,gender=Sexe[,age=…,birthDate=…,nationality=…,club=…,chip=…,category=…]
 *   … import-passings <file.csv> --db <db> --map bib=Bib,time=Heure[,point=Point,chip=…,id=…] [--point <key>] [--day YYYY-MM-DD]
 *
 * The two mapping imports are the API's (`POST …/import/participants`, `…/import/passings`) from a
 * shell: `--map` names, for each field, the file's column holding it; every bad row is listed and
 * nothing is stored unless all are valid. Passings are named as the API names them, so importing
 * a file twice stores nothing twice.
 *
 * Uses the server's configuration (DATA_DIR or DATABASE_URL), applies migrations, creates the
 * context when missing (the event must exist), imports the result list as a race with its splits,
 * divisions, runners and reads, and prints what it did. Stop the server first when on PGlite
 * (one process owns its directory).
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from './config/config.ts';
import { type Database, openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { AppError } from './errors.ts';
import { parseCsv } from './lib/csv.ts';
import * as repo from './modules/results/port.ts';
import {
  importBoston,
  type ParticipantMapping,
  type PassingMapping,
  participantsFromCsv,
  passingsFromCsv,
  registerParticipants,
  toPassing,
} from './modules/results/port.ts';

export interface CliResult {
  code: number;
  out: string;
}

function option(args: string[], name: string): string | undefined {
  const k = args.indexOf(`--${name}`);
  return k >= 0 ? args[k + 1] : undefined;
}

const USAGE = [
  'usage: import-boston <file.csv> --event <eventId> --db <db> --name <race name> --date YYYY-MM-DD --gun <ISO time> [--race <id>]',
  '       import-participants <file.csv> --db <db> --race <id> --map bib=…,firstName=…,lastName=…,gender=…[,…]',
  '       import-passings <file.csv> --db <db> --map bib=…|chip=…,time=…[,point=…] [--point <key>] [--day YYYY-MM-DD]',
].join('\n');

/** `a=B,c=D` → { a: 'B', c: 'D' }, or null when malformed. */
function mappingOf(text: string | undefined): Record<string, string> | null {
  if (!text) return null;
  const out: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0 || at === pair.length - 1) return null;
    out[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return out;
}

/** An import's refusal (every bad row, as the API lists them) as the CLI prints it. */
function refusal(error: unknown): CliResult {
  if (!(error instanceof AppError)) throw error;
  const rows = (error.errors ?? []).map((e) => `  ${e.field}: ${e.message}`).join('\n');
  return { code: 65, out: `${error.message}${rows ? `\n${rows}` : ''}` };
}

async function importParticipants(args: string[], database: Database, text: string): Promise<CliResult> {
  const db = option(args, 'db');
  const raceId = option(args, 'race');
  const mapping = mappingOf(option(args, 'map'));
  if (!db || !raceId || !mapping) return { code: 64, out: USAGE };
  const race = await database.query('SELECT 1 FROM races WHERE id = $1 AND db = $2', [raceId, db]);
  if (!race.length) return { code: 65, out: `no race '${raceId}' in '${db}'` };
  let people: Awaited<ReturnType<typeof participantsFromCsv>>;
  try {
    people = await participantsFromCsv(text, mapping as ParticipantMapping);
  } catch (error) {
    return refusal(error);
  }
  try {
    await registerParticipants(database, raceId, people);
  } catch (error) {
    return refusal(error);
  }
  return { code: 0, out: `registered ${people.length} participants in race '${raceId}'` };
}

async function importPassings(args: string[], database: Database, text: string): Promise<CliResult> {
  const db = option(args, 'db');
  const mapping = mappingOf(option(args, 'map'));
  const day = option(args, 'day');
  if (!db || !mapping || (day && !/^\d{4}-\d{2}-\d{2}$/.test(day))) return { code: 64, out: USAGE };
  if (!(await repo.findContext(database, db))) return { code: 65, out: `no context '${db}'` };
  let rows: ReturnType<typeof toPassing>[];
  try {
    const incoming = await passingsFromCsv(
      text,
      mapping as PassingMapping,
      option(args, 'point') ?? null,
      day ? Date.parse(`${day}T00:00:00Z`) : null,
    );
    rows = incoming.map((p) => toPassing(p, 'import'));
  } catch (error) {
    return refusal(error);
  }
  const stored = await database.transaction((sql) => repo.insertPassings(sql, db, rows));
  return {
    code: 0,
    out: `stored ${stored.length} passings in '${db}' (${rows.length - stored.length} already there)`,
  };
}

/** Runs a command against an open database; returns the exit code and what to print. */
export async function runCli(args: string[], database: Database): Promise<CliResult> {
  const [command, file] = args;
  const commands = ['import-boston', 'import-participants', 'import-passings'];
  if (!command || !commands.includes(command) || !file) return { code: 64, out: USAGE };
  if (!fs.existsSync(file)) return { code: 66, out: `no such file: ${file}` };
  if (command === 'import-participants')
    return importParticipants(args, database, fs.readFileSync(file, 'utf8'));
  if (command === 'import-passings') return importPassings(args, database, fs.readFileSync(file, 'utf8'));
  const eventId = option(args, 'event');
  const db = option(args, 'db');
  const raceId = option(args, 'race') ?? 'boston-2017';
  // Nothing is invented (issue 14): the race's name, date and gun time come from the organiser.
  const name = option(args, 'name');
  const date = option(args, 'date');
  const gun = Date.parse(option(args, 'gun') ?? '');
  if (!eventId || !db || !name || !date || !/^\d{4}-\d{2}-\d{2}$/.test(date) || !Number.isFinite(gun))
    return { code: 64, out: USAGE };
  if (!(await repo.findEvent(database, eventId))) return { code: 65, out: `no event '${eventId}'` };
  const existing = await repo.findContext(database, db);
  if (existing && existing.eventId !== eventId)
    return { code: 65, out: `context '${db}' belongs to event '${existing.eventId}'` };
  if ((await database.query('SELECT 1 FROM races WHERE id = $1', [raceId])).length) {
    return { code: 65, out: `race '${raceId}' exists` };
  }
  let table: Awaited<ReturnType<typeof parseCsv>>;
  try {
    table = await parseCsv(fs.createReadStream(file));
  } catch (error) {
    return refusal(error);
  }
  const result = await database.transaction(async (sql) => {
    if (!existing) await repo.insertContext(sql, { db, eventId, name: path.basename(file, '.csv') });
    return importBoston(sql, db, table, { id: raceId, name, date, gunTime: gun });
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
