import type { ReportDefinitionView } from '@tempora/contracts';

/** The groups a race's reports are shown (and selected) in: made with the race, per category, added. */
export const reportGroupIds = ['standard', 'categories', 'added'] as const;
export type ReportGroupId = (typeof reportGroupIds)[number];

/** Which group a report belongs to (issue 29: 28 category reports are selected as one group). */
export function reportGroupOf(report: ReportDefinitionView): ReportGroupId {
  if (!report.standard) return 'added';
  return report.scope === 'category' ? 'categories' : 'standard';
}

/** The reports of each group, in the race's order; empty groups left out. */
export function groupReports(
  reports: readonly ReportDefinitionView[],
): { id: ReportGroupId; reports: ReportDefinitionView[] }[] {
  return reportGroupIds
    .map((id) => ({ id, reports: reports.filter((r) => reportGroupOf(r) === id) }))
    .filter((g) => g.reports.length > 0);
}
