import { describe, expect, it } from 'vitest';
import { ChangedRunners } from './context-state.ts';

describe('ChangedRunners', () => {
  it('lists the changed runners while few, and keeps each read’s own runner', () => {
    const c = new ChangedRunners(4);
    c.add(Int32Array.of(7, 1, 2));
    c.add(Int32Array.of(1, 2));
    expect(c.size).toBe(3);
    expect([...c.values()].sort()).toEqual([1, 2, 7]);
    expect([...c.runners].sort()).toEqual([1, 7]);
  });

  it('past its limit says only "many" (no listing), but still knows whose reads changed', () => {
    const c = new ChangedRunners(4);
    c.add(Int32Array.of(9, 1, 2, 3, 4, 5));
    expect(c.size).toBe(Number.POSITIVE_INFINITY);
    expect(() => c.values()).toThrow();
    c.add(Int32Array.of(11));
    expect([...c.runners].sort((a, b) => a - b)).toEqual([9, 11]);
  });

  it('merging a "many" or pushing past the limit makes "many"', () => {
    const few = new ChangedRunners(3);
    few.add(Int32Array.of(1));
    const other = new ChangedRunners(3);
    other.add(Int32Array.of(2, 3));
    few.merge(other);
    expect(few.size).toBe(3);
    const more = new ChangedRunners(3);
    more.add(Int32Array.of(4));
    few.merge(more);
    expect(few.size).toBe(Number.POSITIVE_INFINITY);
    expect([...few.runners].sort()).toEqual([1, 2, 4]);
  });

  it('a negative limit (the property tests compare tables on every change) is always "many"', () => {
    const c = new ChangedRunners(-1);
    c.add(Int32Array.of(5));
    expect(c.size).toBe(Number.POSITIVE_INFINITY);
  });
});
