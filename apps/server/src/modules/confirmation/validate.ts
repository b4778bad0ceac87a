import type { DocumentRowIssue, DuplicateLink, IssueCode, RowField } from '@tempora/contracts';
import { requiredFields } from '@tempora/contracts';
import {
  type AgeBasis,
  type CategoryDef,
  categoryIndexOf,
  foldText,
  type RaceDefinition,
} from '@tempora/domain';
import {
  type FieldSpec,
  parseDate,
  parseGender,
  type RowError,
  validateRow,
} from '../../lib/tabular/validate.ts';

/**
 * Row validation (issue 17): normalising mapped cells and finding every issue of every pending
 * row of a document. Pure but for yielding to the event loop between chunks, so that a
 * 20,000-row document never holds the server for more than a few milliseconds at a time. Cells
 * are read by the tabular pipeline's one row-validation step (`lib/tabular/validate.ts`: genders,
 * dates, e-mails); races, bibs, places and duplicates are this import's own checks.
 */

export type Fields = Partial<Record<RowField, string>>;

/** A race as validation sees it: its categories, capacity, bib range and what is already taken. */
export interface RaceFacts {
  id: string;
  name: string;
  date: string;
  categories: CategoryDef[];
  /** How category ages are counted (the race's rule, console issue 14). */
  ageBasis?: AgeBasis | undefined;
  capacity: number | null;
  bibFrom: number | null;
  bibTo: number | null;
  /** Participants already registered. */
  registered: number;
  takenBibs: Set<string>;
}

/** Someone validation compares rows against (a participant, or a row of another document). */
export interface KnownPerson {
  link: DuplicateLink;
  nameKey: string;
  emailKey: string;
}

export interface RowInput {
  id: string;
  position: number;
  fields: Fields;
  decision: 'pending' | 'confirmed' | 'rejected';
  /** The race of the participant a confirmed row became. */
  participantRaceId?: string | null;
}

export interface RowVerdict {
  issues: DocumentRowIssue[];
  duplicateOf: DuplicateLink | null;
  category: string | null;
  raceId: string | null;
}

export interface ValidationContext {
  races: RaceFacts[];
  defaultRaceId: string | null;
  /** Participants of the event's races (not those made from this document's rows). */
  participants: KnownPerson[];
  /** Rows of the event's other documents that are not rejected. */
  otherRows: KnownPerson[];
  /** Today (`YYYY-MM-DD`): a birth date after it is invalid. */
  today: string;
}

/** Lower case without accents or extra spaces: how names and keywords are compared. */
export function fold(text: string): string {
  return foldText(text).replace(/\s+/g, ' ').trim();
}

/** A cell's value as stored in a row's fields: genders and dates normalised when they can be. */
export function normaliseField(field: RowField, value: string): string {
  const v = value.trim();
  if (field === 'gender') return parseGender(v) ?? v;
  if (field === 'birthDate') return parseDate(v) ?? v;
  if (field === 'email') return v.toLowerCase();
  if (field === 'nationality') return v.toUpperCase();
  return v;
}

/** The mapped fields of one raw row. `mapping` names, per field, the header of its column. */
export function mapRow(raw: string[], headers: string[], mapping: Fields): Fields {
  const out: Fields = {};
  for (const [field, header] of Object.entries(mapping) as [RowField, string][]) {
    const k = headers.indexOf(header);
    if (k >= 0) out[field] = normaliseField(field, raw[k] ?? '');
  }
  return out;
}

/** The identity keys duplicates are found by: name + birth date, and e-mail. */
export function personKeys(fields: Fields): { nameKey: string; emailKey: string } {
  const first = fold(fields.firstName ?? '');
  const last = fold(fields.lastName ?? '');
  const birth = parseDate(fields.birthDate ?? '') ?? '';
  return {
    nameKey: first && last && birth ? `${first}|${last}|${birth}` : '',
    emailKey: fold(fields.email ?? ''),
  };
}

/**
 * How a pending row's cells read: the required fields, a gender, a birth date from 1900 to today,
 * an e-mail (a doubtful one is a warning).
 */
function fieldRules(today: string): FieldSpec<RowField, IssueCode> {
  const rules: FieldSpec<RowField, IssueCode> = {};
  for (const field of requiredFields) rules[field] = { kind: 'text', required: true };
  const required = (field: RowField) => requiredFields.includes(field);
  return {
    ...rules,
    gender: { kind: 'gender', required: required('gender') },
    birthDate: {
      kind: 'date',
      min: '1900-01-01',
      max: today,
      code: 'INVALID_DATE',
      required: required('birthDate'),
    },
    email: { kind: 'email', code: 'INVALID_EMAIL', severity: 'warning' },
  };
}

