import { ageOnRaceDay, type CategoryDef, categoryIndexOf, type RaceDefinition } from '@tempora/domain';

/**
 * Entry validation as for participants (issue 18): a race of the event, names, gender and birth
 * date; the category from gender and age on race day (the race's categories, first match); an
 * entry with no name is a placeholder (a place bought, the name given later).
 */

export interface EntryData {
  raceId: string | null;
  firstName: string;
  lastName: string;
  gender: 'M' | 'F' | 'X' | null;
  birthDate: string | null;
}

export interface RaceRule {
  id: string;
  date: string;
  categories: CategoryDef[];
  ageBasis?: 'raceDay' | 'birthYear';
}

export interface EntryAssessment {
  state: 'placeholder' | 'submitted' | 'valid';
  missing: string[];
  category: string | null;
  /** A field error that refuses the input (not a missing field). */
  error: { field: string; message: string; code: string } | null;
}

const REQUIRED = ['raceId', 'firstName', 'lastName', 'gender', 'birthDate'] as const;

export function assessEntry(e: EntryData, race: RaceRule | undefined): EntryAssessment {
  const missing = REQUIRED.filter((f) => !e[f]);
  const state = !e.firstName && !e.lastName ? 'placeholder' : missing.length ? 'submitted' : 'valid';
  if (e.raceId && !race) {
    return {
      state,
      missing,
      category: null,
      error: { field: 'raceId', message: 'not a race of this event', code: 'RACE_NOT_FOUND' },
    };
  }
  let category: string | null = null;
  if (race && e.birthDate) {
    const age = ageOnRaceDay(e.birthDate, race.date);
    if (age === undefined || age < 0 || age > 120) {
      return {
        state,
        missing,
        category: null,
        error: { field: 'birthDate', message: 'not a plausible birth date', code: 'VALIDATION_FAILED' },
      };
    }
  }
  if (race && e.gender && e.birthDate && race.categories.length) {
    const definition = { categories: race.categories, date: race.date } as unknown as RaceDefinition;
    const k = categoryIndexOf(definition, {
      bib: '',
      firstName: e.firstName,
      lastName: e.lastName,
      gender: e.gender,
      birthDate: e.birthDate,
      // Age reached during the race's year (the console's `birthYear` basis), else on race day.
      ...(race.ageBasis === 'birthYear'
        ? { age: Number(race.date.slice(0, 4)) - Number(e.birthDate.slice(0, 4)) }
        : {}),
      status: 'registered',
    });
    if (k < 0) {
      return {
        state,
        missing,
        category: null,
        error: {
          field: 'birthDate',
          message: 'no category of this race for this gender and age on race day',
          code: 'NO_CATEGORY',
        },
      };
    }
    category = race.categories[k]!.id;
  }
  return { state, missing, category, error: null };
}
