// Compatibility path for app/routes/results-pages.tsx (the earlier pages); new code imports components/.
export { ReportTable } from './components/report-table.tsx';
