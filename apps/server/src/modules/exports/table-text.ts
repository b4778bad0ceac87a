import {
  type ColumnDef,
  isHiddenRunnerName,
  labelledCell,
  type ReportTable,
  shownRunnerName,
} from '@tempora/contracts';
import { interpolate, sharedLocales } from '@tempora/contracts/locales';
import { formatDuration, formatGap, searchTableRows } from '@tempora/domain';

/**
 * What a column holds, for the data exports (issue 41: "exports are data"): XLSX writes an
 * `integer` as a number, a `duration` or a `gap` as a duration (a fraction of a day with a time
 * format: Excel sums and sorts it), a `date` (ISO text) as a date; `text` as text.
 */
export type CellKind = 'text' | 'integer' | 'duration' | 'gap' | 'date';

/** A report made text, as the report page shows it: what every export format writes. */
export interface TextTable {
  title: string;
  headers: string[];
  aligns: ('left' | 'center' | 'right')[];
  /** Whether a column is bold on screen (PDF keeps it). */
  bold: boolean[];
  /** Per column, what it holds (absent: all text). */
  kinds?: CellKind[];
  rows: string[][];
}

/**
 * A time as `formatDuration`/`formatGap` write it (`1:02:03`, `45:12`, `21`, `+0:50`, `−1:02,5`)
 * back in milliseconds, or null for anything else.
 */
export function shownTimeMs(text: string): number | null {
  const m = /^([+\-\u2212]?)(\d+(?::\d{1,2}){0,2})(?:[.,](\d{1,3}))?$/.exec(text.trim());
  if (!m) return null;
  const seconds = m[2]!.split(':').reduce((total, part) => total * 60 + Number(part), 0);
  const ms = seconds * 1000 + (m[3] ? Number(m[3].padEnd(3, '0')) : 0);
  return m[1] && m[1] !== '+' ? -ms : ms;
}

type Lng = 'en' | 'fr';

/** Columns that carry something to export: the favourite star and spacers do not. */
export function exportedColumns(columns: readonly ColumnDef[]): ColumnDef[] {
  return columns.filter((c) => c.Type !== 'favorite' && c.Type !== 'spacer' && c.Type !== 'image');
}

