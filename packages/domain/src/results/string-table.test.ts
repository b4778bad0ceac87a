import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addString, createStringTable, lookupString, type StringTable } from './string-table.ts';

function tableOf(keys: readonly string[], values: readonly number[]): StringTable {
  const table = createStringTable(2);
  keys.forEach((key, k) => {
    addString(table, key, values[k]!);
  });
  return table;
}

describe('string table (bib and chip look-ups)', () => {
  it('finds numbers, letters and leading zeros as distinct bibs', () => {
    const table = tableOf(['7', '007', 'F3', '0', '123456789012'], [0, 1, 2, 3, 4]);
    expect(
      ['7', '007', 'F3', '0', '123456789012', '07', 'f3', ''].map((s) => lookupString(table, s)),
    ).toEqual([0, 1, 2, 3, 4, -1, -1, -1]);
  });

  it('behaves like a Map where the first of duplicate keys wins', () => {
    const key = fc.oneof(
      fc.string({ maxLength: 4 }),
      fc.nat({ max: 300_000 }).map(String),
      fc.constantFrom('0', '00', 'F1'),
    );
    fc.assert(
      fc.property(fc.array(key, { maxLength: 60 }), fc.array(key, { maxLength: 20 }), (keys, probes) => {
        const table = tableOf(
          keys,
          keys.map((_, k) => k * 10),
        );
        const model = new Map<string, number>();
        keys.forEach((k, i) => {
          if (!model.has(k)) model.set(k, i * 10);
        });
        for (const s of [...keys, ...probes]) expect(lookupString(table, s)).toBe(model.get(s) ?? -1);
        expect(table.duplicates.length).toBe(keys.length - model.size);
      }),
    );
  });
});
