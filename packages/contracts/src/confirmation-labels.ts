import type { DocumentStatus, IssueCode, RowField, SenderKind } from './confirmation.ts';
import { type Bilingual, labelTable } from './locales/index.ts';

/**
 * What the confirmation report's PDF and XLSX print (issue 17), in each language, never a raw code
 * such as `partlyConfirmed`: read from the `confirmation` namespace the console shows
 * (`locales/{en,fr}/confirmation.json`, issue 30: one label source). Duplicate issues are printed
 * without their link (the file gives the row; the console shows what it duplicates):
 * `reportFile.duplicates` holds those short forms, and `reportFile` the words only the files use.
 */
export type ReportLng = 'en' | 'fr';

export const documentStatusLabels: Record<DocumentStatus, Bilingual> = /* @__PURE__ */ labelTable(
  (l) => l.confirmation.status,
);

export const senderKindLabels: Record<SenderKind, Bilingual> = /* @__PURE__ */ labelTable(
  (l) => l.confirmation.senderKind,
);

export const rowFieldLabels: Record<RowField | 'row', Bilingual> = /* @__PURE__ */ labelTable(
  (l) => l.confirmation.fields,
);

export const issueLabels: Record<IssueCode, Bilingual> = /* @__PURE__ */ labelTable((l) => ({
  ...l.confirmation.issues,
  ...l.confirmation.reportFile.duplicates,
}));

/** The mail the sender's contact receives when the document is confirmed or rejected. */
export const confirmationMailWords = /* @__PURE__ */ labelTable((l) => l.confirmation.mail);

/** The report's own words: titles, sheet names, column headers. */
export const confirmationReportWords = /* @__PURE__ */ labelTable((l) => {
  const { home, counts, report, reportFile } = l.confirmation;
  return {
    document: home.document,
    event: home.event,
    sender: home.sender,
    status: home.status,
    received: reportFile.received,
    summary: reportFile.summary,
    byRace: report.byRace,
    byCategory: report.byCategory,
    categories: reportFile.categories,
    errors: report.errors,
    errorsSheet: reportFile.errorsSheet,
    noErrors: report.noErrors,
    race: report.race,
    category: report.category,
    confirmed: counts.confirmed,
    pending: counts.pending,
    rejected: counts.rejected,
    unitPrice: reportFile.unitPrice,
    fees: reportFile.fees,
    total: report.total,
    row: report.row,
    name: report.name,
    issues: report.issues,
  };
});
