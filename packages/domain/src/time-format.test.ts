import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration } from './time-format.ts';

describe('formatDuration (spec §5 time cells)', () => {
  it('is blank for zero and missing values', () => {
    expect(formatDuration(0)).toBe('');
    expect(formatDuration(null)).toBe('');
    expect(formatDuration(undefined)).toBe('');
  });
  it('shows seconds under a minute, m:ss under an hour, h:mm:ss above', () => {
    expect(formatDuration(9_000)).toBe('9');
    expect(formatDuration(59_999)).toBe('59');
    expect(formatDuration(60_000)).toBe('1:00');
    expect(formatDuration(754_000)).toBe('12:34');
    expect(formatDuration(3_600_000)).toBe('1:00:00');
    expect(formatDuration(2 * 3_600_000 + 9 * 60_000 + 37_000)).toBe('2:09:37');
  });
  it('adds truncated decimals when a column asks for them', () => {
    expect(formatDuration(12_345, 1)).toBe('12.3');
    expect(formatDuration(12_345, 3)).toBe('12.345');
    expect(formatDuration(3_723_999, 2)).toBe('1:02:03.99');
  });
  it('round-trips to the same whole seconds for any duration', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 100 * 3_600_000 }), (ms) => {
        const parts = formatDuration(ms).split(':').map(Number);
        const seconds = parts.reduce((acc, p) => acc * 60 + p, 0);
        expect(seconds).toBe(Math.floor(ms / 1000));
      }),
    );
  });
});
