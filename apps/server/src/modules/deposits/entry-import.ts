import type { EntryInput } from '@tempora/contracts';
import { foldText } from '@tempora/domain';
import { parse } from 'csv-parse/sync';
import { errors } from '../../errors.ts';
import { fieldByHeader } from '../../lib/tabular/columns.ts';

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
    const gender = (row.gender ?? '').toUpperCase().replace(/^H$/, 'M');
    if (gender && !['M', 'F', 'X'].includes(gender))
      problems.push({ field: `row ${k + 2}.gender`, message: 'M, F or X' });
    let birthDate = row.birthDate ?? '';
    const dmy = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(birthDate);
    if (dmy) birthDate = `${dmy[3]}-${dmy[2]!.padStart(2, '0')}-${dmy[1]!.padStart(2, '0')}`;
    if (birthDate && !/^\d{4}-\d{2}-\d{2}$/.test(birthDate)) {
      problems.push({ field: `row ${k + 2}.birthDate`, message: 'YYYY-MM-DD or DD/MM/YYYY' });
    }
    const input: EntryInput = {
      ...(race ? { raceId: race.id } : {}),
      ...(row.firstName ? { firstName: row.firstName } : {}),
      ...(row.lastName ? { lastName: row.lastName } : {}),
      ...(gender ? { gender: gender as 'M' | 'F' | 'X' } : {}),
      ...(birthDate ? { birthDate } : {}),
      ...(row.email ? { email: row.email } : {}),
      ...(row.nationality ? { nationality: row.nationality } : {}),
    };
    return input;
  });
  if (problems.length)
    throw errors.badRequest('CSV_ROWS_INVALID', `${problems.length} problem(s)`, problems.slice(0, 100));
  return out;
}
