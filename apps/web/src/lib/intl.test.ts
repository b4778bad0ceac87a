import { describe, expect, it } from 'vitest';
import { dateTimeFormat, numberFormat } from './intl.ts';

describe('kept Intl formatters', () => {
  it('gives the same formatter for the same language and options, another for others', () => {
    const a = dateTimeFormat('fr', { dateStyle: 'medium', timeZone: 'UTC' });
    expect(dateTimeFormat('fr', { dateStyle: 'medium', timeZone: 'UTC' })).toBe(a);
    expect(dateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' })).not.toBe(a);
    expect(a.format(new Date('2026-05-31T00:00:00Z'))).toBe('31 mai 2026');
    expect(numberFormat('fr', { maximumFractionDigits: 1 }).format(42.195)).toBe('42,2');
    expect(numberFormat('en', { maximumFractionDigits: 1 }).format(42.195)).toBe('42.2');
  });
});
