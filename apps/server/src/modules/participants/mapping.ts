import type { ParticipantField, PreviewRow, RowIssue } from '@tempora/contracts';
import { ageOnRaceDay, type CategoryDef, foldText, type Gender } from '@tempora/domain';
import { guessColumns } from '../../lib/tabular/columns.ts';
import type { SheetRow } from '../../lib/tabular/read.ts';

/**
 * The column mapping and row validation of a participant import (issue 14: "a preview with every
 * row's errors and warnings"). Pure: a sheet, a mapping and what the race already holds in; the
 * rows to store and every row's problems out.
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

const GENDERS: Record<string, Gender> = {
  m: 'M',
  h: 'M',
  male: 'M',
  man: 'M',
  men: 'M',
  homme: 'M',
  masculin: 'M',
  f: 'F',
  w: 'F',
  v: 'F',
  female: 'F',
  woman: 'F',
  women: 'F',
  femme: 'F',
  feminin: 'F',
  vrouw: 'F',
  x: 'X',
  nb: 'X',
  'non-binary': 'X',
  'non binaire': 'X',
  'non-binaire': 'X',
};

/** A gender from what files write (`M`, `Homme`, `Féminin`, `W`…), or undefined. */
export function parseGender(text: string): Gender | undefined {
  return GENDERS[fold(text)];
}

const pad = (n: number) => String(n).padStart(2, '0');

function validDate(y: number, m: number, d: number): string | undefined {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
    return undefined;
  if (y < 1900 || y > 2100) return undefined;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/**
 * A birth date as `YYYY-MM-DD` from ISO, `dd/mm/yyyy` (or `mm/dd/yyyy` with `dateOrder` mdy),
 * `dd.mm.yyyy`, `dd-mm-yyyy`, or an Excel serial day number; undefined when unreadable or not a
 * real day.
 */
export function parseDate(text: string, dateOrder: 'dmy' | 'mdy' = 'dmy'): string | undefined {
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(text);
  if (iso) return validDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const local = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  if (local) {
    const [a, b] = [Number(local[1]), Number(local[2])];
    return dateOrder === 'dmy' ? validDate(Number(local[3]), b, a) : validDate(Number(local[3]), a, b);
  }
  if (/^\d{4,5}$/.test(text)) {
    // Excel's serial day (1900 system): day 25569 is 1970-01-01.
    const date = new Date((Number(text) - 25_569) * 86_400_000);
    return validDate(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
  }
  return undefined;
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

const BIB = /^[A-Za-z0-9-]{1,16}$/;
const NATIONALITY = /^[A-Z]{3}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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
  dateOrder: 'dmy' | 'mdy' = 'dmy',
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
  dateOrder: 'dmy' | 'mdy' = 'dmy',
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
  dateOrder: 'dmy' | 'mdy',
) {
  const col = {} as Record<ParticipantField, number>;
  for (const [field, column] of Object.entries(mapping) as [ParticipantField, string][]) {
    col[field] = header.indexOf(column);
  }
  // Each bib and person of the valid rows so far, with its line (a duplicate names it).
  const bibs = new Map<string, number>();
  const people = new Map<string, number>();
  const emails = new Set<string>();
  const out: PreviewRow[] = [];
  const valid: ImportedPerson[] = [];
  function add({ line, cells }: SheetRow) {
    const values: PreviewRow['values'] = {};
    for (const [field, k] of Object.entries(col) as [ParticipantField, number][]) {
      const v = k >= 0 ? (cells[k] ?? '') : '';
      if (v !== '') values[field] = v;
    }
    const errs: RowIssue[] = [];
    const warns: RowIssue[] = [];
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
    for (const field of ['firstName', 'lastName', 'gender'] as const)
      if (!values[field]) issue(errs, 'MISSING_FIELD', field);
    const gender = values.gender ? parseGender(values.gender) : undefined;
    if (values.gender && !gender) issue(errs, 'UNKNOWN_GENDER', 'gender');
    const birthDate = values.birthDate ? (parseDate(values.birthDate, dateOrder) ?? null) : null;
    if (values.birthDate && !birthDate) issue(errs, 'BAD_DATE', 'birthDate');
    let age: number | null = null;
    if (values.age) {
      if (/^\d{1,3}$/.test(values.age) && Number(values.age) <= 120) age = Number(values.age);
      else issue(errs, 'BAD_AGE', 'age');
    }
    if (age === null && birthDate) age = ageOnRaceDay(birthDate, facts.date) ?? null;
    const bib = values.bib ?? null;
    if (bib !== null && !BIB.test(bib)) issue(errs, 'BAD_BIB', 'bib');
    else if (bib !== null && facts.bibs.has(bib))
      issue(errs, 'DUPLICATE_BIB', 'bib', { otherName: facts.bibs.get(bib)! });
    else if (bib !== null && bibs.has(bib))
      issue(errs, 'DUPLICATE_BIB', 'bib', { otherLine: bibs.get(bib)! });
    const nationality = (values.nationality ?? '').toUpperCase();
    if (nationality && !NATIONALITY.test(nationality)) issue(errs, 'BAD_NATIONALITY', 'nationality');
    const email = values.email ?? '';
    if (email && !EMAIL.test(email)) issue(warns, 'BAD_EMAIL', 'email');
    else if (email && (facts.emails.has(fold(email)) || emails.has(fold(email))))
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
        age: values.age ? age : null,
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
