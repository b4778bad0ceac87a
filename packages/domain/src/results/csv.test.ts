import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.ts';

describe('parseCsv (RFC 4180)', () => {
  it('reads quoted fields, doubled quotes, CRLF and a BOM, with line numbers', () => {
    const rows = parseCsv('\ufeffa,b\r\n"Kirui, Geoffrey","say ""hi"""\n"two\nlines",x');
    expect(rows).toEqual([
      { fields: ['a', 'b'], line: 1 },
      { fields: ['Kirui, Geoffrey', 'say "hi"'], line: 2 },
      { fields: ['two\nlines', 'x'], line: 3 },
    ]);
  });

  it('keeps empty fields and never throws on an open quote', () => {
    expect(parseCsv('a,,\n').map((r) => r.fields)).toEqual([['a', '', '']]);
    expect(parseCsv('"open').map((r) => r.fields)).toEqual([['open']]);
  });
});
