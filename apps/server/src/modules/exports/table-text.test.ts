import type { ColumnDef } from '@tempora/contracts';
import { describe, expect, it } from 'vitest';
import { csvLine } from './csv.ts';
import { cellText, neutralise, searchTableRows, shownTimeMs } from './table-text.ts';
import { signCertificate, verifyCertificate } from './verify-token.ts';
import { typedCell } from './xlsx.ts';

const column = (Type: ColumnDef['Type'], FieldIdx = 0, Decimals?: number): ColumnDef => ({
  FieldIdx,
  Colspan: 1,
  Bold: false,
  Italic: false,
  Alignment: 'Left',
  UrlColumnIdx: -1,
  Settings: Decimals === undefined ? {} : { Decimals },
  Title: { en: 'x', fr: 'x' },
  Type,
});

describe('export cells', () => {
  it('neutralises every formula trigger and nothing else', () => {
    for (const lead of ['=', '+', '-', '@', '\t', '\r'])
      expect(neutralise(`${lead}SUM(A1)`)).toBe(`'${lead}SUM(A1)`);
    for (const safe of ['', 'Zoë', '1:02:03', "'quoted", ' =late']) expect(neutralise(safe)).toBe(safe);
    // Issue 41: a signed number or time is a value, not a formula: gaps stay as written.
    for (const value of ['+0:50', '+1:02:03', '-1', '-2.5', '+12,5']) expect(neutralise(value)).toBe(value);
    for (const formula of ['+0:50+cmd', '-1+2', '=1+2', '+A1'])
      expect(neutralise(formula)).toBe(`'${formula}`);
  });

  it('reads a shown time back and types XLSX cells by their column (issue 41)', () => {
    expect(shownTimeMs('1:02:03')).toBe(3_723_000);
    expect(shownTimeMs('45:12')).toBe(2_712_000);
    expect(shownTimeMs('21')).toBe(21_000);
    expect(shownTimeMs('+0:50')).toBe(50_000);
    expect(shownTimeMs('\u22121:02,5')).toBe(-62_500);
    expect(shownTimeMs('7:04 · 2,5 km')).toBeNull();
    expect(typedCell('1:00:00', 'duration')).toBe(1 / 24);
    expect(typedCell('+0:50', 'gap')).toBeCloseTo(50 / 86_400, 12);
    expect(typedCell('42', 'integer')).toBe(42);
    expect(typedCell('Not started', 'integer')).toBe('Not started');
    expect(typedCell('1985-03-02', 'date')).toEqual(new Date('1985-03-02T00:00:00Z'));
    expect(typedCell('=1+2', 'text')).toBe('=1+2');
    expect(typedCell('', 'integer')).toBeNull();
  });

  it('quotes CSV fields holding the separator, quotes or line breaks (RFC 4180)', () => {
    expect(csvLine(['a;b', 'say "hi"', 'x\ny', 'plain'], ';')).toBe('"a;b";"say ""hi""";"x\ny";plain\r\n');
    expect(csvLine(['a;b', 'c,d'], ',')).toBe('a;b,"c,d"\r\n');
    expect(csvLine(['=1+2'], ',')).toBe("'=1+2\r\n");
  });

  it('formats time cells as the report page does (spec §5), html as text', () => {
    expect(cellText(column('time'), 3_723_000)).toBe('1:02:03');
    expect(cellText(column('time'), 0)).toBe('');
    expect(cellText(column('time', 0, 2), 61_234)).toBe('1:01.23');
    expect(cellText(column('time'), 'DNF')).toBe('DNF');
    expect(cellText(column('html'), '<b>Fast</b> &amp; <i>furious</i>')).toBe('Fast & furious');
    expect(cellText(column('text'), null)).toBe('');
  });

  it('shows status codes as their label in the language asked, never the code', () => {
    const rank: ColumnDef = { ...column('text'), Settings: { Labels: 'status' } };
    expect(cellText(rank, 'notStarted', 'en')).toBe('Not started');
    expect(cellText(rank, 'notStarted', 'fr')).toBe('Non parti');
    expect(cellText(rank, 'DNF', 'fr')).toBe('Abandon');
    expect(cellText(rank, 'DNS', 'fr')).toBe('Non partant');
    expect(cellText(rank, 'DSQ', 'en')).toBe('DSQ');
    expect(cellText(rank, '12', 'fr')).toBe('12');
    expect(cellText(rank, '', 'fr')).toBe('');
    // A column without Labels leaves a club named like a code alone.
    expect(cellText(column('text'), 'DNF', 'fr')).toBe('DNF');
  });

  it('searches as the report page: exact bib first, numbers by bib prefix, text without accents', () => {
    const rows = [
      ['12', 'ANDRÉ Zoë'],
      ['120', 'MARTIN Paul'],
      ['7', 'DUPONT André'],
    ];
    const columns = [column('text', 1)];
    expect(searchTableRows(rows, 0, '12', columns).map((r) => r[0])).toEqual(['12', '120']);
    expect(searchTableRows(rows, 0, 'andre', columns).map((r) => r[0])).toEqual(['12', '7']);
    expect(searchTableRows(rows, 0, '  ', columns)).toBe(rows);
  });
});

describe('certificate tokens', () => {
  const secret = Buffer.alloc(32, 7);
  const claim = { trackingKey: 'Ab_c-12', netMs: 10_123_456, issuedAt: 1_780_000_000_000 };

  it('round-trips a genuine token', () => {
    expect(verifyCertificate(secret, signCertificate(secret, claim))).toEqual({
      ...claim,
      netMs: 10_123_456,
    });
  });

  it('refuses any changed character, another secret, or a malformed token', () => {
    const token = signCertificate(secret, claim);
    for (let k = 0; k < token.length; k++) {
      const c = token[k]!;
      const other = c === 'a' ? 'b' : c === '.' ? '_' : 'a';
      expect(verifyCertificate(secret, token.slice(0, k) + other + token.slice(k + 1))).toBeNull();
    }
    expect(verifyCertificate(Buffer.alloc(32, 8), token)).toBeNull();
    expect(verifyCertificate(secret, `${token}.x`)).toBeNull();
    expect(verifyCertificate(secret, '')).toBeNull();
  });
});
