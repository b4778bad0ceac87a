import { describe, expect, it } from 'vitest';
import { ageOnRaceDay, categoryIndexOf } from './categories.ts';
import type { Participant, RaceDefinition } from './types.ts';

const race: RaceDefinition = {
  id: 'r',
  name: 'R',
  date: '2026-05-31',
  startType: 'mass',
  points: [],
  categories: [
    { id: 'elite', name: 'Elite', minAge: 999 },
    { id: 'F40', name: 'F 40-49', gender: 'F', minAge: 40, maxAge: 49 },
    { id: 'open', name: 'Open' },
  ],
};
const runner = (p: Partial<Participant>): Participant => ({
  bib: '1',
  firstName: 'A',
  lastName: 'B',
  gender: 'F',
  status: 'registered',
  ...p,
});

describe('categories (product.md "Race": gender + age on race day, or explicit)', () => {
  it('counts age on the calendar of race day', () => {
    expect(ageOnRaceDay('1986-05-31', '2026-05-31')).toBe(40);
    expect(ageOnRaceDay('1986-06-01', '2026-05-31')).toBe(39);
    expect(ageOnRaceDay('2000-02-29', '2026-02-28')).toBe(25);
    expect(ageOnRaceDay('not a date', '2026-05-31')).toBeUndefined();
  });

  it('takes an explicit category first, then the first match in the organiser order', () => {
    expect(categoryIndexOf(race, runner({ category: 'elite', age: 20 }))).toBe(0);
    expect(categoryIndexOf(race, runner({ birthDate: '1986-05-31' }))).toBe(1);
    expect(categoryIndexOf(race, runner({ gender: 'M', age: 45 }))).toBe(2);
    expect(categoryIndexOf(race, runner({}))).toBe(2);
    expect(categoryIndexOf({ ...race, categories: race.categories.slice(0, 2) }, runner({ age: 30 }))).toBe(
      -1,
    );
  });
});
