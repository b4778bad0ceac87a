import type { ColumnDef } from '@tempora/contracts';

/** The field holding a row's rank: the first column whose first row reads 1 (ranked lists). */
export function rankFieldOf(
  columns: readonly Pick<ColumnDef, 'FieldIdx'>[],
  rows: readonly unknown[][],
): number {
  const first = rows[0];
  if (!first) return -1;
  return columns.find((c) => String(first[c.FieldIdx] ?? '').trim() === '1')?.FieldIdx ?? -1;
}
