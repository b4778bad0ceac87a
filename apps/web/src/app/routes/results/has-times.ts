import type { ReportTable } from '@tempora/contracts';

/** The report's running-time column (the one naming its point), else its first time column. */
function timeField(table: ReportTable): number | null {
  const column =
    table.columns.find((c) => c.Type === 'time' && c.Settings.At !== undefined) ??
    table.columns.find((c) => c.Type === 'time' && c.Settings.Format !== 'gap');
  return column ? column.FieldIdx : null;
}

/** Whether any row has a time yet (stops at the first: a ranked list has its timed rows first). */
export function hasTimes(table: ReportTable): boolean {
  const field = timeField(table);
  if (field === null) return true;
  return table.rows.some((row) => {
    const value = Number(row[field]);
    return Number.isFinite(value) && value > 0;
  });
}
