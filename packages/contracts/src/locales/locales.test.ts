import { describe, expect, it } from 'vitest';
import { confirmationReportWords, documentStatusLabels, issueLabels } from '../confirmation-labels.ts';
import { importIssueText } from '../import-labels.ts';
import { flatLabels, interpolate, labelLanguages, sharedLocales, sideBySide } from './index.ts';

/** Vite's glob import, which vitest resolves (the contracts compile without Vite's typings). */
declare global {
  interface ImportMeta {
    glob(pattern: string): Record<string, () => Promise<unknown>>;
  }
}

describe('the shared label source (issue 30)', () => {
  it('has the same keys in every language, and every reference names a text', () => {
    for (const ns of Object.keys(sharedLocales.en)) {
      const en = flatLabels(ns, 'en')!;
      for (const lng of labelLanguages) {
        const labels = flatLabels(ns, lng)!;
        expect(Object.keys(labels).sort(), `${ns}/${lng}`).toEqual(Object.keys(en).sort());
        for (const [key, text] of Object.entries(labels))
          expect(text, `${ns}/${lng} ${key}`).not.toMatch(/\$t\(/);
      }
    }
    expect(Object.keys(sharedLocales.en)).toEqual(expect.arrayContaining(['mails', 'receipts']));
    expect(flatLabels('nothing', 'en')).toBeNull();
    expect(flatLabels('participants', 'de')).toBeNull();
    expect(flatLabels('constructor', 'en')).toBeNull();
  });

  it('registers every file of every language, the same files in each', () => {
    const files = Object.keys(import.meta.glob('./*/*.json')).sort();
    const registered = labelLanguages.flatMap((lng) =>
      Object.keys(sharedLocales[lng]).map((ns) => `./${lng}/${ns}.json`),
    );
    expect(files).toEqual(registered.sort());
  });

  it('has the same placeholders in every language (a singular may say its count in words)', () => {
    const placeholders = (key: string, text: string) =>
      [...text.matchAll(/\{\{(\w+)\}\}/g)]
        .map((m) => m[1])
        .filter((name) => !(name === 'count' && key.endsWith('_one')))
        .sort();
    for (const ns of Object.keys(sharedLocales.en)) {
      const en = flatLabels(ns, 'en')!;
      for (const lng of labelLanguages) {
        for (const [key, text] of Object.entries(flatLabels(ns, lng)!))
          expect(placeholders(key, text), `${ns}/${lng} ${key}`).toEqual(placeholders(key, en[key]!));
      }
    }
  });

  it('gives the documents the words the console shows', () => {
    expect(documentStatusLabels.partlyConfirmed).toEqual({
      en: 'Partly confirmed',
      fr: 'Partiellement confirmé',
    });
    expect(confirmationReportWords.summary.fr).toBe('Synthèse');
    expect(confirmationReportWords.event.en).toBe(sharedLocales.en.confirmation.home.event);
    // The files print a duplicate without its link: no placeholder left.
    for (const words of Object.values(issueLabels)) expect(words.en + words.fr).not.toContain('{{');
    expect(importIssueText({ code: 'MISSING_FIELD', field: 'birthDate' }, 'fr')).toBe(
      'Date de naissance manquant',
    );
  });
});

describe('sideBySide', () => {
  it('prints both languages, once when they are the same', () => {
    expect(sideBySide({ en: 'Receipt', fr: 'Reçu' })).toBe('Receipt / Reçu');
    expect(sideBySide({ en: 'Total', fr: 'Total' })).toBe('Total');
  });
});

describe('interpolate', () => {
  it('fills placeholders, zero included, and empties unknown ones', () => {
    expect(interpolate('{{n}} rows, {{x}}{{y}}', { n: 0, y: undefined })).toBe('0 rows, ');
    expect(interpolate('{{constructor}}', {})).toBe('');
  });
});
