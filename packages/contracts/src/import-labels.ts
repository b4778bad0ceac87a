import { type Bilingual, interpolate, labelTable } from './locales/index.ts';
import type { ParticipantField, RowIssue } from './participants.ts';

/**
 * What a participant import's refused-rows file says (issue 29), in each language: read from the
 * `participants` namespace the import preview shows (`locales/{en,fr}/participants.json`,
 * `fields.*`, `issues.*` and `refusedFile.*`; issue 30: one label source).
 */
export type ImportLng = 'en' | 'fr';

/** The message key of an issue: a duplicate names its other line or the runner already registered. */
export function importIssueKey(issue: Pick<RowIssue, 'code' | 'otherLine' | 'otherName'>): string {
  if (issue.otherLine !== undefined) return `${issue.code}_line`;
  if (issue.otherName !== undefined) return `${issue.code}_owner`;
  return issue.code;
}

export const importFieldLabels: Record<ParticipantField, Bilingual> = /* @__PURE__ */ labelTable(
  (l) => l.participants.fields,
);

export const importIssueLabels: Record<string, Bilingual> = /* @__PURE__ */ labelTable(
  (l) => l.participants.issues,
);

/** Headers the refused-rows file adds after the file's own columns, and its title's suffix. */
export const refusedFileHeaders: Record<'line' | 'reason' | 'title', Bilingual> = /* @__PURE__ */ labelTable(
  (l) => l.participants.refusedFile,
);

/** One issue as a sentence in `lng`. */
export function importIssueText(issue: RowIssue, lng: ImportLng): string {
  const words = importIssueLabels[importIssueKey(issue)] ?? importIssueLabels[issue.code];
  return interpolate(words?.[lng] ?? issue.code, {
    field: issue.field ? importFieldLabels[issue.field][lng] : '',
    value: issue.value ?? '',
    line: issue.otherLine === undefined ? '' : String(issue.otherLine),
    name: issue.otherName ?? '',
  });
}
