import { describe, expect, it } from 'vitest';
import { matchScore } from './athlete-search.ts';
import { searchTableRows } from './table-search.ts';

const columns = [
  { FieldIdx: 0, Type: 'text' },
  { FieldIdx: 1, Type: 'text' },
  { FieldIdx: 2, Type: 'time' },
];
const rows = [
  ['215', 'ÇELIK Ayşe', 117_000],
  ['1117', 'NGUYỄN Văn', 60_000],
  ['117', 'MÜLLER Jörg', 70_000],
  ['1170', 'ØDEGAARD Åse', 80_000],
];
const keys = (q: string) => searchTableRows(rows, 0, q, columns).map((r) => r[0]);

describe('one table search (issue 27: the page, the report API and the exports)', () => {
  it('is accent-blind through foldText, for every script', () => {
    expect(keys('celik')).toEqual(['215']);
    expect(keys('NGUYEN')).toEqual(['1117']);
    expect(keys('odegaard ase')).toEqual(['1170']);
    expect(keys('muller')).toEqual(['117']);
  });

  it('a number is a bib: the exact one first, then bibs starting with it, never a time or a rank', () => {
    expect(keys('117')).toEqual(['117', '1170']);
    expect(keys('1117')).toEqual(['1117']);
    expect(keys('99')).toEqual([]);
  });

  it('bibs match as matchScore matches them (exact, else a prefix for digits)', () => {
    for (const q of ['117', '11', '2', '1170']) {
      const expected = rows
        .filter((r) => matchScore(q, { bib: String(r[0]), firstName: '', lastName: '' }) >= 50)
        .map((r) => r[0]);
      expect([...keys(q)].sort()).toEqual([...expected].sort());
    }
  });

  it('a blank query keeps every row', () => {
    expect(searchTableRows(rows, 0, '  ', columns)).toBe(rows);
  });
});