/** A row error as a document row's issue (`MISSING_FIELD` is this import's `MISSING`). */
function documentIssue(severity: DocumentRowIssue['severity']) {
  return ({ field, code }: RowError<RowField, IssueCode>): DocumentRowIssue => ({
    field,
    code: code === 'MISSING_FIELD' ? 'MISSING' : (code as IssueCode),
    severity,
  });
}

/** The race a row goes to: its `race` cell (an id or a name), else the document's default race. */
export function raceOfRow(fields: Fields, races: RaceFacts[], defaultRaceId: string | null) {
  const cell = fold(fields.race ?? '');
  if (!cell) return { race: races.find((r) => r.id === defaultRaceId), named: false };
  return { race: races.find((r) => fold(r.id) === cell || fold(r.name) === cell), named: true };
}

/** The race definition the results engine's category rule needs. */
function raceDefinition(race: RaceFacts): RaceDefinition {
  return {
    id: race.id,
    name: race.name,
    date: race.date,
    startType: 'mass',
    points: [],
    categories: race.categories,
  };
}

function raceOfConfirmed(row: RowInput, context: ValidationContext): RaceFacts | undefined {
  return row.participantRaceId
    ? context.races.find((r) => r.id === row.participantRaceId)
    : raceOfRow(row.fields, context.races, context.defaultRaceId).race;
}

/**
 * The category (id) of a runner in a race by gender and age on race day — the results engine's
 * own rule (`categoryIndexOf`); undefined when none matches or gender/birth date are unreadable.
 */
