import {
  type ColumnDef,
  isHiddenRunnerName,
  labelledCell,
  type ReportTable,
  shownRunnerName,
} from '@tempora/contracts';
import { formatDuration, formatGap, searchTableRows } from '@tempora/domain';

/** A report made text, as the report page shows it: what every export format writes. */
export interface TextTable {
  title: string;
  headers: string[];
  aligns: ('left' | 'center' | 'right')[];
  /** Whether a column is bold on screen (PDF keeps it). */
  bold: boolean[];
  rows: string[][];
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
 * was taken at (`1:30:11 · 30 km`, issue 27), as the report page shows it.
 */
export function rowText(columns: readonly ColumnDef[], row: readonly unknown[], lng: Lng = 'en'): string[] {
  return columns.map((c) => {
    const text = cellText(c, row[c.FieldIdx], lng);
    const at = c.Type === 'time' && text ? timeAt(c, row, lng) : '';
    return at ? `${text} · ${at}` : text;
  });
}

/**
 * `textTable` for large reports: the rows are made 2,000 at a time with a turn of the event loop
 * between, so formatting 45,000 rows never holds the server.
 */
export async function textTableAsync(
  table: Pick<ReportTable, 'title' | 'columns' | 'keyField'>,
  rows: readonly unknown[][],
  lng: Lng,
): Promise<TextTable> {
  const head = textTable(table, [], lng);
  const columns = exportedColumns(table.columns);
  for (let k = 0; k < rows.length; k += 2000) {
    for (const row of rows.slice(k, k + 2000)) head.rows.push(rowText(columns, row, lng));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return head;
}

/** Headers, alignments and text rows of a report in one language. */
export function textTable(
  table: Pick<ReportTable, 'title' | 'columns' | 'keyField'>,
  rows: readonly unknown[][],
  lng: Lng,
): TextTable {
  const columns = exportedColumns(table.columns);
  return {
    title: table.title[lng],
    headers: columns.map((c) => c.Title[lng]),
    aligns: columns.map((c) =>
      c.Alignment === 'Center' ? 'center' : c.Alignment === 'Right' ? 'right' : 'left',
    ),
    bold: columns.map((c) => c.Bold),
    rows: rows.map((row) => rowText(columns, row, lng)),
  };
}

/**
 * Formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell starting with `=`, `+`,
 * `-`, `@`, a tab or a carriage return as a formula. Such a cell is prefixed with a single quote,
 * which spreadsheets show as text. A negative number (`-1`) is data, not a formula, but a time
 * gap never starts with `-` here and a name may: every such cell is neutralised alike, as OWASP
 * advises, rather than guessing which are safe.
 */
export function neutralise(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}
