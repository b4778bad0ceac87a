import { describe, expect, it } from 'vitest';
import { datePattern, maskTyped, parseTyped, toTyped } from './date-input.tsx';

/** Dates typed in the page's language (issue 38): day first, checked, the native values kept. */
describe('date input', () => {
  it('shows the language’s pattern', () => {
    expect(datePattern('fr')).toBe('jj/mm/aaaa');
    expect(datePattern('en')).toBe('dd/mm/yyyy');
    expect(datePattern('fr', true)).toBe('jj/mm/aaaa hh:mm');
  });
  it('puts the separators in as digits are typed', () => {
    expect(maskTyped('0')).toBe('0');
    expect(maskTyped('0105')).toBe('01/05');
    expect(maskTyped('01/')).toBe('01/');
    expect(maskTyped('01052027')).toBe('01/05/2027');
    expect(maskTyped('010520279')).toBe('01/05/2027');
    expect(maskTyped('010520270930', true)).toBe('01/05/2027 09:30');
  });
  it('reads a whole, real date (and time) only', () => {
    expect(parseTyped('01/05/2027')).toBe('2027-05-01');
    expect(parseTyped('1/5/1990')).toBe('1990-05-01');
    expect(parseTyped('')).toBe('');
    expect(parseTyped('01/05')).toBeNull();
    expect(parseTyped('31/02/2027')).toBeNull();
    expect(parseTyped('12/31/2027')).toBeNull();
    expect(parseTyped('01/05/2027 09:30', true)).toBe('2027-05-01T09:30');
    expect(parseTyped('01/05/2027 24:00', true)).toBeNull();
  });
  it('shows a value as typed', () => {
    expect(toTyped('1990-05-01')).toBe('01/05/1990');
    expect(toTyped('2027-03-01T09:00', true)).toBe('01/03/2027 09:00');
    expect(toTyped(null)).toBe('');
  });
});
