import type { ColumnDef, ReportPatch, ReportTable } from '@tempora/contracts';
import { compareBibs } from '@tempora/domain';

/** The contract's row order: numeric row[orderField], ties by key (the bib, in numeric order). */
export function compareRows(keyField: number, orderField: number) {
  return (a: unknown[], b: unknown[]): number =>
    Number(a[orderField]) - Number(b[orderField]) || compareBibs(String(a[keyField]), String(b[keyField]));
}

/**
 * Applies a live row patch to a report table (issue 6). Returns the new table, or null when the
 * client must refetch: a reload request, or a version gap (the patch does not start from ours).
 * The input is never mutated (it is the TanStack Query cache's object).
 */
export function applyReportPatch(table: ReportTable, patch: ReportPatch): ReportTable | null {
  if ('reload' in patch) return null;
  if (patch.fromVersion !== table.version) return null;
  const { keyField, orderField } = table;
  const gone = new Set(patch.removes);
  const upserts = new Map<string, unknown[]>();
  for (const row of patch.upserts) upserts.set(String(row[keyField]), row);
  const kept = table.rows.filter((row) => {
    const key = String(row[keyField]);
    return !gone.has(key) && !upserts.has(key);
  });
  // The kept rows are sorted: insert the few upserts by binary search instead of a full sort.
  const compare = compareRows(keyField, orderField);
  const rows = kept;
  for (const row of [...upserts.values()].sort(compare)) {
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(rows[mid]!, row) <= 0) lo = mid + 1;
      else hi = mid;
    }
    rows.splice(lo, 0, row);
  }
  const delta = rows.length - table.rows.length;
  return { ...table, rows, total: Math.max(0, table.total + delta), version: patch.version };
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

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
