import { foldText, type Gender } from '@tempora/domain';

/**
 * The tabular pipeline's third step (issue 30: one read → map → validate → preview → commit for
 * every import): reading each mapped cell by its field's kind (a {@link FieldSpec}) into typed
 * values, and listing what a row gets wrong in one shape, `{ line, field, code, value }` — the
 * participants import's row issue (`contracts/participants.ts`, `rowIssueSchema`) with its line.
 * The participants, confirmation documents, deposit entries and results CSV imports all read their
 * cells here; each then adds its own checks against what is stored (duplicates, races, bibs,
 * categories) and words the errors in its own HTTP answer (codes, messages), unchanged.
 *
 * Where the four importers read a kind of cell differently, this step reads the union a French or
 * English organiser expects (decided for issue 30):
 * - Genders: every word any of them knew — `M H Male Man Men Boy Homme Garçon Masculin`,
 *   `F W V D Female Woman Women Girl Femme Fille Féminin Vrouw`, `X NB Non-binary Non binaire
 *   Other Autre` — and the plurals (`Hommes`, `Femmes`), compared without case, accents or anything
 *   but letters (`M.` is `M`, `non-binaire` is `nonbinaire`). `H` (homme) is a man everywhere, and
 *   `D` (dame) stays a woman as confirmation read it. Deposit entries knew only `M F X H`; the
 *   results CSV had no accents, plurals, `V`, `D` or words for `X`.
 * - Dates: ISO `yyyy-mm-dd` (a time after it ignored), `dd/mm/yyyy`, `dd.mm.yyyy` and
 *   `dd-mm-yyyy` (month first when the participants import is told `mdy`), and Excel serial day
 *   numbers; always a real calendar day from 1900 to 2100. Deposit entries did not check the day
 *   was real, confirmation did not read serials, the results CSV read ISO only: all now read all
 *   of these. A bare year (`1985`) is no date (as a serial it was a day of 1905, which nobody
 *   meant): a date field refuses it; a birth-year column is read by the `year` kind.
 * - E-mails: something@domain.tld without spaces (participants' and confirmation's rule, a
 *   warning there). Deposit entries, which have no warnings, refuse what the entry form's schema
 *   refuses: a bad e-mail or nationality in a captain's CSV is now an error, as on the form.
 * - Integers: digits only, within the field's bounds (an age: 0 to 120, the participants' rule and
 *   the results schema's).
 * - Nationalities (a `text` rule): three letters, upper-cased (participants' and results' rule).
 * - Times: epoch milliseconds, ISO 8601, or `h:mm:ss(.sss)` after the day's start (the results
 *   passings import's rule, the only one reading times).
 * A row's errors list the missing required fields first, then each unreadable cell in the spec's
 * order.
 */

const GENDERS: Record<string, Gender> = {};
for (const [gender, words] of [
  ['M', 'm h male males man men boy masculin masculine homme hommes garcon garcons'],
  ['F', 'f w v d female females woman women girl feminin feminine femme femmes fille filles vrouw'],
  ['X', 'x nb nonbinary nonbinaire other autre'],
] as const)
  for (const word of words.split(' ')) GENDERS[word] = gender;

/** `M`, `F` or `X` from the many ways files spell a gender (`Homme`, `féminin`, `W`); else undefined. */
export function parseGender(text: string): Gender | undefined {
  return GENDERS[foldText(text).replace(/[^a-z]/g, '')];
}

/** How `01/02/1990` reads: day first (Europe) or month first (US). */
export type DateOrder = 'dmy' | 'mdy';

const pad = (n: number) => String(n).padStart(2, '0');

