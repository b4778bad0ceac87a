// Compatibility path for app/routes/results-pages.tsx (the earlier pages); new code imports api/ and hooks/.

export type { ReportSource } from './api/get-report.ts';
export { useReportList } from './api/get-report-list.ts';
export { useLiveReport } from './hooks/use-live-report.ts';
