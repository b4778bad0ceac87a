import { describe, expect, it } from 'vitest';
import { kmToMetres, metresToKm } from './race-fields.tsx';

describe('distances in the organiser’s units (issue 29)', () => {
  it('shows km with the language’s decimal separator and reads either back', () => {
    expect(metresToKm(21_098, 'fr')).toBe('21,098');
    expect(metresToKm(21_098, 'en')).toBe('21.098');
    expect(metresToKm(10_000, 'fr')).toBe('10');
    expect(metresToKm(100_500, 'fr')).toBe('100,5');
    for (const m of [0, 1, 999, 5_000, 21_098, 42_195, 100_500, 161_000])
      for (const lng of ['fr', 'en']) expect(kmToMetres(metresToKm(m, lng))).toBe(m);
  });
});
