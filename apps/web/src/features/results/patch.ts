import type { ColumnDef } from '@tempora/contracts';
import { searchTableRows } from '@tempora/domain';

/**
 * Client-side search (issue 6: by name or bib, an exact bib first): the domain's one table search
 * (issue 27), which the report API's `q` and the exports use too.
 */
export function searchRows(
  rows: unknown[][],
  keyField: number,
  query: string,
  columns: readonly Pick<ColumnDef, 'FieldIdx' | 'Type'>[] = [],
): unknown[][] {
  return searchTableRows(rows, keyField, query, columns);
}
