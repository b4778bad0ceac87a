import { describe, expect, it } from 'vitest';
import {
  formatStructured,
  isValidStructured,
  parseStructured,
  structuredCheck,
  structuredFromNumber,
} from './structured-communication.ts';

describe('Belgian structured communication', () => {
  it('computes the mod-97 check of known examples', () => {
    // product.md's example: 1234567890 mod 97 = 2.
    expect(structuredCheck('1234567890')).toBe('02');
    expect(formatStructured(structuredFromNumber(1234567890))).toBe('+++123/4567/89002+++');
    // 0000000097 mod 97 = 0 → written 97, never 00.
    expect(structuredCheck('0000000097')).toBe('97');
    expect(structuredCheck('0000000000')).toBe('97');
    expect(structuredFromNumber(42)).toBe('000000004242');
    expect(structuredCheck('0900000001')).toBe(String(900000001 % 97).padStart(2, '0'));
  });

  it('accepts valid ones written in the usual ways', () => {
    for (const text of [
      '+++123/4567/89002+++',
      '***123/4567/89002***',
      '123/4567/89002',
      ' 123456789002 ',
      '123 4567 89002',
    ]) {
      expect(parseStructured(text)).toBe('123456789002');
    }
    expect(isValidStructured('000000009797')).toBe(true);
  });

  it('refuses wrong check digits, wrong lengths and letters', () => {
    for (const text of [
      '+++123/4567/89003+++',
      '123456789000',
      '12345678900',
      '1234567890022',
      '+++12a/4567/89002+++',
      '',
      '000000009700',
    ]) {
      expect(parseStructured(text)).toBeNull();
    }
    expect(() => structuredCheck('123')).toThrow(RangeError);
    expect(() => structuredFromNumber(1e10)).toThrow(RangeError);
  });

  it('round-trips every order number: generated ones always validate, one changed digit never does', () => {
    for (let n = 0; n < 5000; n += 7) {
      const digits = structuredFromNumber(n * 1_999_993);
      expect(isValidStructured(digits)).toBe(true);
      const k = n % 10;
      const changed = `${digits.slice(0, k)}${(Number(digits[k]) + 1) % 10}${digits.slice(k + 1)}`;
      expect(isValidStructured(changed)).toBe(false);
    }
  });
});
