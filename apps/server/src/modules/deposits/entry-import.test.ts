import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { parseEntryCsv } from './entry-import.ts';

const races = [{ id: 'city-10k', name: 'City 10K' }];

describe('deposits: a captain’s CSV of entries', () => {
  it('reads genders and dates as every import does (the tabular pipeline’s one row validation)', () => {
    const csv =
      'prénom;nom;sexe;naissance;course;email\nAnne;Roy;Femme;12.03.1980;City 10K;anne@club.be\nLuc;Roy;homme;1981-4-2;city-10k;\n';
    expect(parseEntryCsv(csv, races)).toEqual([
      {
        raceId: 'city-10k',
        firstName: 'Anne',
        lastName: 'Roy',
        gender: 'F',
        birthDate: '1980-03-12',
        email: 'anne@club.be',
      },
      { raceId: 'city-10k', firstName: 'Luc', lastName: 'Roy', gender: 'M', birthDate: '1981-04-02' },
    ]);
  });

  it('lists every bad cell, worded as before, and imports nothing', () => {
    const csv = 'firstName,lastName,gender,birthDate,race,email\nA,B,Q,31/02/1980,nowhere,a@\n';
    const thrown = (() => {
      try {
        parseEntryCsv(csv, races);
      } catch (error) {
        return error as AppError;
      }
    })();
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown?.code).toBe('CSV_ROWS_INVALID');
    expect(thrown?.errors).toEqual([
      { field: 'row 2.race', message: "no race 'nowhere'" },
      { field: 'row 2.gender', message: 'M, F or X' },
      { field: 'row 2.birthDate', message: 'YYYY-MM-DD or DD/MM/YYYY' },
      { field: 'row 2.email', message: 'not an e-mail address' },
    ]);
  });
});
