import { describe, expect, it } from 'vitest';
import { skewOf } from './raceday.ts';

describe('skewOf: the server clock minus the browser’s from one exchange', () => {
  it('places the server’s reading in the middle of the round trip', () => {
    // Sent at 1,000, answered at 1,400 (browser clock); the server read 11,200 → 10 s ahead.
    expect(skewOf(11_200, 1_000, 1_400)).toBe(10_000);
    // A slow answer does not make the server look behind (the old estimate said −2 s here).
    expect(skewOf(5_000, 4_000, 6_000)).toBe(0);
    // Whole milliseconds (an odd round trip would give a half: times built on it must be integers).
    expect(skewOf(1_000, 0, 1_001)).toBe(500);
    expect(Number.isInteger(skewOf(1_000, 0, 3))).toBe(true);
  });
});