function calendarDay(y: number, m: number, d: number): string | undefined {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
    return undefined;
  if (y < 1900 || y > 2100) return undefined;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/**
 * A date as `YYYY-MM-DD` from ISO, `dd/mm/yyyy`, `dd.mm.yyyy`, `dd-mm-yyyy` (month first with
 * `mdy`) or an Excel serial day number; undefined when unreadable, a bare year, or not a real day.
 *
 * @example parseDate('4/3/2015') // → '2015-03-04'
 */
export function parseDate(text: string, order: DateOrder = 'dmy'): string | undefined {
  const t = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(t);
  if (iso) return calendarDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const local = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(t);
  if (local) {
    const [a, b, y] = [Number(local[1]), Number(local[2]), Number(local[3])];
    return order === 'dmy' ? calendarDay(y, b, a) : calendarDay(y, a, b);
  }
  if (/^\d{4,5}$/.test(t) && parseYear(t) === undefined) {
    // Excel's serial day (1900 system): day 25569 is 1970-01-01.
    const date = new Date((Number(t) - 25_569) * 86_400_000);
    return calendarDay(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
  }
  return undefined;
}

/** A year from 1900 to 2100 written in four digits; else undefined. */
export function parseYear(text: string): number | undefined {
  const t = text.trim();
  return /^\d{4}$/.test(t) && Number(t) >= 1900 && Number(t) <= 2100 ? Number(t) : undefined;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether a text looks like an e-mail address (something@domain.tld, no spaces). */
export function isEmail(text: string): boolean {
  return EMAIL.test(text.trim());
}

/** A whole number written in digits, within `min`–`max`; else undefined. */
export function parseInteger(text: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const t = text.trim();
  if (!/^\d{1,15}$/.test(t)) return undefined;
  const n = Number(t);
  return n >= min && n <= max ? n : undefined;
}

/**
 * A moment in epoch ms from epoch ms, ISO 8601, or `h:mm:ss(.sss)` after `dayStartMs` (a time of
 * day; null when the day is unknown, then a time of day is unreadable).
 */
export function parseTime(text: string, dayStartMs: number | null): number | null {
  if (/^\d{10,}$/.test(text)) return Number(text);
  const clock = /^(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d{1,3}))?$/.exec(text);
  if (clock) {
    if (dayStartMs === null) return null;
    const [, h, m, s, f = '0'] = clock;
    return dayStartMs + ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(f.padEnd(3, '0'));
  }
  const parsed = Date.parse(text);
  return Number.isFinite(parsed) ? parsed : null;
}

/** What a field's rule says of a cell that does not read: `MISSING_FIELD` when empty and required. */
export type RowErrorCode =
  | 'MISSING_FIELD'
  | 'UNKNOWN_GENDER'
  | 'BAD_DATE'
  | 'BAD_EMAIL'
  | 'BAD_NUMBER'
  | 'BAD_TIME'
  | 'BAD_VALUE';

interface RuleBase<C extends string> {
  /** An empty cell is a `MISSING_FIELD` error (else the field is simply absent). */
  required?: boolean;
  /** The code of an unreadable cell, when the import names it otherwise (`BAD_AGE`). */
  code?: C;
  /** A warning keeps the row (an e-mail that does not look like one); default `error`. */
  severity?: 'error' | 'warning';
}

/** How one field's cell is read. */
export type FieldRule<C extends string = string> = RuleBase<C> &
  (
    | { kind: 'text'; pattern?: RegExp; upperCase?: boolean }
    | { kind: 'gender' }
    | { kind: 'date'; order?: DateOrder; min?: string; max?: string }
    | { kind: 'year' }
    | { kind: 'email' }
    | { kind: 'integer'; min?: number; max?: number }
    | { kind: 'time'; dayStartMs: number | null }
  );

/** The rules of an import's fields (those it reads), in the order their errors are listed. */
export type FieldSpec<F extends string = string, C extends string = string> = Partial<
  Record<F, FieldRule<C>>
>;

type Parsed<R> = R extends { kind: 'gender' }
  ? Gender
  : R extends { kind: 'integer' | 'year' | 'time' }
    ? number
    : string;

/** A row's values as read: a date `YYYY-MM-DD`, a gender `M`/`F`/`X`, numbers and times as numbers. */
export type TypedValues<S extends FieldSpec> = { -readonly [F in keyof S]?: Parsed<S[F]> };

/** The one shape of a row's problem (the participants import's row issue, with its line). */
export interface RowError<F extends string = string, C extends string = string> {
  /** Line in the file (1 = header). */
  line: number;
  field: F;
  code: RowErrorCode | C;
  /** The cell as read (absent when it was empty). */
  value?: string;
}

/** A row as mapped: its line and each field's cell text (an absent or empty field is empty). */
export interface MappedRow<F extends string = string> {
  line: number;
  values: Partial<Record<F, string>>;
}

/** A row as read: its typed values, and its errors (any refuses the row) and warnings. */
export interface CheckedRow<S extends FieldSpec> {
  line: number;
  values: TypedValues<S>;
  errors: RowError<keyof S & string, CodeOf<S>>[];
  warnings: RowError<keyof S & string, CodeOf<S>>[];
}

type CodeOf<S> = S extends FieldSpec<string, infer C> ? C : string;

const DEFAULT_CODE = {
  text: 'BAD_VALUE',
  gender: 'UNKNOWN_GENDER',
  date: 'BAD_DATE',
  year: 'BAD_DATE',
  email: 'BAD_EMAIL',
  integer: 'BAD_NUMBER',
  time: 'BAD_TIME',
} as const satisfies Record<FieldRule['kind'], RowErrorCode>;

/** A cell's value by its rule, or undefined when it does not read. */
function readCell(rule: FieldRule, text: string): string | number | undefined {
  switch (rule.kind) {
    case 'text': {
      const t = rule.upperCase ? text.toUpperCase() : text;
      return !rule.pattern || rule.pattern.test(t) ? t : undefined;
    }
    case 'gender':
      return parseGender(text);
    case 'date': {
      const day = parseDate(text, rule.order);
      return day && (!rule.min || day >= rule.min) && (!rule.max || day <= rule.max) ? day : undefined;
    }
    case 'year':
      return parseYear(text);
    case 'email':
      return isEmail(text) ? text : undefined;
    case 'integer':
      return parseInteger(text, rule.min, rule.max);
    case 'time':
      return parseTime(text, rule.dayStartMs) ?? undefined;
  }
}

/**
 * Reads one mapped row by the spec: required fields first (`MISSING_FIELD`), then every present
 * field in the spec's order. Cells are trimmed; an empty cell is an absent field.
 */
export function validateRow<S extends FieldSpec>(row: MappedRow<keyof S & string>, spec: S): CheckedRow<S> {
  type F = keyof S & string;
  const out: CheckedRow<S> = { line: row.line, values: {}, errors: [], warnings: [] };
  const fields = Object.keys(spec) as F[];
  const text = (field: F) => (row.values[field] ?? '').trim();
  for (const field of fields)
    if (spec[field]!.required && !text(field))
      out.errors.push({ line: row.line, field, code: 'MISSING_FIELD' });
  for (const field of fields) {
    const rule = spec[field]!;
    const value = text(field);
    if (!value) continue;
    const read = readCell(rule, value);
    if (read !== undefined) {
      (out.values as Record<F, unknown>)[field] = read;
      continue;
    }
    const error = { line: row.line, field, code: rule.code ?? DEFAULT_CODE[rule.kind], value };
    (rule.severity === 'warning' ? out.warnings : out.errors).push(error as RowError<F, CodeOf<S>>);
  }
  return out;
}

/** Rows read by a spec: the accepted ones (no error) typed, the refused ones with their errors. */
export interface ValidatedRows<S extends FieldSpec> {
  accepted: CheckedRow<S>[];
  refused: CheckedRow<S>[];
}

/** Reads every row by the spec (see {@link validateRow}), in file order. */
export function validateRows<S extends FieldSpec>(
  rows: readonly MappedRow<keyof S & string>[],
  spec: S,
): ValidatedRows<S> {
  const out: ValidatedRows<S> = { accepted: [], refused: [] };
  for (const row of rows) {
    const checked = validateRow(row, spec);
    (checked.errors.length ? out.refused : out.accepted).push(checked);
  }
  return out;
}

/**
 * The mapped values of a sheet row: each field's cell by the index of its column (from
 * `columnIndexes`; -1 or absent: the header lacks it), empty cells left out.
 */
export function mappedValues<F extends string>(
  cells: readonly string[],
  indexes: Partial<Record<F, number>>,
): Partial<Record<F, string>> {
  const values: Partial<Record<F, string>> = {};
  for (const [field, k] of Object.entries(indexes) as [F, number][]) {
    const v = k >= 0 ? (cells[k] ?? '') : '';
    if (v !== '') values[field] = v;
  }
  return values;
}
