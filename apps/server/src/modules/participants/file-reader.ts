import { Readable } from 'node:stream';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { errors } from '../../errors.ts';
import { parseCsv } from '../../lib/csv.ts';

/**
 * Reads an uploaded CSV or XLSX file into sheets of text cells (style.md: one parser per format,
 * from a maintained library: csv-parse and exceljs). Both parsers run as streams fed in slices,
 * with a turn of the event loop every few thousand rows, so that a 45,000-row file never holds
 * the server (product.md: `/api/health` within 100 ms meanwhile). CSV goes through the server's
 * one CSV reader (`lib/csv.ts`).
 */

/** One row of a sheet: its line in the file (1 = header) and its cells as trimmed text. */
export interface SheetRow {
  line: number;
  cells: string[];
}

export interface Sheet {
  name: string;
  header: string[];
  rows: SheetRow[];
}

export type FileFormat = 'csv' | 'xlsx';

const SLICE = 256 * 1024;
const ROWS_PER_TURN = 2_000;

/** The format of a file from its first bytes (an XLSX is a ZIP: `PK\x03\x04`). */
export function detectFormat(bytes: Buffer): FileFormat {
  return bytes.length >= 4 && bytes.readUInt32BE(0) === 0x504b0304 ? 'xlsx' : 'csv';
}

/** Decodes text as UTF-8, or as Windows-1252 when it is not valid UTF-8 (Excel's "CSV" export). */
export function decodeText(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** Reads a CSV as one sheet named after the file (the server's one CSV reader, `lib/csv.ts`). */
export async function readCsv(bytes: Buffer, name = 'CSV'): Promise<Sheet> {
  const table = await parseCsv(decodeText(bytes), { maxRows: 200_000 });
  return {
    name,
    header: table.header.map((h) => h.trim()),
    rows: table.rows
      .map((cells, k) => ({ line: table.lines[k] ?? k + 2, cells: cells.map((c) => c.trim()) }))
      .filter((r) => r.cells.some((c) => c !== '')),
  };
}

function toSheet(name: string, rows: SheetRow[]): Sheet {
  const nonEmpty = rows.filter((r) => r.cells.some((c) => c !== ''));
  const [head, ...rest] = nonEmpty;
  return { name, header: head ? head.cells : [], rows: rest };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A cell of exceljs as text: dates as `YYYY-MM-DD` (exceljs reads them as UTC), rich text joined. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return '';
    return `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
  }
  if (typeof value === 'object') {
    const v = value as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: string };
    if (v.richText)
      return v.richText
        .map((r) => r.text)
        .join('')
        .trim();
    if (v.text !== undefined) return cellText(v.text);
    if ('result' in v) return cellText(v.result);
    if (v.error) return '';
    return '';
  }
  return String(value).trim();
}

/** Reads every sheet of an XLSX workbook (streamed, cells as text). */
export async function readXlsx(bytes: Buffer): Promise<Sheet[]> {
  const slices = (function* () {
    for (let k = 0; k < bytes.length; k += SLICE) yield bytes.subarray(k, k + SLICE);
  })();
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(slices), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const sheets: Sheet[] = [];
  try {
    for await (const worksheet of reader) {
      const rows: SheetRow[] = [];
      let n = 0;
      for await (const row of worksheet as unknown as AsyncIterable<ExcelJS.Row>) {
        const values = row.values as unknown[];
        const cells: string[] = [];
        for (let c = 1; c < values.length; c++) cells.push(cellText(values[c]));
        rows.push({ line: row.number, cells });
        if (++n % ROWS_PER_TURN === 0) await yieldToLoop();
      }
      sheets.push(toSheet((worksheet as unknown as { name: string }).name, rows));
    }
  } catch (error) {
    throw errors.badRequest('FILE_UNREADABLE', `The XLSX file cannot be read: ${(error as Error).message}`);
  }
  if (!sheets.length) throw errors.badRequest('FILE_UNREADABLE', 'The workbook has no sheet');
  return sheets;
}

/** Reads a file of either format into its sheets. */
export async function readSheets(
  bytes: Buffer,
  fileName: string,
): Promise<{ format: FileFormat; sheets: Sheet[] }> {
  const format = detectFormat(bytes);
  if (format === 'xlsx') return { format, sheets: await readXlsx(bytes) };
  return { format, sheets: [await readCsv(bytes, fileName.replace(/\.[^.]*$/, '') || 'CSV')] };
}
