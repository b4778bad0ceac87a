import type { Readable } from 'node:stream';
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { type CsvError, parse } from 'csv-parse';
import { AppError } from '../errors.ts';

/**
 * The server's one CSV reader (style.md: "one parser per format, from a maintained library"):
 * csv-parse, fed in chunks of 16 Ki characters with a pause for the event loop between them, so a 45,000-row file
 * never blocks ingest or `/api/health` (issue 13: the former regular expression cost the square
 * of the file). Every import (participants, passings, result lists, ingest bodies) goes through
 * {@link parseCsv}; a module needing another table format adds an option here, not a parser.
 */

/** The delimiters {@link detectDelimiter} chooses among. */
export const CSV_DELIMITERS = [',', ';', '\t'] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];

export interface ParseCsvOptions {
  /** The field delimiter; detected from the header line when omitted. */
  delimiter?: CsvDelimiter;
  /** The first line is data, not a header (`header` is then empty). Default false. */
  noHeader?: boolean;
  /** Lines starting with this character are comments (e.g. `#` in ingest bodies). */
  comment?: string;
  /** Refuse the file (400 CSV_TOO_LARGE) past this many data rows. Default 1,000,000. */
  maxRows?: number;
  /** Refuse a record longer than this many characters (400 CSV_INVALID). Default 64 KiB. */
  maxRecordLength?: number;
  /** Characters handed to the parser before yielding to the event loop. Default 16 Ki. */
  chunkSize?: number;
}

/** A parsed file: the header's cells (trimmed) and the data rows, with the line each ends on. */
export interface CsvTable {
  header: string[];
  rows: string[][];
  /** `lines[i]`: the 1-based line of the file where `rows[i]` ends (for "line N" messages). */
  lines: number[];
  delimiter: CsvDelimiter;
}

/** 400 problems of a file that is not CSV we can read. */
export const csvErrors = {
  invalid: (detail: string, line?: number) =>
    new AppError(400, 'CSV_INVALID', line ? `Line ${line}: ${detail}` : detail),
  empty: () => new AppError(400, 'CSV_EMPTY', 'The file has no header line'),
  tooLarge: (max: number) => new AppError(400, 'CSV_TOO_LARGE', `At most ${max} rows per file`),
};

/**
 * Detects the delimiter of a header line: the candidate among `,` `;` and tab that occurs most
 * often outside double quotes (a tie goes to the earlier in {@link CSV_DELIMITERS}).
 */
export function detectDelimiter(headerLine: string): CsvDelimiter {
  const counts = new Map<string, number>(CSV_DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of headerLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best: CsvDelimiter = ',';
  for (const d of CSV_DELIMITERS) if ((counts.get(d) ?? 0) > (counts.get(best) ?? 0)) best = d;
  return best;
}

/**
 * The first non-blank line of `text` (outside quotes, without a BOM, at most 64 KiB of it), and
 * whether it is complete (a line break follows it).
 */
function firstLine(text: string): { line: string; complete: boolean } {
  const head = text.slice(text.charCodeAt(0) === 0xfeff ? 1 : 0, 65_536).replace(/^[\r\n]+/, '');
  let quoted = false;
  for (let k = 0; k < head.length; k++) {
    const ch = head[k];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) return { line: head.slice(0, k), complete: true };
  }
  return { line: head, complete: text.length >= 65_536 };
}

async function* chunksOf(input: string | Buffer | Readable, size: number): AsyncGenerator<string> {
  if (typeof input === 'string' || Buffer.isBuffer(input)) {
    const text = typeof input === 'string' ? input : input.toString('utf8');
    for (let k = 0; k < text.length; k += size) yield text.slice(k, k + size);
    return;
  }
  input.setEncoding('utf8');
  for await (const chunk of input) yield chunk as string;
}

/**
 * Parses CSV (RFC 4180 quotes, `""` escapes, CRLF or LF, UTF-8 BOM, blank lines skipped, rows
 * of uneven length kept as they are) from a string, a Buffer or a stream. Resolves
 * `{ header, rows, lines, delimiter }`; rejects with a 400 problem (`CSV_INVALID` with the line,
 * `CSV_EMPTY`, `CSV_TOO_LARGE`). Between chunks of `chunkSize` characters it yields to the event
 * loop, so other requests are answered during a large import.
 *
 * @example
 *   const { header, rows, lines } = await parseCsv(request.body as string);
 *   const bib = header.indexOf('Bib');
 */
export async function parseCsv(
  input: string | Buffer | Readable,
  options: ParseCsvOptions = {},
): Promise<CsvTable> {
  const maxRows = options.maxRows ?? 1_000_000;
  const chunkSize = options.chunkSize ?? 16_384;
  const records: string[][] = [];
  const lines: number[] = [];
  let delimiter = options.delimiter;
  let parser: ReturnType<typeof parse> | undefined;
  let failure: unknown;
  let done: Promise<void> | undefined;

  const start = (sample: string) => {
    delimiter ??= detectDelimiter(firstLine(sample).line);
    const created = parse({
      delimiter,
      bom: true,
      relax_column_count: true,
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      max_record_size: options.maxRecordLength ?? 65_536,
      ...(options.comment ? { comment: options.comment, comment_no_infix: true } : {}),
    });
    // Records are emitted as they are pushed (flowing mode), so the parser's line counter is the
    // line the record ended on; `info: true` would give the same at ten times the cost.
    created.on('data', (record: string[]) => {
      if (records.length > maxRows + 1) return; // header + one row too many: enough to refuse
      records.push(record);
      lines.push(created.info.lines);
    });
    done = new Promise<void>((resolve, reject) => {
      created.on('end', resolve);
      created.on('error', reject);
    }).catch((error: unknown) => {
      failure = error;
    });
    return created;
  };

  // The delimiter is detected on the whole header line: hold the first chunks until it is complete.
  let head = '';
  const headerComplete = () => firstLine(head).complete;
  const feed = async (chunk: string) => {
    parser ??= start(chunk);
    const current = parser;
    // A parse error ends the stream without a 'drain': wait for whichever comes first.
    if (!current.write(chunk) && !failure)
      await new Promise((resolve) => {
        current.once('drain', resolve);
        current.once('error', resolve);
        current.once('close', resolve);
      });
  };
  for await (const piece of chunksOf(input, chunkSize)) {
    let chunk = piece;
    if (!parser && !delimiter) {
      head += piece;
      if (!headerComplete()) continue;
      chunk = head;
    }
    await feed(chunk);
    if (failure) break;
    if (records.length > maxRows + 1) {
      parser?.destroy();
      throw csvErrors.tooLarge(maxRows);
    }
    await nextMacrotask();
  }
  if (!parser && head) await feed(head);
  if (!parser) throw csvErrors.empty();
  if (!failure) parser.end();
  await done;
  if (failure) {
    const error = failure as CsvError & { lines?: number };
    throw csvErrors.invalid(error.message, error.lines);
  }
  if (options.noHeader) {
    if (records.length > maxRows) throw csvErrors.tooLarge(maxRows);
    return { header: [], rows: records, lines, delimiter: delimiter as CsvDelimiter };
  }
  const [headerRow, ...rows] = records;
  if (!headerRow || headerRow.every((h) => h.trim() === '')) throw csvErrors.empty();
  if (rows.length > maxRows) throw csvErrors.tooLarge(maxRows);
  return {
    header: headerRow.map((h) => h.trim()),
    rows,
    lines: lines.slice(1),
    delimiter: delimiter as CsvDelimiter,
  };
}
