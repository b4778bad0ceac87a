import { type Gender, type Participant, parseCsv } from '@tempora/domain';
import { errors, type FieldError } from '../../errors.ts';
import type { IncomingPassing } from './service.ts';

/**
 * Imports through a column mapping (issue 6: "result and passing files imported through a CSV
 * mapping"): the mapping names, for each field we need, the header of the file's column holding
 * it. Separators `,` or `;` are detected from the header line. Every bad row is reported with its
 * line and field; nothing is stored unless every row is valid.
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

function table(text: string): { header: string[]; rows: { fields: string[]; line: number }[] } {
  const firstLine = text.slice(0, text.indexOf('\n') >>> 0);
  const semicolons = (firstLine.match(/;/g) ?? []).length;
  const commas = (firstLine.match(/,/g) ?? []).length;
  const source = semicolons > commas ? text.replace(/;(?=(?:[^"]*"[^"]*")*[^"]*$)/gm, ',') : text;
  const [head, ...rows] = parseCsv(source).filter((r) => r.fields.some((f) => f.trim() !== ''));
  if (!head) throw errors.badRequest('CSV_EMPTY', 'The file has no header line');
  return { header: head.fields.map((h) => h.trim()), rows };
}

function columns<M extends Record<string, string | undefined>>(
  header: string[],
  mapping: M,
): Record<keyof M, number> {
  const out = {} as Record<keyof M, number>;
  const missing: FieldError[] = [];
  for (const [field, column] of Object.entries(mapping)) {
    if (column === undefined) continue;
    const k = header.indexOf(column);
    if (k < 0) missing.push({ field, message: `no column '${column}' in the header` });
    out[field as keyof M] = k;
  }
  if (missing.length)
    throw errors.badRequest('CSV_MAPPING_INVALID', 'The mapping names unknown columns', missing);
  return out;
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

export function passingsFromCsv(
  text: string,
  mapping: PassingMapping,
  defaultPoint: string | null,
  dayStartMs: number | null,
): IncomingPassing[] {
  if (!mapping.bib && !mapping.chip)
    throw errors.badRequest('CSV_MAPPING_INVALID', 'Map a bib or a chip column');
  const { header, rows } = table(text);
  const col = columns(header, mapping);
  const bad: FieldError[] = [];
  const out: IncomingPassing[] = [];
  for (const { fields, line } of rows) {
    const bib = value(fields, col.bib);
    const chip = value(fields, col.chip);
    const point = value(fields, col.point) || defaultPoint;
    const time = parseTime(value(fields, col.time), dayStartMs);
    if (!bib && !chip) bad.push({ field: `line ${line}`, message: 'no bib or chip' });
    else if (time === null)
      bad.push({ field: `line ${line}`, message: `bad time '${value(fields, col.time)}'` });
    else if (!point) bad.push({ field: `line ${line}`, message: 'no timing point' });
    else
      out.push({
        id: value(fields, col.id) || undefined,
        bib: bib || undefined,
        chip: chip || undefined,
        pointKey: point,
        timeMs: time,
      });
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

export function participantsFromCsv(text: string, mapping: ParticipantMapping): Participant[] {
  const { header, rows } = table(text);
  const col = columns(header, mapping);
  const bad: FieldError[] = [];
  const out: Participant[] = [];
  const bibs = new Set<string>();
  for (const { fields, line } of rows) {
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
    bibs.add(bib);
    const chip = value(fields, col.chip);
    out.push({
      bib,
      firstName: value(fields, col.firstName),
      lastName: value(fields, col.lastName),
      gender: gender!,
      status: 'registered',
      ...(age ? { age: Number(age) } : {}),
      ...(birthDate ? { birthDate } : {}),
      ...(nationality ? { nationality } : {}),
      ...(value(fields, col.club) ? { club: value(fields, col.club) } : {}),
      ...(chip ? { chips: [chip] } : {}),
      ...(value(fields, col.category) ? { category: value(fields, col.category) } : {}),
    });
  }
  if (bad.length)
    throw errors.badRequest('CSV_ROWS_INVALID', `${bad.length} invalid row(s)`, bad.slice(0, 200));
  if (out.length === 0) throw errors.badRequest('CSV_EMPTY', 'No rows');
  return out;
}
