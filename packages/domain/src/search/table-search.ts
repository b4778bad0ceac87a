import { foldText } from './athlete-search.ts';

/** What the search needs of a report column (contracts `ColumnDef`). */
export interface SearchedColumn {
  readonly FieldIdx: number;
  readonly Type: string;
}

const DIGITS = /^\d+$/;

/**
 * The one search of a report's rows (issue 27: the page, the report API's `q` and the exports
 * agree): an exact key (the bib) first; a number matches keys starting with it, as `matchScore`
 * matches bibs (ranks and times never match); text matches the text and html columns (every
 * field but the key when none is named), ignoring case and accents through `foldText`.
 */
export function searchTableRows<Row extends readonly unknown[]>(
  rows: readonly Row[],
  keyField: number,
  query: string,
  columns: readonly SearchedColumn[] = [],
): Row[] {
  const needle = foldText(query.trim()).replace(/\s+/g, ' ');
  if (!needle) return rows as Row[];
  const exact: Row[] = [];
  const others: Row[] = [];
  const numeric = DIGITS.test(needle);
  const fields = columns.filter((c) => c.Type === 'text' || c.Type === 'html').map((c) => c.FieldIdx);
  for (const row of rows) {
    const key = foldText(String(row[keyField] ?? ''));
    if (key === needle) exact.push(row);
    else if (numeric ? key.startsWith(needle) : matchesText(row, fields, keyField, needle)) others.push(row);
  }
  return [...exact, ...others];
}

function matchesText(row: readonly unknown[], fields: number[], keyField: number, needle: string): boolean {
  const scan = fields.length ? fields : row.map((_, i) => i).filter((i) => i !== keyField);
  return scan.some((i) => {
    const value = row[i];
    return typeof value === 'string' && !DIGITS.test(value) && foldText(value).includes(needle);
  });
}
