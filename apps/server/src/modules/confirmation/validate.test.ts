import { describe, expect, it } from 'vitest';
import { parseDate, parseGender } from '../../lib/tabular/validate.ts';
import { nextBibs } from './confirm.ts';
import { diffVersions } from './diff.ts';
import { unitPrice } from './service.ts';
import { mapRow, validateRows } from './validate.ts';

describe('confirmation: pure rules', () => {
  it('reads dates in ISO and day-first forms, refusing impossible days', () => {
    expect(parseDate('2015-03-04')).toBe('2015-03-04');
    expect(parseDate('4/3/2015')).toBe('2015-03-04');
    expect(parseDate('04.03.2015')).toBe('2015-03-04');
    expect(parseDate('2015-03-04T00:00:00Z')).toBe('2015-03-04');
    expect(parseDate('29/02/2016')).toBe('2016-02-29');
    expect(parseDate('29/02/2015')).toBeUndefined();
    expect(parseDate('2015-13-01')).toBeUndefined();
    expect(parseDate('March 4')).toBeUndefined();
  });

  it('reads genders in English, French and Dutch-style letters', () => {
    expect(['M', 'male', 'Homme', 'garçon', 'H'].map(parseGender)).toEqual(['M', 'M', 'M', 'M', 'M']);
    expect(['f', 'Female', 'Fille', 'W', 'D'].map(parseGender)).toEqual(['F', 'F', 'F', 'F', 'F']);
    expect(parseGender('x')).toBe('X');
    expect(parseGender('?')).toBeUndefined();
  });

  it('maps a raw row through the header mapping, normalising as it goes', () => {
    expect(
      mapRow(['Zoé', 'f', '09/09/2015', 'A@B.BE'], ['Prénom', 'Sexe', 'Né', 'Mail'], {
        firstName: 'Prénom',
        gender: 'Sexe',
        birthDate: 'Né',
        email: 'Mail',
        bib: 'Absent',
      }),
    ).toEqual({ firstName: 'Zoé', gender: 'F', birthDate: '2015-09-09', email: 'a@b.be' });
  });

  it('gives the lowest free bibs of a range, or follows the highest bib without one', () => {
    expect(nextBibs(3, new Set(['10', '12']), { from: 10, to: 20 })).toEqual(['11', '13', '14']);
    expect(nextBibs(3, new Set(['10', '11']), { from: 10, to: 12 })).toBeNull();
    expect(nextBibs(2, new Set(['7', 'F3', '41']), { from: null, to: null })).toEqual(['42', '43']);
  });

  it('prices an entry by the tariff in force on the reception date', () => {
    const tariffs = [
      { until: null, priceCents: 1500 },
      { until: '2026-03-31', priceCents: 1000 },
    ];
    expect(unitPrice(tariffs, '2026-03-31')).toBe(1000);
    expect(unitPrice(tariffs, '2026-04-01')).toBe(1500);
    expect(unitPrice([], '2026-04-01')).toBe(0);
  });

  it('diffs versions by person, whatever the order of the rows', () => {
    const previous = [
      { id: 'a', position: 1, fields: { firstName: 'Ann', lastName: 'One', birthDate: '2015-01-01' } },
      { id: 'b', position: 2, fields: { firstName: 'Bob', lastName: 'Two', birthDate: '2015-02-02' } },
    ].map((r) => ({
      ...r,
      decision: 'pending' as const,
      reason: null,
      participantId: null,
      participantRaceId: null,
      participantBib: null,
    }));
    const next = [previous[1]!, previous[0]!].map((r) => ({ raw: [], fields: r.fields }));
    const { diff, rows } = diffVersions(previous, next, 2);
    expect(diff).toEqual({ version: 2, added: [], removed: [], changed: [], unchanged: 2 });
    expect(rows.map((r) => r.fields.firstName)).toEqual(['Bob', 'Ann']);
  });

  it('marks only the later of two same people, and never a rejected row', async () => {
    const row = (id: string, position: number, decision: 'pending' | 'rejected' = 'pending') => ({
      id,
      position,
      decision,
      fields: { firstName: 'Eva', lastName: 'Lind', gender: 'F', birthDate: '2014-04-04' },
    });
    const verdicts = await validateRows([row('c', 3), row('a', 1, 'rejected'), row('b', 2)], {
      races: [
        {
          id: 'r',
          name: 'R',
          date: '2026-06-14',
          categories: [],
          capacity: null,
          bibFrom: null,
          bibTo: null,
          registered: 0,
          takenBibs: new Set(),
        },
      ],
      defaultRaceId: 'r',
      participants: [],
      otherRows: [],
      today: '2026-01-01',
    });
    expect(verdicts.get('a')!.issues).toEqual([]);
    expect(verdicts.get('b')!.issues).toEqual([]);
    expect(verdicts.get('c')!.issues.map((i) => i.code)).toEqual(['DUPLICATE_IN_FILE']);
  });
});
