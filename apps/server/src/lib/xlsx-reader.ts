import { Readable } from 'node:stream';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import zlib from 'node:zlib';
import type ExcelJS from 'exceljs';
import { AppError, errors } from '../errors.ts';

/**
 * The server's one XLSX reader (participants import, confirmation documents), with the limits
 * that keep a zip bomb out (issue 25: a 2.9 MB workbook expanding to 210,000 rows was read whole).
 * A workbook is a ZIP: before exceljs sees it, every entry is inflated once, counted and dropped,
 * stopping as soon as the total passes {@link XLSX_LIMITS}.uncompressedBytes (413); then its rows
 * are read as a stream, stopping at the row limit (422) and at as much cell text as the size limit.
 */

/** The limits of every uploaded workbook (README "Imports"). */
export const XLSX_LIMITS = {
  /** Uncompressed size of all its parts (a 45,000-runner start list of 12 columns: 24 to 32 MB). */
  uncompressedBytes: 64 * 1024 * 1024,
  /** Rows of all its sheets together, each sheet's first (header) row aside (twice the biggest race, 45,000 runners). */
  rows: 100_000,
  /** Parts in the ZIP (a workbook has a few per sheet). */
  entries: 2_000,
} as const;

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

const SLICE = 256 * 1024;
const ROWS_PER_TURN = 2_000;
const MB = 1024 * 1024;

const tooLarge = (limit: number) =>
  new AppError(
    413,
    'XLSX_TOO_LARGE',
    `The workbook expands to more than ${Math.round(limit / MB)} MB once uncompressed (the limit for a workbook)`,
  );
const tooManyRows = (limit: number) =>
  new AppError(
    422,
    'TOO_MANY_ROWS',
    `The workbook has more than ${limit.toLocaleString('en')} rows (the limit for a workbook)`,
  );
const unreadable = (why: string) =>
  errors.badRequest('FILE_UNREADABLE', `The XLSX file cannot be read: ${why}`);

/** Inflates a raw-deflate slice, counting and dropping the bytes; stops once past `budget`. */
function inflatedSize(data: Buffer, budget: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const inflater = zlib.createInflateRaw({ chunkSize: 64 * 1024 });
    let size = 0;
    inflater.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > budget) {
        inflater.destroy();
        resolve(size);
      }
    });
    inflater.on('end', () => resolve(size));
    inflater.on('error', (e) => reject(unreadable(e.message)));
    inflater.end(data);
  });
}

const LOCAL_HEADER = 0x04034b50;
const DESCRIPTOR = Buffer.from([0x50, 0x4b, 0x07, 0x08]);

/**
 * Walks the ZIP's entries as exceljs's parser (unzipper's `Parse`) does — local headers in order,
 * sizes from the header (ZIP64 extra included) or up to the data descriptor — and inflates each
 * with the same inflater, so what is counted is what exceljs would read. Throws 413 past a limit.
 */
export async function checkZipExpansion(
  bytes: Buffer,
  limits: { uncompressedBytes: number; entries: number } = XLSX_LIMITS,
): Promise<void> {
  let offset = 0;
  let total = 0;
  let entries = 0;
  while (offset + 30 <= bytes.length && bytes.readUInt32LE(offset) === LOCAL_HEADER) {
    if (++entries > limits.entries) throw tooLarge(limits.uncompressedBytes);
    const flags = bytes.readUInt16LE(offset + 6);
    const method = bytes.readUInt16LE(offset + 8);
    let compressed = bytes.readUInt32LE(offset + 18);
    const nameLength = bytes.readUInt16LE(offset + 26);
    const extraLength = bytes.readUInt16LE(offset + 28);
    const extraStart = offset + 30 + nameLength;
    const dataStart = extraStart + extraLength;
    if (compressed === 0xffffffff) {
      // ZIP64: the sizes are in the 0x0001 extra field (read as unzipper reads it).
      let k = extraStart;
      while (k + 4 <= dataStart && bytes.readUInt16LE(k) !== 0x0001) k += 4 + bytes.readUInt16LE(k + 2);
      if (k + 20 > dataStart) throw unreadable('a ZIP64 entry without its sizes');
      compressed = Number(bytes.readBigUInt64LE(k + 12));
    }
    const known = !(flags & 0x08) || compressed > 0;
    const end = known ? dataStart + compressed : bytes.indexOf(DESCRIPTOR, dataStart);
    if (end < 0 || end > bytes.length) throw unreadable('a truncated ZIP entry');
    const data = bytes.subarray(dataStart, end);
    total += method === 0 ? data.length : await inflatedSize(data, limits.uncompressedBytes - total);
    if (total > limits.uncompressedBytes) throw tooLarge(limits.uncompressedBytes);
    offset = known ? end : end + 16;
  }
}

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
    return '';
  }
  return String(value).trim();
}
const pad = (n: number) => String(n).padStart(2, '0');

function toSheet(name: string, rows: SheetRow[]): Sheet {
  const nonEmpty = rows.filter((r) => r.cells.some((c) => c !== ''));
  const [head, ...rest] = nonEmpty;
  return { name, header: head ? head.cells : [], rows: rest };
}

/**
 * Reads every sheet of an XLSX workbook (streamed, cells as trimmed text, blank rows dropped, the
 * first row the header). `maxRows` lowers the row limit (a caller's own rule); never raises it.
 * 413 `XLSX_TOO_LARGE` and 422 `TOO_MANY_ROWS` name the limit; 400 `FILE_UNREADABLE` otherwise.
 */
export async function readXlsx(bytes: Buffer, options: { maxRows?: number } = {}): Promise<Sheet[]> {
  const maxRows = Math.min(options.maxRows ?? XLSX_LIMITS.rows, XLSX_LIMITS.rows);
  await checkZipExpansion(bytes);
  const slices = (function* () {
    for (let k = 0; k < bytes.length; k += SLICE) yield bytes.subarray(k, k + SLICE);
  })();
  // exceljs loads at the first workbook, not at start (it was ~6 % of a server's start).
  const { default: Excel } = await import('exceljs');
  const reader = new Excel.stream.xlsx.WorkbookReader(Readable.from(slices), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const sheets: Sheet[] = [];
  let rowsRead = 0;
  let headers = 0;
  // Shared strings are stored once and may be referenced by every cell: the text read out is
  // limited too, to the workbook's size limit.
  let textLeft: number = XLSX_LIMITS.uncompressedBytes;
  try {
    for await (const worksheet of reader) {
      const rows: SheetRow[] = [];
      headers++;
      for await (const row of worksheet as unknown as AsyncIterable<ExcelJS.Row>) {
        if (++rowsRead > maxRows + headers) throw tooManyRows(maxRows);
        const values = row.values as unknown[];
        const cells: string[] = [];
        for (let c = 1; c < values.length; c++) {
          const text = cellText(values[c]);
          textLeft -= text.length;
          if (textLeft < 0) throw tooLarge(XLSX_LIMITS.uncompressedBytes);
          cells.push(text);
        }
        rows.push({ line: row.number, cells });
        if (rowsRead % ROWS_PER_TURN === 0) await yieldToLoop();
      }
      sheets.push(toSheet((worksheet as unknown as { name: string }).name, rows));
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unreadable((error as Error).message);
  } finally {
    // Stop exceljs reading on (a limit passed mid-workbook).
    (reader as unknown as { stream?: Readable }).stream?.destroy();
  }
  if (!sheets.length) throw errors.badRequest('FILE_UNREADABLE', 'The workbook has no sheet');
  return sheets;
}
