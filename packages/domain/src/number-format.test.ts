import { describe, expect, it } from 'vitest';
import { formatCount } from './number-format.ts';

describe('counts per language (issue 27)', () => {
  it('groups thousands the way each language does', () => {
    expect(formatCount(26_410)).toBe('26,410');
    expect(formatCount(26_410, 'fr')).toBe('26\u202f410');
    expect(formatCount(980, 'fr')).toBe('980');
    expect(formatCount(null)).toBe('');
  });
});
