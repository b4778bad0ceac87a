import { describe, expect, it } from 'vitest';
import { gunInZone } from './other-imports.tsx';

describe('gunInZone: a result list’s gun time is read in the event’s time zone', () => {
  it('reads the wall-clock time in the event’s zone, whatever the browser’s', () => {
    expect(gunInZone('2015-04-20T10:00', 'America/New_York')).toBe('2015-04-20T14:00:00.000Z');
    expect(gunInZone('2026-09-06T09:30:15', 'Europe/Brussels')).toBe('2026-09-06T07:30:15.000Z');
    expect(gunInZone('2026-01-10T09:30', 'Europe/Brussels')).toBe('2026-01-10T08:30:00.000Z');
  });
  it('is empty when the value is empty or malformed', () => {
    expect(gunInZone('', 'Europe/Brussels')).toBe('');
    expect(gunInZone('2026-09-06', 'Europe/Brussels')).toBe('');
    expect(gunInZone('2026-09-06T25:00', 'Europe/Brussels')).toBe('');
  });
});
