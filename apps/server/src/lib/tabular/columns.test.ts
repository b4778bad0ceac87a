import { describe, expect, it } from 'vitest';
import { columnIndexes, fieldByHeader, guessColumns, unknownColumns } from './columns.ts';

const fold = (s: string) => s.toLowerCase().trim();

describe('guessColumns', () => {
  it('takes remembered columns the header still has, then the first free synonym', () => {
    const header = ['Dossard', 'Nom', 'Name', 'Prénom'];
    const synonyms = { bib: ['dossard', 'bib'], lastName: ['nom', 'name'], firstName: ['prénom'] };
    expect(guessColumns(header, synonyms, fold, null)).toEqual({
      bib: 'Dossard',
      lastName: 'Nom',
      firstName: 'Prénom',
    });
    expect(guessColumns(header, synonyms, fold, { lastName: 'Name', bib: 'Gone' })).toEqual({
      lastName: 'Name',
      bib: 'Dossard',
      firstName: 'Prénom',
    });
  });

  it('never gives one column to two fields', () => {
    expect(guessColumns(['Name'], { firstName: ['name'], lastName: ['name'] }, fold, null)).toEqual({
      firstName: 'Name',
    });
  });
});

describe('unknownColumns and columnIndexes', () => {
  it('lists the mapped columns the header lacks, worded as asked, skipping unmapped fields', () => {
    const header = ['Bib', 'Time'];
    const mapping = { bib: 'Bib', chip: 'Chip', point: undefined };
    expect(unknownColumns(header, mapping)).toEqual([{ field: 'chip', message: "no column 'Chip'" }]);
    expect(unknownColumns(header, mapping, { fieldPrefix: 'mapping.', where: ' in the sheet' })).toEqual([
      { field: 'mapping.chip', message: "no column 'Chip' in the sheet" },
    ]);
    expect(columnIndexes(header, { bib: 'Bib', time: 'Time', point: undefined })).toEqual({
      bib: 0,
      time: 1,
    });
  });
});

describe('fieldByHeader', () => {
  it('names the field of a header by its folded synonyms, the first field for a shared name', () => {
    const fieldOf = fieldByHeader({ firstName: ['prénom', 'name'], lastName: ['nom', 'name'] }, fold);
    expect([' Prénom', 'NOM', 'Name', 'Club'].map(fieldOf)).toEqual([
      'firstName',
      'lastName',
      'firstName',
      undefined,
    ]);
  });
});
