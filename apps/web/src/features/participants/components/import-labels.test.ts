import { importFieldLabels, importIssueLabels } from '@tempora/contracts';
import { describe, expect, it } from 'vitest';
import en from '../../../locales/en/participants.json';
import fr from '../../../locales/fr/participants.json';

// The refused-rows file (server, contracts `import-labels.ts`) and the preview (this namespace)
// word each issue the same way: one text per issue, in both languages.
describe('import issue labels agree between the refused-rows file and the console', () => {
  it('has the same words for every issue and field, in English and French', () => {
    for (const [lng, words] of [
      ['en', en],
      ['fr', fr],
    ] as const) {
      const issues = words.issues as Record<string, string>;
      expect(Object.keys(issues).sort()).toEqual(Object.keys(importIssueLabels).sort());
      for (const [key, text] of Object.entries(importIssueLabels)) expect(issues[key], key).toBe(text[lng]);
      const fields = words.fields as Record<string, string>;
      for (const [key, text] of Object.entries(importFieldLabels)) expect(fields[key], key).toBe(text[lng]);
    }
  });
});
