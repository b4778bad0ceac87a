import type { Millis } from '../time-format.ts';
import type { Bib, CategoryDef, Participant, Passing, RaceDefinition, TimingPoint } from './types.ts';

/** A CSV file as rows of cells (the server reads files with csv-parse: `apps/server/src/lib/csv.ts`). */
export interface CsvRows {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** The 1-based line of the file where each row ends; default: row index + 2. */
  readonly lines?: readonly number[];
}

/** A row the import could not take, with its line in the file (1 = header). */
export interface ImportIssue {
  readonly line: number;
  readonly message: string;
}

/** The official outcome the file states for one runner: what golden tests compare against. */
export interface OfficialResult {
  readonly bib: Bib;
  readonly officialTimeMs: Millis;
  readonly overall: number;
  readonly gender: number;
  readonly division: number;
}

/** A Boston result list turned into the engine's inputs. */
export interface BostonImport {
  readonly race: RaceDefinition;
  readonly participants: Participant[];
  readonly passings: Passing[];
  readonly official: OfficialResult[];
  readonly issues: ImportIssue[];
}

const SPLITS: readonly (readonly [string, number])[] = [
  ['5K', 5000],
  ['10K', 10_000],
  ['15K', 15_000],
  ['20K', 20_000],
  ['Half', 21_097.5],
  ['25K', 25_000],
  ['30K', 30_000],
  ['35K', 35_000],
  ['40K', 40_000],
];
/** The splits' names in French where they differ (the "K" ones read the same). */
const FRENCH_SPLITS: Readonly<Record<string, string>> = { Half: 'Semi' };
const FINISH: TimingPoint = { id: 'finish', name: 'Finish', nameFr: 'Arrivée', distanceM: 42_195 };
/** B.A.A. divisions: 18-34, then five-year groups to 75-79, then 80+. */
const AGE_GROUPS: readonly (readonly [number, number | undefined])[] = [
  [18, 34],
  ...Array.from({ length: 9 }, (_, k) => [35 + 5 * k, 39 + 5 * k] as const),
  [80, undefined],
];

/**
 * What the file does not say and the organiser does (issue 14: "nothing is invented"): the race's
 * id, name and date, its gun time, and optional waves with the bibs each one holds.
 */
export interface BostonOptions {
  readonly id: string;
  readonly name: string;
  /** `YYYY-MM-DD`: ages count on this day. */
  readonly date: string;
  readonly gunTime: Millis;
  readonly waves?: readonly { id: string; startTime: Millis; firstBib: number; lastBib: number }[];
}

/** The Boston Marathon 2017 as the demo seeds it: race day 2017-04-17, 10:00 EDT = 14:00 UTC. */
export const BOSTON_2017: BostonOptions = {
  id: 'boston-2017',
  name: 'Boston Marathon 2017',
  date: '2017-04-17',
  gunTime: Date.UTC(2017, 3, 17, 14, 0, 0),
};

function bostonRace(options: BostonOptions): RaceDefinition {
  const categories: CategoryDef[] = (['M', 'F'] as const).flatMap((gender) =>
    AGE_GROUPS.map(([minAge, maxAge]) => ({
      id: `${gender}${minAge}${maxAge === undefined ? '+' : `-${maxAge}`}`,
      name: `${gender} ${minAge}${maxAge === undefined ? '+' : `-${maxAge}`}`,
      gender,
      minAge,
      ...(maxAge === undefined ? {} : { maxAge }),
    })),
  );
  const waves = (options.waves ?? []).map((w) => ({ id: w.id, startTime: w.startTime }));
  return {
    id: options.id,
    name: options.name,
    date: options.date,
    startType: waves.length ? 'waves' : 'mass',
    gunTime: options.gunTime,
    ...(waves.length ? { waves } : {}),
    points: [
      ...SPLITS.map(([id, distanceM]) => ({ id, name: id, nameFr: FRENCH_SPLITS[id] ?? id, distanceM })),
      FINISH,
    ],
    categories,
  };
}

const TIME = /^(\d+):([0-5]\d):([0-5]\d)$/;

