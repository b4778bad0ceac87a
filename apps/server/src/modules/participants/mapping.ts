import type { ParticipantField, PreviewRow, RowIssue, RowIssueCode } from '@tempora/contracts';
import { ageOnRaceDay, type CategoryDef, foldText, type Gender } from '@tempora/domain';
import { columnIndexes, guessColumns } from '../../lib/tabular/columns.ts';
import type { SheetRow } from '../../lib/tabular/read.ts';
import {
  type DateOrder,
  type FieldSpec,
  mappedValues,
  type RowError,
  validateRow,
} from '../../lib/tabular/validate.ts';

/**
 * The column mapping and row validation of a participant import (issue 14: "a preview with every
 * row's errors and warnings"). Pure: a sheet, a mapping and what the race already holds in; the
 * rows to store and every row's problems out. Cells are read by the tabular pipeline's one
 * row-validation step (`lib/tabular/validate.ts`: genders, dates, numbers, e-mails); the checks
 * against the race and the rows above (duplicates, categories) are this import's own.
 *
 * Errors refuse a row: a missing first name, last name or gender, an unreadable date or age, an
 * unknown gender, a bad bib or nationality, a bib already taken (in the race or higher in the
 * file), the same person (name + birth date) already registered or higher in the file.
 * Warnings keep it: an e-mail already used (families share one), an age outside every category,
 * an e-mail that does not look like one. A row without a bib is no warning: the preview says once
 * for the file that those get one from the race's range (issue 29). A duplicate names its other
 * row ("bib 39 is also on line 12") or the runner already registered ("belongs to Jane Doe").
 */

export type Mapping = Partial<Record<ParticipantField, string>>;

/** Header names a column is recognised by, lower case without accents (English, French, Dutch). */
const SYNONYMS: Record<ParticipantField, string[]> = {
  bib: ['bib', 'dossard', 'no', 'num', 'numero', 'number', 'bib number', 'startnummer', 'borstnummer'],
  firstName: ['first name', 'firstname', 'prenom', 'given name', 'voornaam'],
  lastName: [
    'last name',
    'lastname',
    'nom',
    'surname',
    'family name',
    'nom de famille',
    'achternaam',
    'naam',
  ],
  gender: ['gender', 'sex', 'sexe', 'genre', 'm/f', 'geslacht'],
  birthDate: [
    'birth date',
    'birthdate',
    'date of birth',
    'dob',
    'date de naissance',
    'naissance',
    'geboortedatum',
  ],
  age: ['age', 'leeftijd'],
  club: ['club', 'team', 'equipe', 'ploeg', 'vereniging'],
  nationality: ['nationality', 'nationalite', 'country', 'pays', 'nat', 'nationaliteit'],
  email: ['email', 'e-mail', 'mail', 'courriel', 'adresse e-mail'],
  chip: ['chip', 'puce', 'transponder', 'tag'],
  category: ['category', 'categorie', 'cat', 'categorie d age'],
  wave: ['wave', 'vague', 'sas', 'golf'],
};

/** Lower case without diacritics (é → e): how names and headers are compared and searched. */
export function fold(text: string): string {
  return foldText(text).trim();
}

/** A first guess of the mapping from the header's names (the organisation's last one wins when it fits). */
export function guessMapping(header: readonly string[], remembered: Mapping | null): Mapping {
  return guessColumns(header, SYNONYMS, fold, remembered as Partial<Record<ParticipantField, string>> | null);
}

/** A row ready to store. */
export interface ImportedPerson {
  line: number;
  bib: string | null;
  firstName: string;
  lastName: string;
  gender: Gender;
  birthDate: string | null;
  age: number | null;
  club: string;
  nationality: string;
  email: string;
  chips: string[];
  category: string | null;
  wave: string | null;
}

/** What the race already holds, to find duplicates. */
export interface RaceFacts {
  date: string;
  categories: readonly CategoryDef[];
  /** Bibs registered in the race, each with its runner's name. */
  bibs: ReadonlyMap<string, string>;
  /** `personKey` of everyone registered in the event. */
  people: ReadonlySet<string>;
  /** Folded e-mails of everyone registered in the event. */
  emails: ReadonlySet<string>;
}

/** The key two registrations of one person share: folded names and birth date. */
export function personKey(firstName: string, lastName: string, birthDate: string | null): string {
  return `${fold(firstName)}|${fold(lastName)}|${birthDate ?? ''}`;
}

/** How each cell of a participant row reads, and the code of a cell that does not. */
function fieldRules(dateOrder: DateOrder) {
  return {
    firstName: { kind: 'text', required: true },
    lastName: { kind: 'text', required: true },
    gender: { kind: 'gender', required: true },
    birthDate: { kind: 'date', order: dateOrder },
    age: { kind: 'integer', max: 120, code: 'BAD_AGE' },
    bib: { kind: 'text', pattern: /^[A-Za-z0-9-]{1,16}$/, code: 'BAD_BIB' },
    nationality: { kind: 'text', upperCase: true, pattern: /^[A-Z]{3}$/, code: 'BAD_NATIONALITY' },
    email: { kind: 'email', severity: 'warning' },
  } satisfies FieldSpec<ParticipantField, RowIssueCode>;
}

/**
 * A row error as a preview's row issue (its line is the preview row's). Every rule above names
 * its code or has a default code of the participants' list (`MISSING_FIELD`, `UNKNOWN_GENDER`,
 * `BAD_DATE`, `BAD_EMAIL`).
 */
function rowIssue({ field, code, value }: RowError<ParticipantField>): RowIssue {
  return { code: code as RowIssueCode, field, ...(value !== undefined ? { value } : {}) };
}

