import { describe, expect, it } from 'vitest';
import { isTimeZone, zonedParts, zonedTimeToUtc } from './time-zone.ts';

describe('time zones', () => {
  it('knows IANA zones', () => {
    expect(isTimeZone('Europe/Brussels')).toBe(true);
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });

  it('reads a wall-clock time in a zone, summer and winter', () => {
    expect(zonedTimeToUtc('2026-05-31', '09:30', 'Europe/Brussels')).toBe(Date.UTC(2026, 4, 31, 7, 30));
    expect(zonedTimeToUtc('2026-12-06', '09:30:15.5', 'Europe/Brussels')).toBe(
      Date.UTC(2026, 11, 6, 8, 30, 15, 500),
    );
    // Boston 2017: wave 1 at 10:00 EDT.
    expect(zonedTimeToUtc('2017-04-17', '10:00', 'America/New_York')).toBe(Date.UTC(2017, 3, 17, 14));
    expect(zonedTimeToUtc('2026-05-31', '24:00', 'Europe/Brussels')).toBeNull();
    expect(zonedTimeToUtc('31/05/2026', '09:00', 'Europe/Brussels')).toBeNull();
  });

  it('shows an instant in a zone, and round-trips', () => {
    expect(zonedParts(Date.UTC(2026, 4, 31, 7, 30), 'Europe/Brussels')).toEqual({
      date: '2026-05-31',
      time: '09:30:00',
    });
    expect(zonedParts(Date.UTC(2026, 4, 31, 23, 30), 'Europe/Brussels').date).toBe('2026-06-01');
    for (const ms of [
      Date.UTC(2026, 2, 29, 0, 59, 59),
      Date.UTC(2026, 9, 25, 2, 0, 0),
      Date.UTC(2026, 6, 1, 12, 0, 0, 250),
    ]) {
      const { date, time } = zonedParts(ms, 'Europe/Brussels');
      expect(zonedTimeToUtc(date, time, 'Europe/Brussels')).toBe(ms);
    }
  });
});
