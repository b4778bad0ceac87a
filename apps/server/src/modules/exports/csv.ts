import { neutralise, type TextTable } from './table-text.ts';

/** The UTF-8 byte order mark: Excel reads a CSV file as UTF-8 only with it. */
export const BOM = '\uFEFF';

/** One CSV field (RFC 4180): quoted when it holds the separator, a quote or a line break. */
function field(value: string, sep: string): string {
  const safe = neutralise(value);
  return safe.includes(sep) || /["\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV line, CRLF-terminated (RFC 4180). */
export function csvLine(cells: readonly string[], sep: ';' | ','): string {
  return `${cells.map((c) => field(c, sep)).join(sep)}\r\n`;
}

/**
 * A report as CSV chunks: the BOM and header line, then the rows in chunks of 2,000 lines, so a
 * 45,000-row list streams without one large string and lets other requests run in between.
 */
export async function* csvChunks(table: TextTable, sep: ';' | ','): AsyncGenerator<string> {
  yield BOM + csvLine(table.headers, sep);
  for (let k = 0; k < table.rows.length; k += 2000) {
    let chunk = '';
    for (const row of table.rows.slice(k, k + 2000)) chunk += csvLine(row, sep);
    yield chunk;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
