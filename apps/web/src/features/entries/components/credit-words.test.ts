import { describe, expect, it } from 'vitest';
import en from '../../../locales/en/entries.json';
import fr from '../../../locales/fr/entries.json';

/** Every text of a locale file with its dotted key. */
function texts(node: unknown, prefix = ''): [string, string][] {
  if (typeof node === 'string') return [[prefix, node]];
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => texts(v, prefix ? `${prefix}.${k}` : k));
}

/**
 * Issue 38: French calls a credit note "avoir"; the deferral credit (a place and an amount kept
 * for the next edition) must not share the word, or a runner reading "Avoir 000002" beside
 * "Avoir pour la prochaine édition" takes one for the other.
 */
describe('the deferral credit and the credit note are named apart', () => {
  it('French says "avoir" only for credit notes, "crédit de report" for the deferral credit', () => {
    for (const [key, text] of texts(fr)) {
      if (/\bavoirs?\b/i.test(text)) expect(key).toMatch(/creditNote/);
    }
    const frTexts = Object.fromEntries(texts(fr));
    for (const key of [
      'mine.credit',
      'mine.creditCode',
      'mine.creditUsed',
      'form.creditSummary',
      'actions.credit',
    ])
      expect(frTexts[key], key).toMatch(/crédit de report/i);
  });

  it('English says "deferral credit" where runners and organisers see the deferral', () => {
    const enTexts = Object.fromEntries(texts(en));
    for (const key of [
      'mine.credit',
      'mine.creditCode',
      'mine.creditUsed',
      'form.creditSummary',
      'actions.credit',
      'settings.nextEditionHelp',
    ])
      expect(enTexts[key], key).toMatch(/deferral credit/i);
    expect(enTexts['confirmation.creditNote']).toMatch(/^Credit note/);
  });
});
