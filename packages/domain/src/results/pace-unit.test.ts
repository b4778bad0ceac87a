import { describe, expect, it } from 'vitest';
import { formatPaceIn, paceUnitOf } from './pace.ts';

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
});
