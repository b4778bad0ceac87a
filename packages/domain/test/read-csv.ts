import { parse } from 'csv-parse/sync';
import type { CsvRows } from '../src/results/boston-import.ts';

/**
 * Reads a CSV text into the rows the domain's importers take, with csv-parse (the parser the
 * server uses, `apps/server/src/lib/csv.ts`): for the domain's tests and benches, which read
 * fixture files. The domain itself never parses text.
 */
export function readCsv(text: string): CsvRows {
  const lines: number[] = [];
  const records: string[][] = parse(text, {
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    on_record: (record: string[], context: { lines: number }) => {
      lines.push(context.lines);
      return record;
    },
  });
  const [header = [], ...rows] = records;
  return { header, rows, lines: lines.slice(1) };
}
