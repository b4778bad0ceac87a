import { describe, expect, it } from 'vitest';
import { joinTitle } from './title.ts';

describe('titles that do not repeat themselves (issue 27)', () => {
  it('leaves out a part already said', () => {
    expect(joinTitle(['Boston Marathon 2017', 'Boston Marathon 2017', 'Overall'])).toBe(
      'Boston Marathon 2017 · Overall',
    );
    expect(joinTitle(['10 km', '10 km'])).toBe('10 km');
    expect(joinTitle(['Boston Marathon 2017', 'Marathon', 'Women'])).toBe('Boston Marathon 2017 · Women');
    expect(joinTitle(['Demo City Run', 'Marathon', 'Overall'])).toBe('Demo City Run · Marathon · Overall');
    expect(joinTitle(['Demo City Run', undefined, ' ', 'Écart'])).toBe('Demo City Run · Écart');
    expect(joinTitle(['Course', 'COURSÉ'])).toBe('Course');
  });
});
