import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareBibs, compareHits, foldText, matchScore } from './athlete-search.ts';

const athlete = (bib: string, firstName: string, lastName: string) => ({ bib, firstName, lastName });

describe('athlete search (issue 19)', () => {
  it('ignores accents and case', () => {
    expect(foldText('MÜLLER Zoë')).toBe('muller zoe');
    expect(matchScore('muller', athlete('12', 'Maximilian', 'Müller'))).toBeGreaterThan(0);
    expect(matchScore('MÜLLER', athlete('12', 'Maximilian', 'Muller'))).toBe(80);
    expect(matchScore('zoe', athlete('12', 'Zoë', 'Durand'))).toBe(75);
  });

  it('folds letters beyond French: Vietnamese, Turkish, Polish, Nordic, German (issue 29)', () => {
    expect(foldText('Nguyễn Thảo')).toBe('nguyen thao');
    expect(foldText('Şahin İlhan')).toBe('sahin ilhan');
    expect(foldText('Łukasiewicz')).toBe('lukasiewicz');
    expect(foldText('Ødegaard')).toBe('odegaard');
    expect(foldText('Đức Trần')).toBe('duc tran');
    expect(foldText('Straße Æsir Œuvre Þór')).toBe('strasse aesir oeuvre thor');
    fc.assert(fc.property(fc.string(), (s) => foldText(foldText(s)) === foldText(s)));
  });

  it('ranks an exact bib, then names, then bibs starting with the query', () => {
    const exact = matchScore('12', athlete('12', 'A', 'B'));
    const prefix = matchScore('12', athlete('1203', 'A', 'B'));
    expect(exact).toBeGreaterThan(prefix);
    expect(prefix).toBeGreaterThan(0);
    expect(matchScore('12', athlete('312', 'A', 'B'))).toBe(0);
    expect(matchScore('dupont jean', athlete('1', 'Jean', 'Dupont'))).toBe(90);
    expect(matchScore('dup', athlete('1', 'Jean', 'Dupont'))).toBeGreaterThan(
      matchScore('up', athlete('1', 'Jean', 'Dupont')),
    );
  });

  it('orders bibs numerically, numbers before letters, digit runs by value', () => {
    expect(['1285', '120', '1061', '662'].sort(compareBibs)).toEqual(['120', '662', '1061', '1285']);
    expect(['3829', '4031', '4664', '662'].sort(compareBibs)).toEqual(['662', '3829', '4031', '4664']);
    expect(['F12', 'F3', '7', 'A1'].sort(compareBibs)).toEqual(['7', 'A1', 'F3', 'F12']);
  });

  it('is a total order (antisymmetric, transitive on samples)', () => {
    const bib = fc.oneof(fc.nat(99999).map(String), fc.stringMatching(/^[A-Z]{0,2}\d{0,4}$/));
    fc.assert(
      fc.property(bib, bib, bib, (a, b, c) => {
        expect(Math.sign(compareBibs(a, b))).toBe(-Math.sign(compareBibs(b, a)) || 0);
        if (compareBibs(a, b) <= 0 && compareBibs(b, c) <= 0)
          expect(compareBibs(a, c)).toBeLessThanOrEqual(0);
      }),
    );
  });

  it('sorts hits by relevance then bib', () => {
    const hits = [
      { score: 30, bib: '5' },
      { score: 70, bib: '1285' },
      { score: 70, bib: '120' },
    ];
    expect(hits.sort(compareHits).map((h) => h.bib)).toEqual(['120', '1285', '5']);
  });
});