/** An html cell's text (tags dropped, the few entities decoded): exports hold no markup. */
function htmlText(value: string): string {
  return value
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

/**
 * A cell as on screen (apps/web report-cell.tsx): time cells through the domain's `formatDuration`
 * (spec §5: blank when zero; decimals from the column's Settings), html as text, status codes as
 * their label in `lng` (`Settings.Labels`), the hidden runner's name in `lng`, the rest as is.
 */
export function cellText(column: ColumnDef, value: unknown, lng: Lng = 'en'): string {
  if (value === null || value === undefined) return '';
  if (column.Settings.Labels) return String(labelledCell(column, value, lng));
  if (column.Type === 'time') {
    if (value === '') return '';
    const ms = typeof value === 'number' ? value : Number(value);
    if (!Number.isFinite(ms)) return String(value);
    const decimals = column.Settings.Decimals ?? 0;
    return column.Settings.Format === 'gap' ? formatGap(ms, lng, decimals) : formatDuration(ms, decimals);
  }
  if (column.Type === 'html') return htmlText(String(value));
  // The hidden runner's name (issue 40) in the export's language.
  if (isHiddenRunnerName(value)) return shownRunnerName(String(value), lng);
  return String(value);
}

/** The report page's search, the domain's one (issue 27): an export holds exactly the rows on screen. */
export { searchTableRows };

/** The rows of a report after the page's search. */
export function selectRows(table: Pick<ReportTable, 'rows' | 'keyField' | 'columns'>, q?: string) {
  return q?.trim() ? searchTableRows(table.rows, table.keyField, q, table.columns) : table.rows;
}

/** Where a time column's running time was taken (`Settings.At`), in `lng`; '' once finished. */
function timeAt(column: ColumnDef, row: readonly unknown[], lng: Lng): string {
  const at = column.Settings.At === undefined ? '' : row[column.Settings.At];
  if (typeof at !== 'string' || !at) return '';
  return String(labelledCell({ Settings: { Labels: 'points', Names: column.Settings.Names } }, at, lng));
}

/**
 * One row as text in a language, in the exported columns' order; a running time with the point it
 * was taken at (`1:30:11 · 30 km`, issue 27), as the report page shows it — or, for the data
 * exports (`pointColumns`, issue 41: a time column holds a time), the point in a column of its own
 * right after the time's.
 */
export function rowText(
  columns: readonly ColumnDef[],
  row: readonly unknown[],
  lng: Lng = 'en',
  pointColumns = false,
): string[] {
  return columns.flatMap((c) => {
    const text = cellText(c, row[c.FieldIdx], lng);
    if (pointColumns && hasPoint(c)) return [text, text ? timeAt(c, row, lng) : ''];
    const at = c.Type === 'time' && text ? timeAt(c, row, lng) : '';
    return [at ? `${text} · ${at}` : text];
  });
}

/** A time column that names where its running time was taken. */
const hasPoint = (c: ColumnDef) => c.Type === 'time' && c.Settings.At !== undefined;

/** What a column holds: times by their format; a column of whole numbers only (ranks, counts). */
function kindOf(column: ColumnDef, rows: readonly (readonly unknown[])[]): CellKind {
  if (column.Type === 'time') return column.Settings.Format === 'gap' ? 'gap' : 'duration';
  if (column.Type !== 'text' || column.Settings.Labels === 'points') return 'text';
  // The rank column holds the rank as digits, or a status code where there is none (`notStarted`,
  // written as its label: stays text). Elsewhere digits in a string are an identifier (a bib).
  const labels = column.Settings.Labels === 'status';
  let seen = false;
  for (const row of rows) {
    const v = row[column.FieldIdx];
    if (v === null || v === undefined || v === '') continue;
    if (labels && typeof v === 'string') {
      seen ||= /^\d+$/.test(v);
      continue;
    }
    if (typeof v !== 'number' || !Number.isInteger(v)) return 'text';
    seen = true;
  }
  return seen ? 'integer' : 'text';
}

/**
 * `textTable` for large reports: the rows are made 2,000 at a time with a turn of the event loop
 * between, so formatting 45,000 rows never holds the server.
 */
export async function textTableAsync(
  table: Pick<ReportTable, 'title' | 'columns' | 'keyField'>,
  rows: readonly unknown[][],
  lng: Lng,
  pointColumns = false,
): Promise<TextTable> {
  const head = textTable(table, [], lng, pointColumns);
  const columns = exportedColumns(table.columns);
  head.kinds = columns.flatMap((c) =>
    pointColumns && hasPoint(c) ? [kindOf(c, rows), 'text'] : [kindOf(c, rows)],
  );
  for (let k = 0; k < rows.length; k += 2000) {
    for (const row of rows.slice(k, k + 2000)) head.rows.push(rowText(columns, row, lng, pointColumns));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return head;
}

/** Headers, alignments and text rows of a report in one language. */
export function textTable(
  table: Pick<ReportTable, 'title' | 'columns' | 'keyField'>,
  rows: readonly unknown[][],
  lng: Lng,
  pointColumns = false,
): TextTable {
  const columns = exportedColumns(table.columns);
  /** Each exported column, and the point's column after a running time's (data exports). */
  const each = <T>(of: (c: ColumnDef) => T, point: (c: ColumnDef) => T) =>
    columns.flatMap((c) => (pointColumns && hasPoint(c) ? [of(c), point(c)] : [of(c)]));
  const align = (c: ColumnDef) =>
    c.Alignment === 'Center' ? 'center' : c.Alignment === 'Right' ? 'right' : ('left' as const);
  return {
    title: table.title[lng],
    headers: each(
      (c) => c.Title[lng],
      (c) => interpolate(sharedLocales[lng].printing.takenAt, { column: c.Title[lng] }),
    ),
    aligns: each(align, () => 'left' as const),
    bold: each(
      (c) => c.Bold,
      () => false,
    ),
    kinds: each(
      (c) => kindOf(c, rows),
      () => 'text' as const,
    ),
    rows: rows.map((row) => rowText(columns, row, lng, pointColumns)),
  };
}

/**
 * Formula injection (OWASP "CSV Injection"), for CSV only: a spreadsheet runs a cell starting with
 * `=`, `+`, `-`, `@`, a tab or a carriage return as a formula. Such a cell is prefixed with a
 * single quote, which spreadsheets show as text — unless it is a plain number or time (`-1`,
 * `+0:50`, `−1:02`): a spreadsheet reads those as values, nothing runs (issue 41: gaps came out as
 * `'+0:50`). An XLSX cell is text or number by its type and never a formula: not neutralised.
 */
export function neutralise(cell: string): string {
  if (!/^[=+\-@\t\r]/.test(cell)) return cell;
  return /^[+-]\d+(?:[:.,]\d+)*$/.test(cell) ? cell : `'${cell}`;
}
