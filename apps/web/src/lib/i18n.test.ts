import { describe, expect, it, vi } from 'vitest';
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

describe('counts in translations', () => {
  it('writes {{count, number}} as Intl does, without making an Intl formatter for a whole number', async () => {
    const { initI18n, loadLanguage } = await import('./i18n.ts');
    await loadLanguage('fr');
    const i18n = initI18n('fr');
    const spy = vi.spyOn(Intl, 'NumberFormat');
    const text = i18n.t('rowCount', { ns: 'results', count: 26410, lng: 'fr' });
    expect(text).toContain('26\u202f410');
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
    expect(i18n.t('rowCount', { ns: 'results', count: 26410.5, lng: 'en' })).toContain('26,410.5');
  });
});
