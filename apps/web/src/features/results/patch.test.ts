import { applyReportPatch, type ReportTable } from '@tempora/contracts';
import { describe, expect, it } from 'vitest';
import { searchRows } from './patch.ts';

const table = (rows: unknown[][], version = 5): ReportTable => ({
  eventId: 'e',
  db: 'd',
  group: 'g',
  report: 'LIVE1',
  title: { en: 'Overall', fr: 'Général' },
  version,
  columns: [],
  rows,
  total: rows.length,
  keyField: 0,
  orderField: 1,
});
const patch = (upserts: unknown[][], removes: string[] = [], fromVersion = 5, version = 9) => ({
  group: 'g',
  report: 'LIVE1',
  fromVersion,
  version,
  upserts,
  removes,
});

describe('report patches (issue 6)', () => {
  it('upserts, removes and keeps rows ordered by the order field, ties by key', () => {
    const before = table([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    const frozen = JSON.stringify(before);
    const next = applyReportPatch(
      before,
      patch(
        [
          ['c', 0.5],
          ['d', 2],
          ['e', 9],
        ],
        ['a'],
      ),
    );
    expect(next?.rows).toEqual([
      ['c', 0.5],
      ['b', 2],
      ['d', 2],
      ['e', 9],
    ]);
    expect(next?.version).toBe(9);
    expect(next?.total).toBe(4);
    expect(JSON.stringify(before)).toBe(frozen); // the cached table is not mutated
  });

  it('removes a key that is absent without harm, and an upsert replaces the row in place', () => {
    const next = applyReportPatch(
      table([
        ['a', 1, 'x'],
        ['b', 2, 'y'],
      ]),
      patch([['b', 2, 'z']], ['nope']),
    );
    expect(next?.rows).toEqual([
      ['a', 1, 'x'],
      ['b', 2, 'z'],
    ]);
  });

  it('shifts ranks of a run of rows, only those of its mask, strings of digits staying strings (issue 20)', () => {
    const before = table([
      ['a', 1, '1', 0],
      ['b', 2, '2', 5],
      ['c', 3, '3', 9],
      ['d', 4, '', 0],
    ]);
    const frozen = JSON.stringify(before);
    // Rank +1 for a, b, c; gap +2 for a and c only (mask bits 0 and 2: 0b101 = 5 = 'F').
    const next = applyReportPatch(before, {
      ...patch([['n', 0, '1', 0]], []),
      shifts: [
        [2, 1, 0, 3],
        [3, 2, 0, 3, 'F'],
      ],
    });
    expect(next?.rows).toEqual([
      ['n', 0, '1', 0],
      ['a', 1, '2', 2],
      ['b', 2, '3', 5],
      ['c', 3, '4', 11],
      ['d', 4, '', 0],
    ]);
    expect(JSON.stringify(before)).toBe(frozen);
    // A shift out of range, on a blank or on the order field asks for a refetch.
    expect(applyReportPatch(before, { ...patch([], []), shifts: [[2, 1, 2, 5]] })).toBeNull();
    expect(applyReportPatch(before, { ...patch([], []), shifts: [[2, 1, 3, 1]] })).toBeNull();
    expect(applyReportPatch(before, { ...patch([], []), shifts: [[1, 1, 0, 1]] })).toBeNull();
  });

  it('asks for a refetch on a version gap or a reload request', () => {
    const t = table([['a', 1]]);
    expect(applyReportPatch(t, patch([], [], 4))).toBeNull();
    expect(applyReportPatch(t, { group: 'g', report: 'LIVE1', version: 9, reload: true })).toBeNull();
  });

  // Its speed is measured by the benchmarks, never asserted here (a shared machine is noisy).
  it('keeps 26,000 rows sorted after a patch', () => {
    const rows = Array.from({ length: 26_000 }, (_, i) => [String(i), i * 10]);
    const next = applyReportPatch(
      table(rows),
      patch(
        [
          ['25999', 5],
          ['new', 1e9],
        ],
        ['0'],
      ),
    );
    expect(next?.rows[0]).toEqual(['25999', 5]);
    expect(next?.rows[1]).toEqual(['1', 10]);
    expect(next?.rows.at(-1)).toEqual(['new', 1e9]);
    expect(next?.rows).toHaveLength(26_000);
  });
});

describe('search (issue 6: name or bib, exact bib first)', () => {
  const columns = [
    { FieldIdx: 2, Type: 'text' as const },
    { FieldIdx: 3, Type: 'text' as const },
  ];
  const rows = [
    ['12', 1, 'ANNA Émilie', '120'],
    ['120', 2, 'BOB Smith', '7'],
    ['7', 3, 'CARL Dupont', '3'],
  ];
  it('puts the exact bib first, then bibs starting with the number (never ranks)', () => {
    expect(searchRows(rows, 0, '12', columns).map((r) => r[0])).toEqual(['12', '120']);
    expect(searchRows(rows, 0, '120', columns).map((r) => r[0])).toEqual(['120']);
    expect(searchRows(rows, 0, '3', columns)).toEqual([]);
  });
  it('finds names ignoring case and accents; blank shows everything', () => {
    expect(searchRows(rows, 0, 'emilie', columns).map((r) => r[0])).toEqual(['12']);
    expect(searchRows(rows, 0, 'DUP', columns).map((r) => r[0])).toEqual(['7']);
    expect(searchRows(rows, 0, '  ', columns)).toBe(rows);
  });
});
