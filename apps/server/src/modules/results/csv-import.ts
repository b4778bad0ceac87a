import { ingestPassingSchema } from '@tempora/contracts';
import type { Participant } from '@tempora/domain';
import type { z } from 'zod';
import { errors, type FieldError } from '../../errors.ts';
import { parseCsv } from '../../lib/csv.ts';
import { columnIndexes, unknownColumns } from '../../lib/tabular/columns.ts';
import { numberedRows, type SheetRow } from '../../lib/tabular/read.ts';
import { type FieldSpec, mappedValues, type RowError, validateRow } from '../../lib/tabular/validate.ts';
import { participantSchema } from './schemas.ts';
import type { IncomingPassing } from './service.ts';

/**
 * Imports through a column mapping (issue 6: "result and passing files imported through a CSV
 * mapping"): the mapping names, for each field we need, the header of the file's column holding
 * it. The file is read by `lib/csv.ts` (csv-parse; `,` `;` or tab detected from the header line);
 * its cells are read by the tabular pipeline's one row-validation step (`lib/tabular/validate.ts`:
 * times, genders, ages, dates, nationalities), then each row is checked by the same schema as the
 * JSON API (`schemas.ts`, `ingestPassingSchema`).
 * Every bad row is reported with its line and field; nothing is stored unless every row is valid.
 */
export type PassingMapping = { time: string; point?: string; bib?: string; chip?: string; id?: string };
export type ParticipantMapping = {
  bib: string;
  firstName: string;
  lastName: string;
  gender: string;
  age?: string;
  birthDate?: string;
  nationality?: string;
  club?: string;
  chip?: string;
  category?: string;
};

async function table(text: string): Promise<{ header: string[]; rows: SheetRow[] }> {
  const parsed = await parseCsv(text);
  return { header: parsed.header, rows: numberedRows(parsed) };
}

/** A pause for the event loop every 2,000 rows of a large file (other requests go on meanwhile). */
const breathe = async (k: number) => {
  if (k % 2_000 === 1_999) await new Promise((resolve) => setImmediate(resolve));
};

/** The messages of a schema's refusal, one string (`field: message; …`). */
const issuesOf = (error: z.ZodError) =>
  error.issues.map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`).join('; ');

function columns<M extends Record<string, string | undefined>>(
  header: string[],
  mapping: M,
): Record<keyof M, number> {
  const missing = unknownColumns(header, mapping, { where: ' in the header' });
  if (missing.length)
    throw errors.badRequest('CSV_MAPPING_INVALID', 'The mapping names unknown columns', missing);
  return columnIndexes(header, mapping);
}

const value = (fields: string[], k: number | undefined) =>
  k === undefined || k < 0 ? '' : (fields[k] ?? '').trim();

/** The passings of a CSV through a column mapping; throws 400 CSV_ROWS_INVALID listing bad rows. */
export async function passingsFromCsv(
  text: string,
  mapping: PassingMapping,
  defaultPoint: string | null,
  dayStartMs: number | null,
): Promise<IncomingPassing[]> {
  if (!mapping.bib && !mapping.chip)
    throw errors.badRequest('CSV_MAPPING_INVALID', 'Map a bib or a chip column');
  const { header, rows } = await table(text);
  const col = columns(header, mapping);
  const timeRule = { time: { kind: 'time', dayStartMs } } satisfies FieldSpec;
  const bad: FieldError[] = [];
  const out: IncomingPassing[] = [];
  for (const [k, { cells: fields, line }] of rows.entries()) {
    await breathe(k);
    const bib = value(fields, col.bib);
    const chip = value(fields, col.chip);
    const point = value(fields, col.point) || defaultPoint;
    const time = validateRow({ line, values: { time: value(fields, col.time) } }, timeRule).values.time;
    if (!bib && !chip) bad.push({ field: `line ${line}`, message: 'no bib or chip' });
    else if (time === undefined)
      bad.push({ field: `line ${line}`, message: `bad time '${value(fields, col.time)}'` });
    else if (!point) bad.push({ field: `line ${line}`, message: 'no timing point' });
    else {
      const id = value(fields, col.id) || undefined;
      const checked = ingestPassingSchema.safeParse({
        id,
        bib: bib || undefined,
        chip: chip || undefined,
        point,
        time,
      });
      if (!checked.success) bad.push({ field: `line ${line}`, message: issuesOf(checked.error) });
      else out.push({ id, bib: bib || undefined, chip: chip || undefined, pointKey: point, timeMs: time });
    }
  }
  if (bad.length)
    throw errors.badRequest('CSV_ROWS_INVALID', `${bad.length} invalid row(s)`, bad.slice(0, 10_000));
  return out;
}

/** How a participant row's cells read (the results schema then checks the whole row). */
const PARTICIPANT_RULES = {
  gender: { kind: 'gender', required: true },
  age: { kind: 'integer', max: 120 },
  birthDate: { kind: 'date' },
  nationality: { kind: 'text', upperCase: true, pattern: /^[A-Z]{3}$/ },
} satisfies FieldSpec<keyof ParticipantMapping>;

/** A refused cell as this import has always worded it (`unknown gender 'Q'`). */
function problemText({ field, value = '' }: RowError<keyof typeof PARTICIPANT_RULES>): string {
  if (field === 'gender') return `unknown gender '${value}'`;
  if (field === 'age') return `bad age '${value}'`;
  if (field === 'birthDate') return `bad birth date '${value}'`;
  return `bad nationality '${value.toUpperCase()}'`;
}

/** The participants of a CSV through a column mapping; throws 400 CSV_ROWS_INVALID listing bad rows. */
export async function participantsFromCsv(text: string, mapping: ParticipantMapping): Promise<Participant[]> {
  const { header, rows } = await table(text);
  const col = columns(header, mapping);
  const bad: FieldError[] = [];
  const out: Participant[] = [];
  const bibs = new Set<string>();
  for (const [k, { cells: fields, line }] of rows.entries()) {
    await breathe(k);
    const bib = value(fields, col.bib);
    const read = validateRow({ line, values: mappedValues(fields, col) }, PARTICIPANT_RULES);
    const { gender, age, birthDate, nationality } = read.values;
    const problems = [
      !bib && 'no bib',
      bib && bibs.has(bib) && `duplicate bib ${bib}`,
      !value(fields, col.firstName) && !value(fields, col.lastName) && 'no name',
      ...read.errors.map(problemText),
    ].filter(Boolean) as string[];
    if (problems.length) {
      bad.push({ field: `line ${line}`, message: problems.join('; ') });
      continue;
    }
    const chip = value(fields, col.chip);
    const checked = participantSchema.safeParse({
      bib,
      firstName: value(fields, col.firstName),
      lastName: value(fields, col.lastName),
      gender,
      ...(age !== undefined ? { age } : {}),
      ...(birthDate ? { birthDate } : {}),
      ...(nationality ? { nationality } : {}),
      ...(value(fields, col.club) ? { club: value(fields, col.club) } : {}),
      ...(chip ? { chips: [chip] } : {}),
      ...(value(fields, col.category) ? { category: value(fields, col.category) } : {}),
    });
    if (!checked.success) {
      bad.push({ field: `line ${line}`, message: issuesOf(checked.error) });
      continue;
    }
    bibs.add(bib);
    out.push(checked.data as Participant);
  }
  if (bad.length)
    throw errors.badRequest('CSV_ROWS_INVALID', `${bad.length} invalid row(s)`, bad.slice(0, 200));
  if (out.length === 0) throw errors.badRequest('CSV_EMPTY', 'No rows');
  return out;
}
