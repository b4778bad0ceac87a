import type { Millis } from '../time-format.ts';

/** A bib as printed on the runner: a string, as bibs may hold letters (`F3`, product.md "Participant"). */
export type Bib = string & { readonly __brand?: 'Bib' };

/** Gender as registered; `X` is non-binary and gets its own gender ranking. */
export type Gender = 'M' | 'F' | 'X';

/** How runners leave the start line (product.md "Race"). */
export type StartType = 'mass' | 'waves' | 'individual';

/** A timing point: a mat or a decoder at a distance from the start. */
export interface TimingPoint {
  readonly id: string;
  readonly name: string;
  /** The name spectators read in French; `name` (English) when absent. */
  readonly nameFr?: string;
  /** Distance from the start line in metres; pace and speed divide by it. */
  readonly distanceM: number;
}

/** A wave of a wave start: the runners of this wave leave at `startTime`. */
export interface Wave {
  readonly id: string;
  readonly startTime: Millis;
}

/**
 * A category: gender and age range on race day (bounds inclusive, both optional), or a category a
 * participant is put in explicitly through `Participant.category` with the same id.
 */
export interface CategoryDef {
  readonly id: string;
  readonly name: string;
  readonly gender?: Gender;
  readonly minAge?: number;
  readonly maxAge?: number;
}

/** How a category's age is counted: on race day, or race year − birth year. */
export type AgeBasis = 'raceDay' | 'birthYear';

/** What the results engine needs to know about a race. */
export interface RaceDefinition {
  readonly id: string;
  readonly name: string;
  /** Race day as `YYYY-MM-DD`: ages for categories are counted on this day. */
  readonly date: string;
  readonly startType: StartType;
  /** Gun time of a mass start; fallback start of individual starters without their own time. */
  readonly gunTime?: Millis;
  readonly waves?: readonly Wave[];
  /** The start mat, if any: its read is a runner's net start. Never ranked. */
  readonly startPoint?: TimingPoint;
  /** Ranked timing points in course order: splits, then the finish last. */
  readonly points: readonly TimingPoint[];
  /** Categories in priority order: a participant falls in the first one that matches. */
  readonly categories: readonly CategoryDef[];
  /** How ages are counted for categories (default: on race day). */
  readonly ageBasis?: AgeBasis;
}

/** Registration status; started/finished are never typed in, they come from passings. */
export type RegistrationStatus = 'registered' | 'DNS' | 'DNF' | 'DSQ';

/** A participant of one race (product.md "Participant"). */
export interface Participant {
  readonly bib: Bib;
  readonly chips?: readonly string[];
  readonly firstName: string;
  readonly lastName: string;
  readonly gender: Gender;
  /** Age on race day; wins over `birthDate` when both are given. */
  readonly age?: number;
  /** `YYYY-MM-DD`. */
  readonly birthDate?: string;
  readonly nationality?: string;
  readonly club?: string;
  /** Id of a `RaceDefinition.waves` entry, for wave starts. */
  readonly wave?: string;
  /** Scheduled start of an individual start (time trial). */
  readonly startTime?: Millis;
  readonly status: RegistrationStatus;
  /** Explicit category id, which wins over gender and age. */
  readonly category?: string;
}

/** Where a passing came from (product.md "Passing"). */
export type PassingSource = 'decoder' | 'manual' | 'import';

/**
 * One read of a chip or bib at a timing point (product.md "Passing"). The same `id` twice, or
 * the same runner at the same point and millisecond, is one read. A correction never erases: the
 * read is sent again with `deleted: true` (same id, runner, point and time), which removes it and
 * its copies for good, whatever the order in which they arrive.
 */
export interface Passing {
  readonly id: string;
  readonly bib?: Bib;
  readonly chip?: string;
  readonly pointId: string;
  /** UTC epoch milliseconds. */
  readonly timeMs: Millis;
  readonly source: PassingSource;
  readonly device?: string;
  readonly deleted?: boolean;
}

/** Which read of a burst at one mat counts. */
export type ReadChoice = 'first' | 'last';

/** The timing rules of a race: all choices a timekeeper makes. */
export interface ResultRules {
  /** Rank on chip (net) time or gun time. */
  readonly rankBy: 'net' | 'gun';
  /** The start mat's read: the last of the burst is when the runner actually leaves. */
  readonly startRead: ReadChoice;
  /** Other mats: the first read is when the runner's chip crosses the line. */
  readonly pointRead: ReadChoice;
  /** Per point overrides of `pointRead`, by point id. */
  readonly pointReadOverrides?: Readonly<Record<string, ReadChoice>>;
  /** Reads within this window after a runner's first read at a mat are re-reads of one crossing. */
  readonly rereadWindowMs: number;
  /** Even pace used to predict a runner when neither the runner nor the field has a split. */
  readonly fallbackPaceMsPerKm: number;
}

/** Usual rules of road races: net ranking, last start read, first read elsewhere, 10 s window. */
export const defaultRules: ResultRules = {
  rankBy: 'net',
  startRead: 'last',
  pointRead: 'first',
  rereadWindowMs: 10_000,
  fallbackPaceMsPerKm: 360_000,
};

/** A participant's status in the results. */
export type ResultStatus = 'notStarted' | 'onCourse' | 'finished' | 'DNS' | 'DNF' | 'DSQ';

/** Which ranking a rank belongs to. */
export type RankScope = 'overall' | 'gender' | 'category';
