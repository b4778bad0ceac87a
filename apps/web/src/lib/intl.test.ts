import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount } from './intl.ts';

describe('formatCount', () => {
  it('writes whole numbers as Intl.NumberFormat does, in English and French', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.constantFrom('en', 'fr', 'en-GB', 'fr-FR'),
        (n, lng) => {
          expect(formatCount(n, lng)).toBe(new Intl.NumberFormat(lng).format(n));
        },
      ),
    );
    expect(formatCount(26410, 'fr')).toBe('26\u202f410');
    expect(formatCount(26410, 'en')).toBe('26,410');
  });

  it('leaves fractions and other languages to Intl', () => {
    expect(formatCount(1234.5, 'en')).toBe('1,234.5');
    expect(formatCount(1234567, 'de')).toBe('1.234.567');
  });
});
