import crypto from 'node:crypto';
import {
  BOSTON_2017,
  type BostonImport,
  type BostonOptions,
  type CategoryDef,
  type CsvRows,
  categoryReportName,
  foldText,
  importBostonTable,
  type Participant,
  type StartType,
  type Wave,
} from '@tempora/domain';
import type { Database, Sql } from '../../db/database.ts';
import { AppError, errors } from '../../errors.ts';
import * as repo from './repository.ts';
import { randomKey } from './service.ts';

/** A race as an organiser defines it (points in course order; `isStart` marks the start mat). */
export interface RaceSetup {
  id: string;
  name: string;
  date: string;
  distanceM: number;
  startType: StartType;
  gunTimeMs?: number | null | undefined;
  /** Race time runs this many times faster than the wall clock (a replay); 1 by default. */
  clockRate?: number | undefined;
  waves?: Wave[] | undefined;
  categories?: CategoryDef[] | undefined;
  rules?: Record<string, unknown> | undefined;
  course?: unknown;
  points: {
    key: string;
    name: string;
    /** The French name (spectators reading in French); the English `name` when absent. */
    nameFr?: string | undefined;
    distanceM: number;
    isStart?: boolean | undefined;
    lat?: number | null | undefined;
    lon?: number | null | undefined;
  }[];
}

const L = (en: string, fr: string) => ({ en, fr });

/**
 * The id a new race of context `db` gets when `requested` is asked for (issue 25). Race ids are
 * the primary key of `races` and referenced by passings, participants, points, reports,
 * confirmation and deposit tables and by every race URL, so they stay global; what is scoped to
 * the context is the uniqueness rule and what the caller learns:
 * - the context already has a race with this id → 409 RACE_EXISTS (the caller's own race);
 * - another context has it → the new race gets `requested-xxxxx` (5 random letters/digits)
 *   instead, transparently: the answer carries the id given, never names the other race, and
 *   nobody can take a name first to block another organisation.
 * Race ids of published events are public anyway (the results pages list them).
 */
export async function raceIdFor(sql: Sql, db: string, requested: string): Promise<string> {
  const owners = async (id: string) =>
    (await sql.query<{ db: string }>('SELECT db FROM races WHERE id = $1', [id])).map((r) => r.db);
  const taken = await owners(requested);
  if (taken.includes(db))
    throw errors.conflict('RACE_EXISTS', `This context already has a race '${requested}'`);
  if (!taken.length) return requested;
  for (;;) {
    const suffix = [...crypto.randomBytes(5)].map((b) => (b % 36).toString(36)).join('');
    const candidate = `${requested.slice(0, 58)}-${suffix}`;
    if (!(await owners(candidate)).length) return candidate;
  }
}

/**
 * Creates a race, its points and its default reports (product.md "Reports"): overall, women,
 * men, one per category, last passings and the start list, in a group named after the race.
 */
export async function createRace(sql: Sql, db: string, setup: RaceSetup, position = 0): Promise<void> {
  await repo.insertRace(
    sql,
    {
      id: setup.id,
      db,
      name: setup.name,
      raceDate: setup.date,
      distanceM: setup.distanceM,
      startType: setup.startType,
      gunTimeMs: setup.gunTimeMs ?? null,
      waves: setup.waves ?? [],
      categories: setup.categories ?? [],
      rules: setup.rules ?? {},
      course: setup.course ?? null,
      position,
      clockRate: setup.clockRate ?? 1,
    },
    setup.points.map((p, k) => ({
      key: p.key,
      name: p.name,
      nameFr: p.nameFr ?? p.name,
      distanceM: p.distanceM,
      position: k,
      isStart: p.isStart ?? false,
      lat: p.lat ?? null,
      lon: p.lon ?? null,
    })),
  );
  const raceId = setup.id;
  const reports: Omit<repo.ReportRow, 'db' | 'groupKey'>[] = [
    {
      key: 'LIVE1',
      name: L('Overall', 'Classement général'),
      definition: { kind: 'ranking', raceId, scope: 'overall' },
      position: 0,
    },
    {
      key: 'LIVE2',
      name: L('Women', 'Femmes'),
      definition: { kind: 'ranking', raceId, scope: 'gender', group: 'F' },
      position: 1,
    },
    {
      key: 'LIVE3',
      name: L('Men', 'Hommes'),
      definition: { kind: 'ranking', raceId, scope: 'gender', group: 'M' },
      position: 2,
    },
    {
      key: 'LAST',
      name: L('Last passings', 'Derniers passages'),
      definition: { kind: 'lastPassings', raceId, limit: 50 },
      position: 3,
    },
    {
      key: 'START',
      name: L('Start list', 'Liste de départ'),
      definition: { kind: 'startList', raceId },
      position: 4,
    },
    ...(setup.categories ?? []).map((c, k) => ({
      key: `CAT-${c.id}`,
      name: categoryReportName(c),
      definition: { kind: 'ranking' as const, raceId, scope: 'category' as const, group: c.id },
      position: 10 + k,
    })),
  ];
  await repo.insertReports(sql, db, { key: raceId, name: L(setup.name, setup.name), position }, reports);
}

