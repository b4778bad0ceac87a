import { describe, expect, it } from 'vitest';
import { formatDistance, formatPaceIn, paceUnitOf } from './pace.ts';

describe('pace in the event’s unit (issue 43)', () => {
  it('reads miles in the United States, kilometres elsewhere', () => {
    expect(paceUnitOf('America/New_York')).toBe('mi');
    expect(paceUnitOf('America/Los_Angeles')).toBe('mi');
    expect(paceUnitOf('Europe/Brussels')).toBe('km');
    expect(paceUnitOf('America/Toronto')).toBe('km');
    expect(paceUnitOf(null)).toBe('km');
  });
  it('writes a pace per kilometre per mile', () => {
    expect(formatPaceIn(297_000, 'km')).toBe('4:57');
    expect(formatPaceIn(297_000, 'mi')).toBe('7:57');
    expect(formatPaceIn(null, 'mi')).toBe('');
  });
  it('writes a race distance in the event’s unit and the page language', () => {
    expect(formatDistance(10_000, 'km')).toBe('10 km');
    expect(formatDistance(42_195, 'km')).toBe('42.195 km');
    expect(formatDistance(42_195, 'km', 'fr')).toBe('42,195 km');
    expect(formatDistance(42_195, 'mi')).toBe('26.2 mi');
    expect(formatDistance(42_195, 'mi', 'fr')).toBe('26,2 mi');
  });
});
