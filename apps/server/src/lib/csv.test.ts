import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { detectDelimiter, parseCsv } from './csv.ts';

describe('detectDelimiter', () => {
  it('picks the most frequent of , ; and tab outside quotes', () => {
    expect(detectDelimiter('Bib;Nom;Prénom')).toBe(';');
    expect(detectDelimiter('Bib,Name')).toBe(',');
    expect(detectDelimiter('Bib\tName\tClub')).toBe('\t');
    expect(detectDelimiter('"a;b;c",d,e')).toBe(',');
    expect(detectDelimiter('single')).toBe(',');
  });
});

describe('parseCsv', () => {
  it('reads quotes, escaped quotes, multi-line fields, CRLF, BOM; skips blank rows; numbers lines', async () => {
    const text = '\ufeffBib;Name;Club\r\n1;"Kirui; Geoffrey";"say ""hi"""\n\n;;\n2;"two\nlines";x\r\n3;z';
    const table = await parseCsv(text);
    expect(table.delimiter).toBe(';');
    expect(table.header).toEqual(['Bib', 'Name', 'Club']);
    expect(table.rows).toEqual([
      ['1', 'Kirui; Geoffrey', 'say "hi"'],
      ['2', 'two\nlines', 'x'],
      ['3', 'z'],
    ]);
    expect(table.lines).toEqual([2, 6, 7]);
  });

  it('gives the same table whatever the chunk size, from a string, a Buffer or a stream', async () => {
    const text = 'a\tb\n"x\ty"\t2\n3\t"4\n5"\n';
    const expected = await parseCsv(text);
    expect(expected.rows).toEqual([
      ['x\ty', '2'],
      ['3', '4\n5'],
    ]);
    expect(await parseCsv(text, { chunkSize: 1 })).toEqual(expected);
    expect(await parseCsv(Buffer.from(text))).toEqual(expected);
    expect(
      await parseCsv(Readable.from([Buffer.from(text.slice(0, 5)), Buffer.from(text.slice(5))])),
    ).toEqual(expected);
  });

  it('keeps a stray quote inside an unquoted field; honours comments and a given delimiter', async () => {
    expect((await parseCsv('a,b\n5"6,x')).rows).toEqual([['5"6', 'x']]);
    const ingest = await parseCsv('# decoder dump\nC1;1000;finish\n', {
      noHeader: true,
      comment: '#',
      delimiter: ';',
    });
    expect(ingest).toMatchObject({ header: [], rows: [['C1', '1000', 'finish']], lines: [2] });
  });

  it('refuses what it cannot read with a 400 problem naming the line', async () => {
    await expect(parseCsv('a,b\n1,2\n"open,3\n4,5')).rejects.toMatchObject({
      status: 400,
      code: 'CSV_INVALID',
      message: expect.stringMatching(/^Line \d+: Quote Not Closed/),
    });
    await expect(parseCsv('')).rejects.toMatchObject({ status: 400, code: 'CSV_EMPTY' });
    await expect(parseCsv('\n\n;;\n')).rejects.toMatchObject({ code: 'CSV_EMPTY' });
    await expect(parseCsv(`a\n${'x\n'.repeat(11)}`, { maxRows: 10 })).rejects.toMatchObject({
      status: 400,
      code: 'CSV_TOO_LARGE',
    });
    await expect(parseCsv(`a\n"${'x'.repeat(200)}"`, { maxRecordLength: 100 })).rejects.toMatchObject({
      code: 'CSV_INVALID',
    });
  });

  it('yields to the event loop between chunks of a large file', async () => {
    const text = `Bib;Name\n${Array.from({ length: 20_000 }, (_, k) => `${k};Runner ${k}`).join('\n')}`;
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const parsing = parseCsv(text, { chunkSize: 4096 });
    const table = await parsing;
    clearInterval(timer);
    expect(table.rows).toHaveLength(20_000);
    expect(table.lines.at(-1)).toBe(20_001);
    // Timers ran while the file was being read: the parse did not hold the loop from start to end.
    expect(ticks).toBeGreaterThan(5);
  });
});