/**
 * Registers participants in a race (the API's JSON and CSV imports, the CLI): refused with 409
 * BIB_TAKEN when a bib is already registered; stored in one transaction that bumps the race's
 * epoch (cached tables carry it in their ETag). The caller reloads the context's live state.
 */
export async function registerParticipants(
  database: Database,
  raceId: string,
  people: Participant[],
): Promise<{ added: number }> {
  const taken: { bib: string }[] = [];
  // In slices, pausing between them: PGlite runs on the main thread (see repository `chunks`).
  for (let k = 0; k < people.length; k += 5_000) {
    if (k > 0) await new Promise((resolve) => setImmediate(resolve));
    const bibs = people.slice(k, k + 5_000).map((p) => p.bib);
    taken.push(
      ...(await database.query<{ bib: string }>(
        'SELECT bib FROM participants WHERE race_id = $1 AND bib = ANY($2::text[]) AND deleted_at IS NULL',
        [raceId, bibs],
      )),
    );
  }
  if (taken.length)
    throw errors.conflict(
      'BIB_TAKEN',
      `Bib(s) already registered: ${taken
        .slice(0, 10)
        .map((t) => t.bib)
        .join(', ')}`,
    );
  await database.transaction(async (sql) => {
    await addParticipants(sql, raceId, people);
    await sql.query('UPDATE races SET epoch = epoch + 1 WHERE id = $1', [raceId]);
  });
  return { added: people.length };
}

/** Adds participants with fresh tracking keys. */
export async function addParticipants(
  sql: Sql,
  raceId: string,
  people: readonly Participant[],
): Promise<void> {
  await repo.insertParticipants(
    sql,
    people.map((p) => ({ ...p, raceId, trackingKey: randomKey() })),
  );
}

/**
 * Imports a Boston-format result list into a new race of `db` named, dated and timed by
 * `options` (the organiser's): 9 splits and finish, Boston's divisions, every runner and every read.
 */
export async function importBoston(
  sql: Sql,
  db: string,
  table: CsvRows,
  options: BostonOptions = BOSTON_2017,
) {
  const imported = importBostonTable(table, options);
  await createBostonRace(sql, db, imported, options.id);
  const stored = await repo.insertPassings(
    sql,
    db,
    imported.passings.map((p) => ({ ...p, source: 'import' as const })),
  );
  return { participants: imported.participants.length, passings: stored.length, issues: imported.issues };
}

/**
 * The Boston race, its points and divisions, and its runners (no reads). Its results are official
 * from the import on (issue 43: "results imported from an official list are official"): a
 * Boston-format list is an event's published result list, never a live race's reads, so it is
 * published at once, without a protest window — and locked like any official result.
 */
