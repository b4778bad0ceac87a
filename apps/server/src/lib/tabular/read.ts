import { type CsvTable, parseCsv } from '../csv.ts';
import { readXlsx, type Sheet, type SheetRow } from '../xlsx-reader.ts';

/**
 * The tabular pipeline's first step (issue 30: one read → map → validate for every import):
 * reads an uploaded CSV or XLSX file into sheets of text cells (style.md: one parser per format,
 * from a maintained library: csv-parse and exceljs). Both parsers run as streams fed in slices,
 * with a turn of the event loop every few thousand rows, so that a 45,000-row file never holds
 * the server (product.md: `/api/health` within 100 ms meanwhile). CSV goes through the server's
 * one CSV reader (`lib/csv.ts`), XLSX through its one XLSX reader and its limits
 * (`lib/xlsx-reader.ts`: zip bombs, issue 25).
 */

export type { Sheet, SheetRow } from '../xlsx-reader.ts';

export type FileFormat = 'csv' | 'xlsx';

/**
 * The format of a file from its first bytes (an XLSX is a ZIP: `PK\x03\x04`), never its name.
 * `minLength` is how many bytes a ZIP must at least have (4: the signature alone).
 */
export function detectFormat(bytes: Buffer, minLength = 4): FileFormat {
  return bytes.length >= minLength && bytes.readUInt32BE(0) === 0x504b0304 ? 'xlsx' : 'csv';
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
    rows: numberedRows(table)
      .map(({ line, cells }) => ({ line, cells: cells.map((c) => c.trim()) }))
      .filter((r) => r.cells.some((c) => c !== '')),
  };
}

/**
 * A parsed CSV's data rows as sheet rows: each with the line of the file it ends on (for "line N"
 * field issues), cells as they were read (untrimmed).
 */
export function numberedRows(table: CsvTable): SheetRow[] {
  return table.rows.map((cells, k) => ({ line: table.lines[k] ?? k + 2, cells }));
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
