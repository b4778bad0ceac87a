import { describe, expect, it } from 'vitest';
import { countryTimeZones, formatDateTime, formatDay, zoneLabel } from './date-format.ts';

const DEC_4 = Date.UTC(2026, 11, 4, 22, 47, 5); // 23:47 in Brussels (winter)
const BOSTON_FINISH = Date.UTC(2017, 3, 17, 16, 9, 37); // 12:09:37 in Boston (summer)

describe('formatDateTime (issue 43: dates and times said, not guessed)', () => {
  it("writes the event's zone's date and time, named, in the page language", () => {
    expect(formatDateTime(DEC_4, 'Europe/Brussels', 'en')).toBe('4 Dec 2026, 23:47 CET');
    expect(formatDateTime(DEC_4, 'Europe/Brussels', 'fr')).toBe('4 déc. 2026, 23:47 UTC+1');
  });
  it('names American zones the American way in English', () => {
    expect(formatDateTime(BOSTON_FINISH, 'America/New_York', 'en', { date: false, seconds: true })).toBe(
      '12:09:37 EDT',
    );
    expect(formatDateTime(BOSTON_FINISH, 'America/New_York', 'fr', { date: false, seconds: true })).toBe(
      '12:09:37 UTC−4',
    );
  });
  it('never takes the runtime zone when the event has one', () => {
    expect(formatDateTime(DEC_4, 'Asia/Tokyo', 'en')).toBe('5 Dec 2026, 07:47 UTC+9');
    expect(formatDateTime(DEC_4, 'UTC', 'en')).toBe('4 Dec 2026, 22:47 UTC');
  });
  it('writes a date alone without a zone, and is blank for nothing', () => {
    expect(formatDateTime(DEC_4, 'Europe/Brussels', 'fr', { time: false })).toBe('4 déc. 2026');
    expect(formatDateTime(null, 'Europe/Brussels', 'en')).toBe('');
  });
  it('writes a calendar day in the language, whatever the zone', () => {
    expect(formatDay('2017-04-17', 'en')).toBe('17 Apr 2017');
    expect(formatDay('2017-04-17', 'fr')).toBe('17 avr. 2017');
  });
  it('labels a zone at an instant (summer and winter)', () => {
    expect(zoneLabel(BOSTON_FINISH, 'Europe/Brussels', 'en')).toBe('CEST');
    expect(zoneLabel(DEC_4, 'America/Los_Angeles', 'en')).toBe('PST');
  });
});

describe('countryTimeZones', () => {
  it("gives a country's zones, several for some", () => {
    expect(countryTimeZones('BE')).toEqual(['Europe/Brussels']);
    expect(countryTimeZones('fr')).toEqual(['Europe/Paris']);
    expect(countryTimeZones('US').length).toBeGreaterThan(5);
    expect(countryTimeZones('US')).toContain('America/New_York');
    expect(countryTimeZones('')).toEqual([]);
    expect(countryTimeZones('XX!')).toEqual([]);
  });
});
