import { describe, expect, it } from 'vitest';
import {
  type FieldSpec,
  isEmail,
  mappedValues,
  parseDate,
  parseGender,
  parseInteger,
  parseTime,
  parseYear,
  validateRow,
  validateRows,
} from './validate.ts';

describe('tabular: field parsers', () => {
  it('reads genders in English and French (and the Dutch letters files use)', () => {
    const men = ['M', 'm', 'H', 'Homme', 'hommes', 'Male', 'man', 'Men', 'boy', 'Garçon', 'Masculin', 'M.'];
    const women = [
      'F',
      'W',
      'V',
      'D',
      'Femme',
      'FEMMES',
      'Female',
      'woman',
      'girl',
      'Fille',
      'Féminin',
      'vrouw',
    ];
    const others = ['X', 'nb', 'Non-binary', 'non binaire', 'Non-binaire', 'Other', 'autre'];
    expect(men.map((g) => parseGender(g))).toEqual(men.map(() => 'M'));
    expect(women.map((g) => parseGender(g))).toEqual(women.map(() => 'F'));
    expect(others.map((g) => parseGender(g))).toEqual(others.map(() => 'X'));
    expect(['?', 'Q', '', 'MF', '1'].map((g) => parseGender(g))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('reads dates in ISO, day-first (or month-first) forms and Excel serials, refusing impossible days', () => {
    expect(parseDate('2015-03-04')).toBe('2015-03-04');
    expect(parseDate('2015-3-4T00:00:00Z')).toBe('2015-03-04');
    expect(parseDate('04/03/2015')).toBe('2015-03-04');
    expect(parseDate('4.3.2015')).toBe('2015-03-04');
    expect(parseDate('04-03-2015')).toBe('2015-03-04');
    expect(parseDate('04/03/2015', 'mdy')).toBe('2015-04-03');
    expect(parseDate('31/12/1985', 'mdy')).toBeUndefined();
    expect(parseDate('29/02/2016')).toBe('2016-02-29');
    expect(parseDate('29/02/2015')).toBeUndefined();
    expect(parseDate('2015-13-01')).toBeUndefined();
    expect(parseDate('1850-01-01')).toBeUndefined();
    expect(parseDate('31137')).toBe('1985-03-31');
    expect(parseDate('25569')).toBe('1970-01-01');
    expect(parseDate('1985')).toBeUndefined();
    expect(parseDate('March 4')).toBeUndefined();
  });

  it('reads years, e-mails and whole numbers', () => {
    expect(parseYear('1985')).toBe(1985);
    expect(parseYear('85')).toBeUndefined();
    expect(parseYear('2200')).toBeUndefined();
    expect(isEmail('a.b@club.be')).toBe(true);
    expect(isEmail('a b@club.be')).toBe(false);
    expect(isEmail('nobody')).toBe(false);
    expect(parseInteger('42', 0, 120)).toBe(42);
    expect(parseInteger('121', 0, 120)).toBeUndefined();
    expect(parseInteger('4.5')).toBeUndefined();
    expect(parseInteger('-3')).toBeUndefined();
  });

  it('reads times as epoch ms, ISO or a time of day after the day start (the results passings import)', () => {
    const gun = Date.UTC(2026, 10, 23, 9);
    expect(parseTime('1795417981600', null)).toBe(1795417981600);
    expect(parseTime('2026-11-23T09:20:00Z', null)).toBe(gun + 20 * 60_000);
    expect(parseTime('9:20:00.5', Date.UTC(2026, 10, 23))).toBe(gun + 20 * 60_000 + 500);
    expect(parseTime('9:20:00', null)).toBeNull();
    expect(parseTime('9:20', null)).toBeNull();
    expect(parseTime('soon', null)).toBeNull();
  });
});

const spec = {
  firstName: { kind: 'text', required: true },
  gender: { kind: 'gender', required: true },
  birthDate: { kind: 'date', max: '2026-11-27' },
  age: { kind: 'integer', max: 120, code: 'BAD_AGE' },
  nationality: { kind: 'text', upperCase: true, pattern: /^[A-Z]{3}$/ },
  email: { kind: 'email', severity: 'warning' },
} satisfies FieldSpec;

describe('tabular: validateRows', () => {
  it('types accepted rows and lists every refused cell as { line, field, code, value }', () => {
    const { accepted, refused } = validateRows(
      [
        {
          line: 2,
          values: { firstName: ' Zoé ', gender: 'Femme', birthDate: '09/09/2015', nationality: 'bel' },
        },
        { line: 3, values: { gender: 'Q', birthDate: '31/02/2015', age: '200', nationality: 'Belgium' } },
        { line: 4, values: { firstName: 'Al', gender: 'h', age: '41', email: 'not-a-mail' } },
        { line: 5, values: { firstName: 'Bo', gender: 'M', birthDate: '2030-01-01' } },
      ],
      spec,
    );
    expect(accepted.map((r) => r.values)).toEqual([
      { firstName: 'Zoé', gender: 'F', birthDate: '2015-09-09', nationality: 'BEL' },
      { firstName: 'Al', gender: 'M', age: 41 },
    ]);
    expect(accepted[1]!.warnings).toEqual([
      { line: 4, field: 'email', code: 'BAD_EMAIL', value: 'not-a-mail' },
    ]);
    expect(refused.map((r) => r.errors)).toEqual([
      [
        { line: 3, field: 'firstName', code: 'MISSING_FIELD' },
        { line: 3, field: 'gender', code: 'UNKNOWN_GENDER', value: 'Q' },
        { line: 3, field: 'birthDate', code: 'BAD_DATE', value: '31/02/2015' },
        { line: 3, field: 'age', code: 'BAD_AGE', value: '200' },
        { line: 3, field: 'nationality', code: 'BAD_VALUE', value: 'Belgium' },
      ],
      [{ line: 5, field: 'birthDate', code: 'BAD_DATE', value: '2030-01-01' }],
    ]);
  });

  it('treats a blank cell as an absent field', () => {
    expect(validateRow({ line: 2, values: { firstName: '  ', gender: 'F', age: '' } }, spec).errors).toEqual([
      { line: 2, field: 'firstName', code: 'MISSING_FIELD' },
    ]);
  });

  it('reads times against the rule’s day start', () => {
    const day = Date.UTC(2026, 10, 23);
    const row = validateRow(
      { line: 7, values: { time: '9:00:00' } },
      { time: { kind: 'time', dayStartMs: day } },
    );
    expect(row.values.time).toBe(day + 9 * 3_600_000);
  });

  it('takes the mapped cells of a sheet row by column index', () => {
    expect(mappedValues(['1', '', 'Zoé'], { bib: 0, club: 1, firstName: 2, chip: -1 })).toEqual({
      bib: '1',
      firstName: 'Zoé',
    });
  });
});
