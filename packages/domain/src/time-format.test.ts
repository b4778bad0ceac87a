import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatClockOffset, MAX_CLOCK_OFFSET_MS, parseClockOffset } from './clock-offset.ts';
import { formatDuration } from './time-format.ts';
import { formatRange } from './time-range.ts';

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

describe('formatRange (issue 27: a prediction with its interval)', () => {
  it('shows h:mm from an hour on, rounded outwards, m:ss below, nothing when an end is missing', () => {
    expect(formatRange(12_660_000 + 20_000, 12_960_000 + 10_000)).toBe('3:31–3:37');
    expect(formatRange(12_660_000, 12_960_000)).toBe('3:31–3:36');
    expect(formatRange(2_700_500, 2_820_200)).toBe('45:00–47:01');
    expect(formatRange(3_000_000, 3_700_000)).toBe('0:50–1:02');
    expect(formatRange(null, 3_700_000)).toBe('');
    expect(formatRange(3_800_000, 3_700_000)).toBe('');
  });
});

describe('clock offsets as h:mm:ss (issue 29)', () => {
  it('formats signed offsets with milliseconds only when there are some', () => {
    expect(formatClockOffset(0)).toBe('+0:00:00');
    expect(formatClockOffset(-7_200_000)).toBe('-2:00:00');
    expect(formatClockOffset(1_250)).toBe('+0:00:01.250');
    expect(formatClockOffset(-(3_600_000 + 61_005))).toBe('-1:01:01.005');
    expect(formatClockOffset(86_400_000)).toBe('+24:00:00');
  });

  it('parses what an organiser types', () => {
    expect(parseClockOffset('-2:00:00')).toBe(-7_200_000);
    expect(parseClockOffset('+0:00:01.250')).toBe(1_250);
    expect(parseClockOffset('0:00:01,25')).toBe(1_250);
    expect(parseClockOffset('\u22121:30')).toBe(-5_400_000);
    expect(parseClockOffset(' +0:00:00 ')).toBe(0);
  });

  it('refuses what is not an offset', () => {
    for (const bad of [
      '',
      '-7200000',
      '2h',
      '1:60:00',
      '0:00:61',
      '+25:00:00',
      '1:2:3',
      '0:00:00.1234',
      '--1:00',
    ])
      expect(parseClockOffset(bad), bad).toBeNull();
  });

  it('reads back every offset it writes, to the millisecond', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_CLOCK_OFFSET_MS, max: MAX_CLOCK_OFFSET_MS }), (ms) => {
        expect(parseClockOffset(formatClockOffset(ms))).toBe(ms);
      }),
    );
  });
});
