import { categoryIndexOf } from './categories.ts';
import { addString, createStringTable, lookupString, type StringTable } from './string-table.ts';
import type { Bib, Gender, Participant, RaceDefinition, ResultRules } from './types.ts';

/** Genders in the order of their gender-ranking groups. */
export const GENDERS: readonly Gender[] = ['M', 'F', 'X'];

/**
 * Everything about a race that passings never change, resolved once into arrays indexed by
 * participant (the order of the participants given) and by slot: slot 0 is the start mat,
 * slot p + 1 is ranked point p. Passings then cost two look-ups each.
 */
export interface RaceIndex {
  readonly race: RaceDefinition;
  readonly participants: readonly Participant[];
  readonly rules: ResultRules;
  /** Number of participants. */
  readonly n: number;
  /** Number of ranked points; the last one is the finish. */
  readonly pointCount: number;
  /** Ranked points + 1 (the start mat, even when the race has none). */
  readonly slotCount: number;
  readonly pointIds: readonly string[];
  readonly distanceM: Float64Array;
  readonly slotByPointId: ReadonlyMap<string, number>;
  readonly byBib: StringTable;
  readonly byChip: StringTable;
  /** Gun, wave or individual start time; NaN when the race has none for this runner. */
  readonly scheduledStart: Float64Array;
  /** Index into `GENDERS`. */
  readonly genderOf: Int32Array;
  /** Index into `race.categories`, or -1. */
  readonly categoryOf: Int32Array;
  /** Gender and category counts, to size their rankings. */
  readonly genderSizes: Int32Array;
  readonly categorySizes: Int32Array;
  /** Per participant: 0 never ranked (DNS, DSQ), 1 ranked at splits only (DNF), 2 everywhere. */
  readonly rankLevel: Uint8Array;
  /** Per slot: 1 when the last read of a burst counts, 0 for the first. */
  readonly takesLastRead: Uint8Array;
  /** Bibs and chips given to more than one participant: the first one keeps them. */
  readonly conflicts: readonly string[];
}

function scheduledStartOf(race: RaceDefinition, p: Participant, waves: Map<string, number>): number {
  const gun = race.gunTime ?? Number.NaN;
  if (race.startType === 'individual') return p.startTime ?? gun;
  if (race.startType === 'waves' && p.wave !== undefined) return waves.get(p.wave) ?? gun;
  return gun;
}

function rankLevelOf(p: Participant): number {
  // DSQ and DNS runners appear with their times but never take a rank from anyone; a DNF keeps
  // the ranks of the splits it reached but is never ranked at the finish.
  if (p.status === 'DSQ' || p.status === 'DNS') return 0;
  return p.status === 'DNF' ? 1 : 2;
}

function slotsOf(race: RaceDefinition, rules: ResultRules) {
  const slotByPointId = new Map<string, number>();
  if (race.startPoint) slotByPointId.set(race.startPoint.id, 0);
  const takesLastRead = new Uint8Array(race.points.length + 1);
  takesLastRead[0] = rules.startRead === 'last' ? 1 : 0;
  race.points.forEach((point, p) => {
    slotByPointId.set(point.id, p + 1);
    const choice = rules.pointReadOverrides?.[point.id] ?? rules.pointRead;
    takesLastRead[p + 1] = choice === 'last' ? 1 : 0;
  });
  return { slotByPointId, takesLastRead };
}

/** Category of a participant; thousands share a gender and an age, so each pair is looked up once. */
function categoryFinder(race: RaceDefinition) {
  const byGenderAge = new Map<number, number>();
  return (p: Participant, g: number): number => {
    if (p.category !== undefined || p.age === undefined || !Number.isInteger(p.age))
      return categoryIndexOf(race, p);
    const key = p.age * GENDERS.length + g;
    const known = byGenderAge.get(key);
    if (known !== undefined) return known;
    const c = categoryIndexOf(race, p);
    byGenderAge.set(key, c);
    return c;
  };
}

/**
 * Resolves a race, its participants and rules into the index the engine runs on. One pass over
 * the participants reads everything from each: loaded from a database they lie all over the
 * heap, and a pass per field cost four times as much.
 */
export function indexRace(
  race: RaceDefinition,
  participants: readonly Participant[],
  rules: ResultRules,
): RaceIndex {
  const n = participants.length;
  const waves = new Map((race.waves ?? []).map((w) => [w.id, w.startTime] as const));
  const byBib = createStringTable(n);
  // Sized for none: chips are optional, and a table grows as chips come.
  const byChip = createStringTable(0);
  const scheduledStart = new Float64Array(n);
  const genderOf = new Int32Array(n);
  const categoryOf = new Int32Array(n);
  const genderSizes = new Int32Array(GENDERS.length);
  const categorySizes = new Int32Array(race.categories.length);
  const rankLevel = new Uint8Array(n);
  const findCategory = categoryFinder(race);
  for (let i = 0; i < n; i++) {
    const p = participants[i]!;
    addString(byBib, p.bib, i);
    if (p.chips) for (const chip of p.chips) addString(byChip, chip, i);
    scheduledStart[i] = scheduledStartOf(race, p, waves);
    const g = Math.max(0, GENDERS.indexOf(p.gender));
    genderOf[i] = g;
    genderSizes[g]!++;
    const c = findCategory(p, g);
    categoryOf[i] = c;
    if (c >= 0) categorySizes[c]!++;
    rankLevel[i] = rankLevelOf(p);
  }
  return {
    race,
    participants,
    rules,
    n,
    pointCount: race.points.length,
    slotCount: race.points.length + 1,
    pointIds: race.points.map((point) => point.id),
    distanceM: Float64Array.from(race.points, (point) => point.distanceM),
    ...slotsOf(race, rules),
    byBib,
    byChip,
    scheduledStart,
    genderOf,
    categoryOf,
    genderSizes,
    categorySizes,
    rankLevel,
    conflicts: [...byBib.duplicates.map((b) => `bib ${b}`), ...byChip.duplicates.map((c) => `chip ${c}`)],
  };
}

/** Participant index a passing belongs to (bib first, else chip), or -1 when nobody has it. */
export function participantOfPassing(
  index: RaceIndex,
  bib: Bib | undefined,
  chip: string | undefined,
): number {
  if (bib !== undefined) {
    const i = lookupString(index.byBib, bib);
    if (i >= 0) return i;
  }
  if (chip !== undefined) return lookupString(index.byChip, chip);
  return -1;
}

/** Whether participant i takes a rank at ranked point p. */
export function isRankedAt(index: RaceIndex, i: number, p: number): boolean {
  const level = index.rankLevel[i]!;
  return level === 2 || (level === 1 && p < index.pointCount - 1);
}
