import { describe, expect, it } from 'vitest';
import { formatDistance, nameSaysDistance } from './pace.ts';

describe('nameSaysDistance (issue 43: no "10 km · 10 km")', () => {
  it('sees the distance said in the name, however it is written', () => {
    for (const name of ['10 km', '10K', '10 k', '10km', 'Run 10 K', 'Les 10 km de Bruxelles', '10,0 km']) {
      expect(nameSaysDistance(name, 10_000), name).toBe(true);
    }
    expect(nameSaysDistance('Marathon', 42_195)).toBe(true);
    expect(nameSaysDistance('Brussels Marathon', 42_195)).toBe(true);
    expect(nameSaysDistance('Half marathon', 21_097.5)).toBe(true);
    expect(nameSaysDistance('Half-Marathon', 21_100)).toBe(true);
    expect(nameSaysDistance('Semi-marathon', 21_097)).toBe(true);
    expect(nameSaysDistance('Semi-Marathon de Liège', 21_100)).toBe(true);
    expect(nameSaysDistance('5 mi', 8_047)).toBe(true);
    expect(nameSaysDistance('Five-mile fun run 5 miles', 8_047)).toBe(true);
    expect(nameSaysDistance('800 m', 800)).toBe(true);
  });

  it('matches the formatted distance in both languages and both units', () => {
    for (const d of [5_000, 10_000, 21_097.5, 42_195, 8_046.72]) {
      for (const lng of ['en', 'fr']) {
        for (const unit of ['km', 'mi'] as const) {
          const label = formatDistance(d, unit, lng);
          expect(nameSaysDistance(label, d), `${label} for ${d} m`).toBe(true);
        }
      }
    }
  });

  it('does not see a distance the name does not say, or says wrongly', () => {
    expect(nameSaysDistance('Kids run', 1_000)).toBe(false);
    expect(nameSaysDistance('Marathon', 10_000)).toBe(false);
    expect(nameSaysDistance('Half marathon', 42_195)).toBe(false);
    expect(nameSaysDistance('Marathon', 21_097.5)).toBe(false);
    expect(nameSaysDistance('Ultra marathon', 42_195)).toBe(false);
    expect(nameSaysDistance('10 km', 5_000)).toBe(false);
    expect(nameSaysDistance('10 km', 0)).toBe(false);
    expect(nameSaysDistance('Race 2026', 2_026)).toBe(false);
  });
});
