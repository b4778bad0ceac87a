import type { DocumentRow, DocumentRowIssue } from '@tempora/contracts';
import type { TFunction } from 'i18next';

/** An issue as a sentence in the interface language, naming what a duplicate repeats. */
export function issueText(
  t: TFunction<'confirmation'>,
  issue: DocumentRowIssue,
  row: Pick<DocumentRow, 'duplicateOf'>,
): string {
  const d = row.duplicateOf;
  const values =
    d?.kind === 'row'
      ? { position: d.position }
      : d?.kind === 'participant'
        ? { name: d.name, bib: d.bib }
        : d?.kind === 'document'
          ? { title: d.documentTitle, position: d.position }
          : {};
  return t(`issues.${issue.code}`, values);
}
