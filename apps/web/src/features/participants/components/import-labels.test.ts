import { importIssueText, refusedFileHeaders } from '@tempora/contracts';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n.ts';

// Issue 30: the `participants` namespace lives in packages/contracts/src/locales, the one source the
// refused-rows file (server, contracts `import-labels.ts`) reads too; the console loads it from
// there like any of its lazy namespaces, and words an issue as the file does.
describe('the participants namespace, shared with the refused-rows file', () => {
  it('is loaded by the web from the shared locales and says what the file says', async () => {
    initI18n('fr');
    for (const lng of ['en', 'fr'] as const) {
      const t = i18next.getFixedT(lng, 'participants');
      const issue = { code: 'DUPLICATE_BIB', field: 'bib', value: '12', otherLine: 7 } as const;
      expect(t('issues.DUPLICATE_BIB_line', { value: '12', line: 7 })).toBe(importIssueText(issue, lng));
      expect(t('refusedFile.reason')).toBe(refusedFileHeaders.reason[lng]);
      expect(t('fields.birthDate')).not.toBe('fields.birthDate');
    }
  });
});
