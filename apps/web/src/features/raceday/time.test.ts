import { describe, expect, it } from 'vitest';
import { formatDrift, parseTimeOfDay } from './time.ts';

describe('race-day times', () => {
  it('parses a typed time of day on the given day', () => {
    const day = new Date(2026, 4, 31, 8).getTime();
    expect(parseTimeOfDay('09:12:03.12', day)).toBe(new Date(2026, 4, 31, 9, 12, 3, 120).getTime());
    expect(parseTimeOfDay('9:05', day)).toBe(new Date(2026, 4, 31, 9, 5, 0, 0).getTime());
    expect(parseTimeOfDay('25:00', day)).toBeNull();
    expect(parseTimeOfDay('soon', day)).toBeNull();
  });
  it('reads a typed time in the event’s zone, whatever the browser’s', () => {
    const day = Date.UTC(2026, 4, 31, 6); // 08:00 in Brussels (summer time, UTC+2)
    expect(parseTimeOfDay('09:12:03.5', day, 'Europe/Brussels')).toBe(Date.UTC(2026, 4, 31, 7, 12, 3, 500));
    expect(parseTimeOfDay('09:12', day, 'UTC')).toBe(Date.UTC(2026, 4, 31, 9, 12));
    const winter = Date.UTC(2026, 0, 10, 12);
    expect(parseTimeOfDay('13:00', winter, 'Europe/Brussels')).toBe(Date.UTC(2026, 0, 10, 12));
  });
  it('formats drifts with their sign', () => {
    expect(formatDrift(-12)).toBe('−12 ms');
    expect(formatDrift(1234)).toBe('+1.234 s');
    expect(formatDrift(null)).toBe('—');
  });
});
