import type { AgeBasis, CategoryDef, Gender, Participant, RaceDefinition } from './types.ts';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Age in whole years on race day from two `YYYY-MM-DD` dates, or undefined when either is not a
 * date. Counted on the calendar, not from milliseconds, so that time zones and leap years never
 * move a birthday (a runner born on race day's date is a year older that very day).
 */
export function ageOnRaceDay(birthDate: string, raceDate: string): number | undefined {
  const b = DATE.exec(birthDate);
  const r = DATE.exec(raceDate);
  if (!b || !r) return undefined;
  const [by, bm, bd] = [Number(b[1]), Number(b[2]), Number(b[3])];
  const [ry, rm, rd] = [Number(r[1]), Number(r[2]), Number(r[3])];
  const hadBirthday = rm > bm || (rm === bm && rd >= bd);
  return ry - by - (hadBirthday ? 0 : 1);
}

/**
 * Age by birth year: race year − birth year (the age reached during the race's calendar year, the
 * rule of World Athletics masters and French federation categories).
 */
export function ageByBirthYear(birthDate: string, raceDate: string): number | undefined {
  const b = DATE.exec(birthDate);
  const r = DATE.exec(raceDate);
  if (!b || !r) return undefined;
  return Number(r[1]) - Number(b[1]);
}

/**
 * A participant's age for categories: the given age, else from the birth date, on race day or by
 * birth year (the race's `ageBasis`).
 */
export function participantAge(
  participant: Participant,
  raceDate: string,
  basis: AgeBasis = 'raceDay',
): number | undefined {
  if (participant.age !== undefined) return participant.age;
  if (participant.birthDate === undefined) return undefined;
  return basis === 'birthYear'
    ? ageByBirthYear(participant.birthDate, raceDate)
    : ageOnRaceDay(participant.birthDate, raceDate);
}

function matches(category: CategoryDef, gender: Gender, age: number | undefined): boolean {
  if (category.gender !== undefined && category.gender !== gender) return false;
  if (category.minAge === undefined && category.maxAge === undefined) return true;
  if (age === undefined) return false;
  if (category.minAge !== undefined && age < category.minAge) return false;
  return category.maxAge === undefined || age <= category.maxAge;
}

/**
 * Index in `race.categories` of the participant's category, or -1. An explicit category wins
 * (organisers place elites or teams by hand); otherwise the first category matching gender and
 * age on race day, so that overlapping definitions resolve in the organiser's order.
 */
export function categoryIndexOf(
  race: Pick<RaceDefinition, 'categories' | 'date' | 'ageBasis'>,
  participant: Participant,
): number {
  if (participant.category !== undefined) {
    return race.categories.findIndex((c) => c.id === participant.category);
  }
  const age = participantAge(participant, race.date, race.ageBasis);
  return race.categories.findIndex((c) => matches(c, participant.gender, age));
}
