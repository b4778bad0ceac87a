import { describe, expect, it } from 'vitest';
import { pickEnvironmentName } from './index.ts';

describe('pickEnvironmentName (spec §9: URL parameter env, default prod)', () => {
  it('accepts dev, prod and cis', () => {
    expect(pickEnvironmentName('dev')).toBe('dev');
    expect(pickEnvironmentName('cis')).toBe('cis');
    expect(pickEnvironmentName('prod')).toBe('prod');
  });
  it('falls back to prod for a missing or unknown value', () => {
    expect(pickEnvironmentName(null)).toBe('prod');
    expect(pickEnvironmentName('')).toBe('prod');
    expect(pickEnvironmentName('DEV')).toBe('prod');
    expect(pickEnvironmentName('staging')).toBe('prod');
  });
});
