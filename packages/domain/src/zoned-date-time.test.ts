import { describe, expect, it } from 'vitest';
import { formatDateTimeInZone } from './zoned-date-time.ts';

describe('formatDateTimeInZone (issue 43)', () => {
  const at = Date.UTC(2026, 11, 4, 22, 47, 5);
  it('writes the event zone’s wall clock in the page language, the zone named', () => {
    expect(formatDateTimeInZone(at, 'en', 'Europe/Brussels')).toBe('4 Dec 2026, 23:47 CET');
    expect(formatDateTimeInZone(at, 'fr', 'Europe/Brussels')).toBe('4 déc. 2026, 23:47 UTC+1');
    expect(formatDateTimeInZone(at, 'en', 'America/New_York')).toBe('4 Dec 2026, 17:47 EST');
    expect(formatDateTimeInZone(at, 'en', 'UTC', { seconds: true })).toBe('4 Dec 2026, 22:47:05 UTC');
  });
  it('is blank without an instant', () => {
    expect(formatDateTimeInZone(null, 'en', 'UTC')).toBe('');
    expect(formatDateTimeInZone(Number.NaN, 'fr', 'UTC')).toBe('');
  });
});
