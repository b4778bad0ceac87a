import type { ColumnDef } from '@tempora/contracts';
import { foldText } from '@tempora/domain';

const fold = foldText;

/**
 * Client-side search (issue 6: by name or bib, an exact bib first). The row key is the bib. A
 * number looks for bibs starting with it (ranks and times never match); text looks in the text
 * and html columns shown, ignoring case and accents.
 */
export function searchRows(
  rows: unknown[][],
  keyField: number,
  query: string,
  columns: readonly Pick<ColumnDef, 'FieldIdx' | 'Type'>[] = [],
): unknown[][] {
  const needle = fold(query.trim());
  if (!needle) return rows;
  const exact: unknown[][] = [];
  const others: unknown[][] = [];
  const numeric = /^\d+$/.test(needle);
  const fields = columns.filter((c) => c.Type === 'text' || c.Type === 'html').map((c) => c.FieldIdx);
  for (const row of rows) {
    const key = fold(String(row[keyField] ?? ''));
    if (key === needle) exact.push(row);
    else if (numeric ? key.startsWith(needle) : matchesText(row, fields, keyField, needle)) others.push(row);
  }
  return exact.length || others.length ? [...exact, ...others] : [];
}

function matchesText(row: unknown[], fields: number[], keyField: number, needle: string): boolean {
  const scan = fields.length ? fields : row.map((_, i) => i).filter((i) => i !== keyField);
  return scan.some((i) => {
    const value = row[i];
    return typeof value === 'string' && !/^\d+$/.test(value) && fold(value).includes(needle);
  });
}
