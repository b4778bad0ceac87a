import { describe, expect, it } from 'vitest';
import { initialLanguage, urlParam } from './i18n.ts';

const loc = (search: string, hash = '') => ({ search, hash });
const storage = (value: string | null) => ({ getItem: () => value });

describe('language precedence (spec §4, §9)', () => {
  it('takes the URL parameter first, from the search or the hash query, any case', () => {
    expect(initialLanguage(loc('?lng=EN'), storage('fr'), ['fr'])).toBe('en');
    expect(initialLanguage(loc('', '#/results/x?lng=en'), storage('fr'), ['fr'])).toBe('en');
  });
  it('then the stored value, then the browser language, else fr', () => {
    expect(initialLanguage(loc(''), storage('en'), ['fr-BE'])).toBe('en');
    expect(initialLanguage(loc(''), storage(null), ['en-GB', 'fr'])).toBe('en');
    expect(initialLanguage(loc('?lng=de'), storage('xx'), ['de-DE'])).toBe('fr');
  });
  it('reads URL parameters from the hash when the search has none', () => {
    expect(urlParam('env', loc('', '#/?env=cis'))).toBe('cis');
    expect(urlParam('env', loc('?env=dev', '#/?env=cis'))).toBe('dev');
  });
});
