import { parse } from 'csv-parse/sync';
import { AppError, errors } from '../../errors.ts';
import { detectFormat } from '../../lib/tabular/read.ts';
import { readXlsx } from '../../lib/xlsx-reader.ts';

/** A file read into sheets of text cells (CSV: one sheet named `CSV`). */
export interface ReadFile {
  kind: 'csv' | 'xlsx';
  /** Sheet name → rows of cells, blank rows dropped, cells trimmed. */
  sheets: Record<string, string[][]>;
}

/** Most rows a document may hold (a school or company list; the 20 km's biggest team is ~1,500). */
export const MAX_ROWS = 20_000;

/**
 * Reads an uploaded CSV or XLSX (decided by the bytes, not the name). One maintained parser per
 * format (style.md): csv-parse with `,` `;` or tab separators and a BOM, exceljs for workbooks.
 * Unreadable files are a 400 `FILE_UNREADABLE`; more than {@link MAX_ROWS} rows a 422
 * `TOO_MANY_ROWS`; a workbook past the XLSX reader's size limit a 413 `XLSX_TOO_LARGE`.
 */
export async function readFile(bytes: Buffer): Promise<ReadFile> {
  // A ZIP of more than its 4-byte signature (a file of just those bytes is read as CSV).
  const file = detectFormat(bytes, 5) === 'xlsx' ? await readWorkbook(bytes) : readCsv(bytes);
  const names = Object.keys(file.sheets);
  if (!names.length) throw errors.badRequest('FILE_EMPTY', 'The file has no sheet with data');
  for (const name of names) {
    if ((file.sheets[name]?.length ?? 0) > MAX_ROWS + 1)
      throw new AppError(422, 'TOO_MANY_ROWS', `Sheet '${name}' has more than ${MAX_ROWS} rows (the limit)`);
  }
  return file;
}

function clean(rows: string[][]): string[][] {
  return rows.map((r) => r.map((c) => String(c ?? '').trim())).filter((r) => r.some((c) => c !== ''));
}

function readCsv(bytes: Buffer): ReadFile {
  const text = bytes.toString('utf8');
  if (text.includes('\u0000')) throw errors.badRequest('FILE_UNREADABLE', 'Not a CSV or XLSX file');
  try {
    const rows = parse(text, {
      bom: true,
      delimiter: [',', ';', '\t'],
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
    }) as string[][];
    const cleaned = clean(rows);
    return { kind: 'csv', sheets: cleaned.length ? { CSV: cleaned } : {} };
  } catch (error) {
    throw errors.badRequest('FILE_UNREADABLE', `The CSV could not be read: ${(error as Error).message}`);
  }
}

/** A workbook through the server's one XLSX reader and its limits (lib/xlsx-reader.ts, issue 25). */
async function readWorkbook(bytes: Buffer): Promise<ReadFile> {
  const sheets: Record<string, string[][]> = {};
  for (const sheet of await readXlsx(bytes, { maxRows: MAX_ROWS })) {
    const rows = [sheet.header, ...sheet.rows.map((r) => r.cells)].filter((r) => r.length);
    if (rows.length) sheets[sheet.name] = rows;
  }
  return { kind: 'xlsx', sheets };
}

/** Header (first row, blank headers named `Column N`) and data rows of a sheet, padded to the header. */
export function splitSheet(rows: string[][]): { headers: string[]; data: string[][] } {
  const [head = [], ...data] = rows;
  const width = Math.max(head.length, ...data.map((r) => r.length));
  const headers = Array.from({ length: width }, (_, k) => head[k] || `Column ${k + 1}`);
  return { headers, data: data.map((r) => Array.from({ length: width }, (_, k) => r[k] ?? '')) };
}
