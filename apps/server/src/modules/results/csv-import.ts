import { ingestPassingSchema } from '@tempora/contracts';
import type { Gender, Participant } from '@tempora/domain';
import type { z } from 'zod';
import { errors, type FieldError } from '../../errors.ts';
import { parseCsv } from '../../lib/csv.ts';
import { columnIndexes, unknownColumns } from '../../lib/tabular/columns.ts';
import { numberedRows, type SheetRow } from '../../lib/tabular/read.ts';
import { participantSchema } from './schemas.ts';
import type { IncomingPassing } from './service.ts';

/**
 * Imports through a column mapping (issue 6: "result and passing files imported through a CSV
 * mapping"): the mapping names, for each field we need, the header of the file's column holding
 * it. The file is read by `lib/csv.ts` (csv-parse; `,` `;` or tab detected from the header line);
 * each row is checked by the same schema as the JSON API (`schemas.ts`, `ingestPassingSchema`).
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

/** Parses a time as epoch ms, ISO 8601, or `h:mm:ss(.sss)` after `dayStartMs` (a time of day). */
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
  const bad: FieldError[] = [];
  const out: IncomingPassing[] = [];
  for (const [k, { cells: fields, line }] of rows.entries()) {
    await breathe(k);
    const bib = value(fields, col.bib);
    const chip = value(fields, col.chip);
    const point = value(fields, col.point) || defaultPoint;
    const time = parseTime(value(fields, col.time), dayStartMs);
    if (!bib && !chip) bad.push({ field: `line ${line}`, message: 'no bib or chip' });
    else if (time === null)
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

const GENDER: Record<string, Gender> = {
  m: 'M',
  h: 'M',
  male: 'M',
  man: 'M',
  homme: 'M',
  f: 'F',
  w: 'F',
  female: 'F',
  woman: 'F',
  femme: 'F',
  x: 'X',
};

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
    const gender = GENDER[value(fields, col.gender).toLowerCase()];
    const age = value(fields, col.age);
    const birthDate = value(fields, col.birthDate);
    const nationality = value(fields, col.nationality).toUpperCase();
    const problems = [
      !bib && 'no bib',
      bib && bibs.has(bib) && `duplicate bib ${bib}`,
      !value(fields, col.firstName) && !value(fields, col.lastName) && 'no name',
      !gender && `unknown gender '${value(fields, col.gender)}'`,
      age && !/^\d{1,3}$/.test(age) && `bad age '${age}'`,
      birthDate && !/^\d{4}-\d{2}-\d{2}$/.test(birthDate) && `bad birth date '${birthDate}'`,
      nationality && !/^[A-Z]{3}$/.test(nationality) && `bad nationality '${nationality}'`,
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
      ...(age ? { age: Number(age) } : {}),
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