function fitsACategory(categories: readonly CategoryDef[], gender: Gender, age: number | null): boolean {
  if (!categories.length) return true;
  return categories.some(
    (c) =>
      (c.gender === undefined || c.gender === gender) &&
      ((c.minAge === undefined && c.maxAge === undefined) ||
        (age !== null &&
          (c.minAge === undefined || age >= c.minAge) &&
          (c.maxAge === undefined || age <= c.maxAge))),
  );
}

/** Validates every row; rows without error come back as people to store. */
export function validateRows(
  header: readonly string[],
  rows: readonly SheetRow[],
  mapping: Mapping,
  facts: RaceFacts,
  dateOrder: DateOrder = 'dmy',
): { people: ImportedPerson[]; rows: PreviewRow[] } {
  const validator = createValidator(header, mapping, facts, dateOrder);
  for (const row of rows) validator.add(row);
  return validator.result();
}

/** The same, with a turn of the event loop every 2,000 rows (a 45,000-row file). */
export async function validateRowsAsync(
  header: readonly string[],
  rows: readonly SheetRow[],
  mapping: Mapping,
  facts: RaceFacts,
  dateOrder: DateOrder = 'dmy',
): Promise<{ people: ImportedPerson[]; rows: PreviewRow[] }> {
  const validator = createValidator(header, mapping, facts, dateOrder);
  for (let k = 0; k < rows.length; k++) {
    validator.add(rows[k]!);
    if (k % 500 === 499) await new Promise((resolve) => setImmediate(resolve));
  }
  return validator.result();
}

/** A validator fed one row at a time (duplicates are found against the rows before). */
function createValidator(
  header: readonly string[],
  mapping: Mapping,
  facts: RaceFacts,
  dateOrder: DateOrder,
) {
  const col = columnIndexes(header, mapping);
  const rules = fieldRules(dateOrder);
  // Each bib and person of the valid rows so far, with its line (a duplicate names it).
  const bibs = new Map<string, number>();
  const people = new Map<string, number>();
  const emails = new Set<string>();
  const out: PreviewRow[] = [];
  const valid: ImportedPerson[] = [];
  function add({ line, cells }: SheetRow) {
    const values: PreviewRow['values'] = mappedValues(cells, col);
    const read = validateRow({ line, values }, rules);
    const errs: RowIssue[] = read.errors.map(rowIssue);
    const warns: RowIssue[] = read.warnings.map(rowIssue);
    const issue = (
      list: RowIssue[],
      code: RowIssue['code'],
      field: ParticipantField | null,
      other: Pick<RowIssue, 'otherLine' | 'otherName'> = {},
    ) =>
      list.push({
        code,
        field,
        ...(field && values[field] !== undefined ? { value: values[field] } : {}),
        ...other,
      });
    const { gender, birthDate = null } = read.values;
    let age = read.values.age ?? null;
    if (age === null && birthDate) age = ageOnRaceDay(birthDate, facts.date) ?? null;
    const bib = read.values.bib ?? null;
    if (bib !== null && facts.bibs.has(bib))
      issue(errs, 'DUPLICATE_BIB', 'bib', { otherName: facts.bibs.get(bib)! });
    else if (bib !== null && bibs.has(bib))
      issue(errs, 'DUPLICATE_BIB', 'bib', { otherLine: bibs.get(bib)! });
    const nationality = read.values.nationality ?? '';
    const email = values.email ?? '';
    if (read.values.email && (facts.emails.has(fold(email)) || emails.has(fold(email))))
      issue(warns, 'DUPLICATE_EMAIL', 'email');
    const key = personKey(values.firstName ?? '', values.lastName ?? '', birthDate);
    if (values.firstName && values.lastName && birthDate && facts.people.has(key))
      issue(errs, 'DUPLICATE_PERSON', 'lastName');
    else if (values.firstName && values.lastName && birthDate && people.has(key))
      issue(errs, 'DUPLICATE_PERSON', 'lastName', { otherLine: people.get(key)! });
    if (gender && age !== null && !values.category && !fitsACategory(facts.categories, gender, age))
      issue(warns, 'NO_CATEGORY', values.birthDate ? 'birthDate' : values.age ? 'age' : null);
    if (!errs.length) {
      if (bib) bibs.set(bib, line);
      if (birthDate) people.set(key, line);
      if (email) emails.add(fold(email));
      valid.push({
        line,
        bib,
        firstName: values.firstName!,
        lastName: values.lastName!,
        gender: gender!,
        birthDate,
        age: read.values.age ?? null,
        club: values.club ?? '',
        nationality,
        email,
        chips: values.chip ? [values.chip] : [],
        category: values.category ?? null,
        wave: values.wave ?? null,
      });
    }
    out.push({ line, values, errors: errs, warnings: warns });
  }
  return { add, result: () => ({ people: valid, rows: out }) };
}

/**
 * The first `count` distinct non-empty values of each column, looking at most `scan` rows down
 * (issue 29: the mapping screen shows what each column holds, even when its first rows are empty).
 */
export function columnSamples(
  header: readonly string[],
  rows: readonly SheetRow[],
  count = 3,
  scan = 500,
): string[][] {
  const out = header.map(() => [] as string[]);
  for (const { cells } of rows.slice(0, scan)) {
    let full = true;
    for (let c = 0; c < header.length; c++) {
      const value = (cells[c] ?? '').trim();
      const seen = out[c]!;
      if (seen.length < count && value && !seen.includes(value)) seen.push(value.slice(0, 60));
      if (seen.length < count) full = false;
    }
    if (full) break;
  }
  return out;
}
