import { describe, expect, it } from 'vitest';
import { deviceClockOf, readChip, toIncoming, utcOfDeviceClock, wallClockToUtc } from './ingest.ts';

const device = {
  pointKey: null,
  pointMap: { L1: 'finish' },
  clockOffsetMs: 1_500,
  timeZone: 'Europe/Brussels',
  chipFormat: 'as-is' as const,
};

describe('the front door rules', () => {
  it('reads a Brussels wall clock right on both sides of the daylight-saving changes', () => {
    // 29 March 2026, 01:59:59 CET (UTC+1) and 03:00:00 CEST (UTC+2): one second apart.
    expect(wallClockToUtc(Date.UTC(2026, 2, 29, 1, 59, 59), 'Europe/Brussels')).toBe(
      Date.UTC(2026, 2, 29, 0, 59, 59),
    );
    expect(wallClockToUtc(Date.UTC(2026, 2, 29, 3, 0, 0), 'Europe/Brussels')).toBe(
      Date.UTC(2026, 2, 29, 1, 0, 0),
    );
    // 25 October 2026: 01:30 CEST is 23:30 UTC the day before; 04:00 CET is 03:00 UTC.
    expect(wallClockToUtc(Date.UTC(2026, 9, 25, 1, 30), 'Europe/Brussels')).toBe(
      Date.UTC(2026, 9, 24, 23, 30),
    );
    expect(wallClockToUtc(Date.UTC(2026, 9, 25, 4, 0), 'Europe/Brussels')).toBe(Date.UTC(2026, 9, 25, 3, 0));
    expect(wallClockToUtc(Date.UTC(2026, 9, 25, 4, 0), null)).toBe(Date.UTC(2026, 9, 25, 4, 0));
  });

  it('a device clock reading and UTC convert both ways (zone and offset)', () => {
    for (const utc of [
      Date.UTC(2026, 2, 28, 12),
      Date.UTC(2026, 6, 1, 9, 30, 0, 120),
      Date.UTC(2026, 11, 31, 23),
    ])
      expect(utcOfDeviceClock(deviceClockOf(utc, device), device)).toBe(utc);
    expect(deviceClockOf(Date.UTC(2026, 6, 1, 9), device)).toBe(Date.UTC(2026, 6, 1, 11) - 1_500);
  });

  it('chips per device: as sent, leading zeros dropped, or the EPC holds the bib', () => {
    expect(readChip('000123', 'as-is')).toEqual({ chip: '000123' });
    expect(readChip('000123', 'strip-zeros')).toEqual({ chip: '123' });
    expect(readChip('000000000000000000000404', 'epc-bib')).toEqual({ bib: '404' });
    expect(readChip('0000', 'strip-zeros')).toEqual({ chip: '0' });
  });

  it('a vendor read gets its point (map, device, vendor name), zone, offset and chip format', () => {
    const wall = Date.UTC(2026, 6, 1, 11, 0, 0);
    expect(
      toIncoming(device, { chip: 'A1', pointKey: null, deviceTimeMs: wall }, 'L1', { wallClock: true }),
    ).toEqual({
      chip: 'A1',
      pointKey: 'finish',
      timeMs: Date.UTC(2026, 6, 1, 9) + 1_500,
    });
    // An absolute (UTC) time ignores the zone; an unknown loop that is a valid key names the point.
    expect(toIncoming(device, { chip: 'A1', pointKey: null, deviceTimeMs: wall }, 'km5')).toMatchObject({
      pointKey: 'km5',
      timeMs: wall + 1_500,
    });
    expect(toIncoming(device, { chip: 'A1', pointKey: null, deviceTimeMs: wall }, 'no point!')).toBeNull();
    expect(
      toIncoming(
        { ...device, chipFormat: 'epc-bib' },
        { chip: '00000404', pointKey: null, deviceTimeMs: wall },
        'L1',
      ),
    ).toMatchObject({ bib: '404' });
  });
});
