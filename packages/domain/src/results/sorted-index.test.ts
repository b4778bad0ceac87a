import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortByKey } from './radix-sort.ts';
import {
  createSortedIndex,
  createSortedKeys,
  insertEntry,
  insertKey,
  rankOf,
  removeEntry,
  removeKey,
} from './sorted-index.ts';

describe('sorted rankings', () => {
  it('ranks ties equally and skips after them (1, 2, 2, 4)', () => {
    const keys = createSortedKeys(2);
    for (const t of [30, 10, 20, 20]) insertKey(keys, t);
    expect([10, 20, 20, 30].map((t) => rankOf(keys, t))).toEqual([1, 2, 2, 4]);
    expect(removeKey(keys, 20)).toBe(true);
    expect(removeKey(keys, 25)).toBe(false);
    expect(rankOf(keys, 30)).toBe(3);
  });

  it('keeps (key, participant) pairs sorted through any inserts and removals', () => {
    const op = fc.record({
      key: fc.integer({ min: 0, max: 20 }),
      id: fc.integer({ min: 0, max: 30 }),
      add: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const index = createSortedIndex(1);
        const model = new Map<number, number>();
        for (const { key, id, add } of ops) {
          const present = model.get(id);
          if (present !== undefined) {
            expect(removeEntry(index, present, id)).toBe(true);
            model.delete(id);
          }
          if (add) {
            insertEntry(index, key, id);
            model.set(id, key);
          }
        }
        const expected = [...model].sort(([a, ka], [b, kb]) => ka - kb || a - b);
        expect(Array.from(index.ids.subarray(0, index.size))).toEqual(expected.map(([id]) => id));
        for (const [, key] of expected) {
          expect(rankOf(index, key)).toBe(expected.filter(([, k]) => k < key).length + 1);
        }
      }),
    );
  });
});

describe('sortByKey', () => {
  const check = (values: number[]) => {
    const keys = Float64Array.from(values);
    const ids = Int32Array.from(values, (_, k) => k);
    sortByKey(keys, ids, values.length);
    const expected = values.map((v, k) => [v, k] as const).sort(([a, i], [b, j]) => a - b || i - j);
    expect(Array.from(ids)).toEqual(expected.map(([, k]) => k));
    expect(Array.from(keys)).toEqual(expected.map(([v]) => v));
  };

  it('orders by key, ties by participant, like a comparison sort', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: -5000, max: 3_000_000 })), check));
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 5 })), check));
  });

  it('handles wide ranges and fractional keys through its fallback', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: -(2 ** 40), max: 2 ** 40 })), check));
    fc.assert(fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true })), check));
  });
});