/** `h:mm:ss` to ms; null for the file's "-" (no read at that mat); undefined when malformed. */
function parseTime(text: string): number | null | undefined {
  if (text === '-' || text === '') return null;
  const m = TIME.exec(text);
  return m ? (Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])) * 1000 : undefined;
}

const positiveInt = (text: string) => (/^\d+$/.test(text) ? Number(text) : undefined);

/**
 * Imports a Boston-format result list (`fixtures/boston-2017.csv`, a copy of
 * `shared/data/boston-2017.csv`). The file holds net times only and no start reads, so every
 * runner starts at their wave's gun (the race's gun without waves) and reaches each mat at that
 * start + the file's split: net times are exactly the file's, and no start moment is made up. A
 * malformed row is reported and skipped; a malformed split drops that split only. Pure: rows in,
 * values out.
 */
export function importBostonTable(table: CsvRows, options: BostonOptions = BOSTON_2017): BostonImport {
  const race = bostonRace(options);
  const waveOf = (bib: string) => {
    const n = /^\d+$/.test(bib) ? Number(bib) : Number.NaN;
    return options.waves?.find((w) => n >= w.firstBib && n <= w.lastBib);
  };
  const header = table.header.map((h) => h.trim());
  const result: BostonImport = { race, participants: [], passings: [], official: [], issues: [] };
  const col = (name: string) => header.indexOf(name);
  const columns = ['Bib', 'Name', 'Age', 'M/F', 'Country', 'Official Time', 'Overall', 'Gender', 'Division'];
  const [bibC, nameC, ageC, genderC, countryC, timeC, overallC, genderRankC, divisionC] = columns.map(col);
  const splitC = SPLITS.map(([id]) => col(id));
  const missing = [...columns, ...SPLITS.map(([id]) => id)].filter((name) => col(name) < 0);
  if (missing.length > 0) {
    result.issues.push({ line: 1, message: `missing columns: ${missing.join(', ')}` });
    return result;
  }
  table.rows.forEach((fields, k) => {
    const line = table.lines?.[k] ?? k + 2;
    if (fields.length === 1 && fields[0] === '') return;
    const cell = (c: number) => (fields[c] ?? '').trim();
    const problem = (message: string) => result.issues.push({ line, message });
    if (fields.length !== header.length) {
      problem(`expected ${header.length} fields, found ${fields.length}`);
      return;
    }
    const bib = cell(bibC!);
    const age = positiveInt(cell(ageC!));
    const gender = cell(genderC!);
    const finish = parseTime(cell(timeC!));
    const ranks = [cell(overallC!), cell(genderRankC!), cell(divisionC!)].map(positiveInt);
    if (bib === '' || age === undefined || (gender !== 'M' && gender !== 'F')) {
      problem(`bad bib, age or gender: ${bib}, ${cell(ageC!)}, ${gender}`);
      return;
    }
    if (typeof finish !== 'number' || ranks.some((r) => r === undefined)) {
      problem(`bad official time or rank for bib ${bib}: ${cell(timeC!)}`);
      return;
    }
    const [lastName = '', firstName = ''] = cell(nameC!)
      .split(',')
      .map((s) => s.trim());
    const wave = waveOf(bib);
    result.participants.push({
      bib,
      firstName,
      lastName,
      gender,
      age,
      nationality: cell(countryC!),
      status: 'registered',
      ...(wave ? { wave: wave.id } : {}),
    });
    const [overall = 0, genderRank = 0, division = 0] = ranks;
    result.official.push({ bib, officialTimeMs: finish, overall, gender: genderRank, division });
    const start = wave ? wave.startTime : options.gunTime;
    const passing = (pointId: string, timeMs: number): Passing => ({
      id: `${bib}@${pointId}`,
      bib,
      pointId,
      timeMs,
      source: 'import',
    });
    SPLITS.forEach(([id], s) => {
      const split = parseTime(cell(splitC[s]!));
      if (split === undefined) problem(`bad ${id} time for bib ${bib}: ${cell(splitC[s]!)}`);
      else if (split !== null) result.passings.push(passing(id, start + split));
    });
    result.passings.push(passing(FINISH.id, start + finish));
  });
  return result;
}
