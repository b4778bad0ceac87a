import * as domain from '@tempora/domain';
import { describe, expect, it, vi } from 'vitest';
import { fromZoneInput, toZoneInput } from './zone-time.ts';

// The zone arithmetic is the domain's, not a second copy (issue 38): the form's helpers call it.
vi.mock('@tempora/domain', async (original) => {
  const real = await original<typeof domain>();
  return { ...real, zonedParts: vi.fn(real.zonedParts), zonedTimeToUtc: vi.fn(real.zonedTimeToUtc) };
});

describe('wall-clock times in the event’s zone', () => {
  it('reads and writes Brussels times in winter and summer, whatever the browser’s zone', () => {
    expect(toZoneInput('2027-01-10T08:00:00.000Z', 'Europe/Brussels')).toBe('2027-01-10T09:00');
    expect(toZoneInput('2027-06-06T07:30:00.000Z', 'Europe/Brussels')).toBe('2027-06-06T09:30');
    expect(fromZoneInput('2027-01-10T09:00', 'Europe/Brussels')).toBe('2027-01-10T08:00:00.000Z');
    expect(fromZoneInput('2027-06-06T09:30', 'Europe/Brussels')).toBe('2027-06-06T07:30:00.000Z');
    expect(fromZoneInput('2027-06-06T09:30', 'America/New_York')).toBe('2027-06-06T13:30:00.000Z');
    expect(fromZoneInput('not a time', 'Europe/Brussels')).toBe('not a time');
  });
  it('round-trips across the spring change', () => {
    for (const iso of ['2027-03-28T00:30:00.000Z', '2027-03-28T01:30:00.000Z', '2027-10-31T02:30:00.000Z'])
      expect(fromZoneInput(toZoneInput(iso, 'Europe/Brussels'), 'Europe/Brussels')).toBe(iso);
  });
  it('uses the domain’s zone arithmetic, not a copy of it', () => {
    vi.mocked(domain.zonedParts).mockClear();
    vi.mocked(domain.zonedTimeToUtc).mockClear();
    toZoneInput('2027-01-10T08:00:00.000Z', 'Europe/Brussels');
    fromZoneInput('2027-01-10T09:00', 'Europe/Brussels');
    expect(domain.zonedParts).toHaveBeenCalledWith(Date.parse('2027-01-10T08:00:00.000Z'), 'Europe/Brussels');
    expect(domain.zonedTimeToUtc).toHaveBeenCalledWith('2027-01-10', '09:00', 'Europe/Brussels');
  });
});
