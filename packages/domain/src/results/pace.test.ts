import { describe, expect, it } from 'vitest';
import { formatPace, paceMsPerKm, speedKmh } from './pace.ts';

describe('pace and speed', () => {
  it('computes and formats the pace of a marathon (Kirui 2017: 2:09:37)', () => {
    const pace = paceMsPerKm(7_777_000, 42_195);
    expect(formatPace(pace)).toBe('3:04');
    expect(speedKmh(7_777_000, 42_195)).toBeCloseTo(19.53, 2);
  });

  it('is blank or null where there is no distance or time', () => {
    expect(paceMsPerKm(1000, 0)).toBeNull();
    expect(speedKmh(0, 1000)).toBeNull();
    expect(formatPace(null)).toBe('');
    expect(formatPace(45_000)).toBe('0:45');
    expect(formatPace(3_723_000)).toBe('1:02:03');
  });
});