export async function createBostonRace(sql: Sql, db: string, imported: BostonImport, raceId = 'boston-2017') {
  const { race } = imported;
  await createRace(sql, db, {
    id: raceId,
    rules: { publication: { publishedAtMs: Date.now(), protestWindowMs: 0, source: 'import' } },
    name: race.name,
    date: race.date,
    distanceM: Math.round(race.points[race.points.length - 1]!.distanceM),
    startType: race.startType,
    gunTimeMs: race.gunTime ?? null,
    waves: [...(race.waves ?? [])],
    categories: [...race.categories],
    points: [
      ...(race.startPoint
        ? [
            {
              key: race.startPoint.id,
              name: race.startPoint.name,
              nameFr: race.startPoint.nameFr,
              distanceM: 0,
              isStart: true,
            },
          ]
        : []),
      ...race.points.map((p) => ({ key: p.id, name: p.name, nameFr: p.nameFr, distanceM: p.distanceM })),
    ],
  });
  await addParticipants(sql, raceId, imported.participants);
}

/** A race id from a name (`Boston Marathon 2015` → `boston-marathon-2015`), made unique with a suffix. */
export async function freeRaceId(sql: Sql, name: string): Promise<string> {
  const base =
    foldText(name)
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 48) || 'race';
  const taken = new Set(
    (
      await sql.query<{ id: string }>('SELECT id FROM races WHERE id = $1 OR id LIKE $2', [base, `${base}-%`])
    ).map((r) => r.id),
  );
  if (!taken.has(base)) return base;
  for (let k = 2; ; k++) if (!taken.has(`${base}-${k}`)) return `${base}-${k}`;
}

/**
 * Waves as an organiser writes them: `1-7999@2017-04-17T10:00:00-04:00,8000-15999@…` (a bib range
 * and its gun time each). Null when malformed.
 */
export function parseWaves(text: string | undefined): BostonOptions['waves'] | null {
  if (!text) return [];
  const out: { id: string; startTime: number; firstBib: number; lastBib: number }[] = [];
  for (const [k, part] of text.split(',').entries()) {
    const m = /^\s*(\d+)-(\d+)@(.+?)\s*$/.exec(part);
    const time = m ? Date.parse(m[3]!) : Number.NaN;
    if (!m || !Number.isFinite(time) || Number(m[2]) < Number(m[1])) return null;
    out.push({ id: `W${k + 1}`, startTime: time, firstBib: Number(m[1]), lastBib: Number(m[2]) });
  }
  return out;
}

/**
 * A Boston-format result list into a new race of `db` (issue 14: the organiser gives the name,
 * date, gun and waves; nothing is invented). Every row the import cannot read is listed and
 * counted as refused; a file of which no row can be read stores nothing (422).
 */
export async function importBostonList(
  database: Database,
  db: string,
  table: CsvRows,
  options: Omit<BostonOptions, 'id'> & { id?: string | undefined },
) {
  return database.transaction(async (sql) => {
    const id = options.id ?? (await freeRaceId(sql, options.name));
    if ((await sql.query('SELECT 1 FROM races WHERE id = $1', [id])).length)
      throw errors.conflict('RACE_EXISTS', `Race '${id}' exists`);
    const imported = importBostonTable(table, { ...options, id });
    if (!imported.participants.length)
      throw new AppError(
        422,
        'IMPORT_EMPTY',
        `No row could be read (${imported.issues.length} refused)`,
        imported.issues.slice(0, 1000).map((i) => ({ field: `line ${i.line}`, message: i.message })),
      );
    await createBostonRace(sql, db, imported, id);
    const stored = await repo.insertPassings(
      sql,
      db,
      imported.passings.map((p) => ({ ...p, source: 'import' as const })),
    );
    // A row refused as a whole counts once; a bad split only drops that split (listed too).
    const refused = new Set(imported.issues.filter((i) => !SPLIT_DROPPED.test(i.message)).map((i) => i.line))
      .size;
    return {
      raceId: id,
      participants: imported.participants.length,
      passings: stored.length,
      refused,
      issues: imported.issues,
    };
  });
}

/** The issue of a split that was dropped while its runner was imported. */
const SPLIT_DROPPED = /^bad \S+ time for bib/;