export function categoryOf(
  race: Pick<RaceFacts, 'id' | 'name' | 'date' | 'categories'>,
  f: Fields,
): string | undefined {
  const gender = parseGender(f.gender ?? '');
  const birthDate = parseDate(f.birthDate ?? '');
  if (!gender || !birthDate) return undefined;
  const k = categoryIndexOf(raceDefinition(race as RaceFacts), {
    bib: '',
    firstName: '',
    lastName: '',
    gender,
    birthDate,
    status: 'registered',
  });
  return k < 0 ? undefined : race.categories[k]!.id;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Validates every row of a document. Rejected rows get no issue; confirmed rows are not
 * re-checked but count as originals for in-file duplicates and as places taken in their race.
 * Returns a verdict per row id. Yields to the event loop every `chunk` rows.
 */
export async function validateRows(
  rows: readonly RowInput[],
  context: ValidationContext,
  chunk = 500,
): Promise<Map<string, RowVerdict>> {
  const verdicts = new Map<string, RowVerdict>();
  const byName = new Map<string, RowInput>();
  const byEmail = new Map<string, RowInput>();
  const participantsByName = new Map(
    context.participants.filter((p) => p.nameKey).map((p) => [p.nameKey, p]),
  );
  const othersByName = new Map(context.otherRows.filter((p) => p.nameKey).map((p) => [p.nameKey, p]));
  const othersByEmail = new Map(context.otherRows.filter((p) => p.emailKey).map((p) => [p.emailKey, p]));
  const placesUsed = new Map(context.races.map((r) => [r.id, r.registered]));
  const bibsInFile = new Set<string>();
  const rules = fieldRules(context.today);
  const ordered = [...rows].sort((a, b) => a.position - b.position);
  // Confirmed rows first: they hold their identity keys whatever their position.
  for (const row of ordered) {
    if (row.decision !== 'confirmed') continue;
    const { nameKey, emailKey } = personKeys(row.fields);
    if (nameKey && !byName.has(nameKey)) byName.set(nameKey, row);
    if (emailKey && !byEmail.has(emailKey)) byEmail.set(emailKey, row);
  }
  let done = 0;
  for (const row of ordered) {
    if (++done % chunk === 0) await yieldToLoop();
    if (row.decision !== 'pending') {
      const race = row.decision === 'confirmed' ? raceOfConfirmed(row, context) : undefined;
      const category = race ? categoryOf(race, row.fields) : null;
      verdicts.set(row.id, {
        issues: [],
        duplicateOf: null,
        category: category ?? null,
        raceId: race?.id ?? null,
      });
      continue;
    }
    verdicts.set(
      row.id,
      checkRow(row, context, {
        byName,
        byEmail,
        participantsByName,
        othersByName,
        othersByEmail,
        placesUsed,
        bibsInFile,
        rules,
      }),
    );
  }
  return verdicts;
}

interface Indexes {
  byName: Map<string, RowInput>;
  byEmail: Map<string, RowInput>;
  participantsByName: Map<string, KnownPerson>;
  othersByName: Map<string, KnownPerson>;
  othersByEmail: Map<string, KnownPerson>;
  placesUsed: Map<string, number>;
  bibsInFile: Set<string>;
  rules: FieldSpec<RowField, IssueCode>;
}

function checkRow(row: RowInput, context: ValidationContext, ix: Indexes): RowVerdict {
  const f = row.fields;
  const issues: DocumentRowIssue[] = [];
  const error = (field: DocumentRowIssue['field'], code: DocumentRowIssue['code']) =>
    issues.push({ field, code, severity: 'error' });
  const warning = (field: DocumentRowIssue['field'], code: DocumentRowIssue['code']) =>
    issues.push({ field, code, severity: 'warning' });

  const read = validateRow({ line: row.position, values: f }, ix.rules);
  issues.push(...read.errors.map(documentIssue('error')), ...read.warnings.map(documentIssue('warning')));
  const { gender, birthDate } = read.values;

  const { race, named } = raceOfRow(f, context.races, context.defaultRaceId);
  if (!race) error('race', named ? 'UNKNOWN_RACE' : 'MISSING');
  let category: string | null = null;
  if (race) {
    if (gender && birthDate && race.categories.length) {
      category = categoryOf(race, f) ?? null;
      if (category === null) error('birthDate', 'AGE_OUTSIDE_CATEGORIES');
    }
    const bib = (f.bib ?? '').trim();
    if (bib) {
      const key = `${race.id}\u0000${bib}`;
      if (race.takenBibs.has(bib) || ix.bibsInFile.has(key)) error('bib', 'BIB_TAKEN');
      ix.bibsInFile.add(key);
      const n = Number(bib);
      if (
        race.bibFrom !== null &&
        race.bibTo !== null &&
        (!Number.isInteger(n) || n < race.bibFrom || n > race.bibTo)
      )
        warning('bib', 'BIB_OUTSIDE_RANGE');
    }
  }
  const duplicateOf = findDuplicate(row, ix);
  if (duplicateOf) {
    const code =
      duplicateOf.kind === 'row'
        ? 'DUPLICATE_IN_FILE'
        : duplicateOf.kind === 'participant'
          ? 'DUPLICATE_PARTICIPANT'
          : 'DUPLICATE_OTHER_DOCUMENT';
    (duplicateOf.by === 'name' ? error : warning)('row', code);
  }
  // Only a row that could become a participant holds a place (in file order).
  if (race && !issues.some((i) => i.severity === 'error')) {
    const used = ix.placesUsed.get(race.id) ?? 0;
    if (race.capacity !== null && used >= race.capacity) error('race', 'RACE_FULL');
    else ix.placesUsed.set(race.id, used + 1);
  }
  return { issues, duplicateOf, category, raceId: race?.id ?? null };
}

/**
 * The first earlier row of the file, participant or other document's row this row repeats, by
 * name + birth date (an error) before e-mail (a warning). Registers the row's keys as originals.
 */
function findDuplicate(row: RowInput, ix: Indexes): DuplicateLink | null {
  const { nameKey, emailKey } = personKeys(row.fields);
  const inFile = (other: RowInput | undefined, by: 'name' | 'email'): DuplicateLink | null =>
    other && other.id !== row.id ? { by, kind: 'row', rowId: other.id, position: other.position } : null;
  const found =
    (nameKey && inFile(ix.byName.get(nameKey), 'name')) ||
    (nameKey && ix.participantsByName.get(nameKey)?.link) ||
    (nameKey && ix.othersByName.get(nameKey)?.link) ||
    (emailKey && inFile(ix.byEmail.get(emailKey), 'email')) ||
    (emailKey && emailLink(ix.othersByEmail.get(emailKey))) ||
    null;
  if (nameKey && !ix.byName.has(nameKey)) ix.byName.set(nameKey, row);
  if (emailKey && !ix.byEmail.has(emailKey)) ix.byEmail.set(emailKey, row);
  return found;
}

function emailLink(person: KnownPerson | undefined): DuplicateLink | null {
  return person ? { ...person.link, by: 'email' } : null;
}
