import type { Writable } from 'node:stream';
import { type CellKind, shownTimeMs, type TextTable } from './table-text.ts';

const DAY_MS = 86_400_000;
/**
 * Excel number formats of the typed cells (issue 41): a duration in hours past 24 (`[h]`), a gap
 * with its sign, a date as ISO. The value is a number (days), so Excel sums and sorts it.
 */
const FORMATS: Partial<Record<CellKind, string>> = {
  duration: '[h]:mm:ss',
  gap: '+[h]:mm:ss;-[h]:mm:ss;0:00',
  date: 'yyyy-mm-dd',
};

/** A cell's typed value: a number, a duration in days, a date; its text otherwise. */
export function typedCell(text: string, kind: CellKind): string | number | Date | null {
  if (text === '') return null;
  if (kind === 'integer' && /^-?\d+$/.test(text)) return Number(text);
  if (kind === 'duration' || kind === 'gap') {
    const ms = shownTimeMs(text);
    if (ms !== null) return ms / DAY_MS;
  }
  if (kind === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(text)) return new Date(`${text}T00:00:00Z`);
  return text;
}

/** A duration's format with the decimals its text shows (`[h]:mm:ss.0`). */
function formatOf(kind: CellKind, sample: string): string | undefined {
  const format = FORMATS[kind];
  const decimals = /[.,](\d{1,3})$/.exec(sample)?.[1]?.length ?? 0;
  if (!format || !decimals || kind === 'date') return format;
  return format.replace(/ss/g, `ss.${'0'.repeat(decimals)}`);
}

/** Excel's limit on a sheet name (31 characters, none of `[]:*?/\`). */
function sheetName(title: string): string {
  return title.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Results';
}

/**
 * Writes a report as an XLSX workbook to `out` with exceljs's streaming writer (rows are
 * committed as they go, never the whole sheet in memory): a bold frozen header row, cells typed
 * by their column's kind (issue 41: ranks and counts as numbers, times and gaps as durations with
 * a number format, dates as dates; the rest as text — never a formula, so never prefixed with an
 * apostrophe). Yields to the event loop every 25 rows (≈ 3 ms of work).
 */
export async function writeXlsx(table: TextTable, out: Writable): Promise<void> {
  // exceljs loads at the first workbook, not at start (it was ~6 % of a server's start).
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Tempora';
  const sheet = workbook.addWorksheet(sheetName(table.title), {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  const kinds = table.headers.map((_, c) => table.kinds?.[c] ?? 'text');
  sheet.columns = table.headers.map((header, c) => ({
    header,
    width: Math.min(
      40,
      Math.max(6, header.length + 2, ...table.rows.slice(0, 200).map((r) => (r[c] ?? '').length + 2)),
    ),
    style: {
      alignment: { horizontal: table.aligns[c] },
      ...(FORMATS[kinds[c]!]
        ? { numFmt: formatOf(kinds[c]!, table.rows.find((r) => r[c])?.[c] ?? '') as string }
        : {}),
    },
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for (let k = 0; k < table.rows.length; k++) {
    sheet.addRow(table.rows[k]!.map((text, c) => typedCell(text, kinds[c]!))).commit();
    if (k % 25 === 24) await new Promise((resolve) => setImmediate(resolve));
  }
  sheet.commit();
  await workbook.commit();
}
