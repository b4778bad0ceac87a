import type { EntryInput } from '@tempora/contracts';
import { foldText } from '@tempora/domain';
import { parse } from 'csv-parse/sync';
import { errors } from '../../errors.ts';
import { fieldByHeader } from '../../lib/tabular/columns.ts';
import { type FieldSpec, validateRow } from '../../lib/tabular/validate.ts';

/** Column names a captain's file may use (English or French), folded to letters, per entry field. */
const SYNONYMS = {
  firstName: ['firstname', 'prenom'],
  lastName: ['lastname', 'nom'],
  gender: ['gender', 'sexe'],
  birthDate: ['birthdate', 'naissance', 'datedenaissance'],
  email: ['email'],
  raceId: ['race', 'course'],
  nationality: ['nationality', 'nationalite'],
} satisfies Partial<Record<keyof EntryInput, string[]>>;

const fieldOf = fieldByHeader(SYNONYMS, (h) => foldText(h).replace(/[^a-z]/g, ''));

/**
 * How an entry's cells read (the tabular pipeline's one row-validation step): any gender word the
 * other imports know (`H`, `Homme`, `Femme`…), a real day in ISO or day-first form, and the e-mail
 * and nationality the entry form's schema accepts (`entryInputSchema`). None is required: an
 * entry without a name is a placeholder, one without a gender is completed later.
 */
const RULES = {
  gender: { kind: 'gender' },
  birthDate: { kind: 'date' },
  email: { kind: 'email' },
  nationality: { kind: 'text', upperCase: true, pattern: /^[A-Z]{3}$/ },
} satisfies FieldSpec<keyof EntryInput>;

/** What a captain reads for each field's error (the import's wording, unchanged). */
const MESSAGES: Record<keyof typeof RULES, string> = {
  gender: 'M, F or X',
  birthDate: 'YYYY-MM-DD or DD/MM/YYYY',
  email: 'not an e-mail address',
  nationality: 'a 3-letter code',
};

/**
 * A captain's list of team members (CSV, `,` or `;`, a header row): one entry per row; `race` may
 * name a race by id or by name. Every bad row is listed and nothing is imported (as the
 * participants import does).
 */
export function parseEntryCsv(csv: string, races: { id: string; name: string }[]): EntryInput[] {
  const delimiter = (csv.split('\n')[0] ?? '').includes(';') ? ';' : ',';
  let rows: Record<string, string>[];
  try {
    rows = parse(csv, {
      columns: (h: string[]) => h.map((c) => fieldOf(c) ?? `?${c}`),
      delimiter,
      skip_empty_lines: true,
      trim: true,
      bom: true,
    });
  } catch (error) {
    throw errors.badRequest('CSV_INVALID', (error as Error).message);
  }
  if (rows.length === 0) throw errors.badRequest('CSV_EMPTY', 'No rows');
  if (rows.length > 2000) throw errors.badRequest('CSV_TOO_LARGE', 'At most 2,000 rows');
  const problems: { field: string; message: string }[] = [];
  const out = rows.map((row, k) => {
    const raceText = row.raceId ?? '';
    const race = races.find((r) => r.id === raceText || r.name.toLowerCase() === raceText.toLowerCase());
    if (!race) problems.push({ field: `row ${k + 2}.race`, message: `no race '${raceText}'` });
    const read = validateRow({ line: k + 2, values: row }, RULES);
    for (const { line, field } of read.errors)
      problems.push({ field: `row ${line}.${field}`, message: MESSAGES[field] });
    const { gender, birthDate, email, nationality } = read.values;
    const input: EntryInput = {
      ...(race ? { raceId: race.id } : {}),
      ...(row.firstName ? { firstName: row.firstName } : {}),
      ...(row.lastName ? { lastName: row.lastName } : {}),
      ...(gender ? { gender } : {}),
      ...(birthDate ? { birthDate } : {}),
      ...(email ? { email } : {}),
      ...(nationality ? { nationality } : {}),
    };
    return input;
  });
  if (problems.length)
    throw errors.badRequest('CSV_ROWS_INVALID', `${problems.length} problem(s)`, problems.slice(0, 100));
  return out;
}
