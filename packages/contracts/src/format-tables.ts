/**
 * The live tables of races that are not road races (issue 31), as the server sends them and the
 * web shows them: one shape for both sides (issue 30: the web declares no API type of its own).
 *   GET results/contexts/{db}/races/{raceId}/laps  → LapTable & Published
 *   GET results/contexts/{db}/races/{raceId}/legs  → LegTable & Published
 */

/** Where results stand: provisional until the timekeeper publishes, then open to protests, then official. */
export interface PublicationState {
  state: 'provisional' | 'protestOpen' | 'official';
  protestEndsMs?: number;
}

/** A table with its publication state, as the API answers it. */
export type Published<T> = T & {
  publication: PublicationState;
  /** The event's IANA time zone: the table's times of day are shown there (issue 43). */
  timeZone?: string | null;
};

/** One row of a lap race's live table: what spectators of a criterium, 24 h or backyard read. */
export interface LapTableRow {
  rank: number | null;
  bib: string;
  name: string;
  status: string;
  laps: number;
  lastLapMs: number | null;
  bestLapMs: number | null;
  /** From the runner's start to their last counted crossing. */
  elapsedMs: number | null;
  distanceM: number;
  /** Time-limited races before the limit: distance at the current pace at the limit. */
  projectedDistanceM: number | null;
  lapsDown: number;
  /**
   * The lap cut-off this rider missed (`lap` done by `deadlineMs`): DNF or over time with the
   * reason; `overridden` when the desk reinstated them (shown, not applied). Desk key `lap:{lap}`.
   */
  cutoff: {
    lap: number;
    pointKey: string;
    outcome: 'DNF' | 'overTime';
    reason: 'late' | 'notReached';
    deadlineMs: number;
    readMs: number | null;
    overridden: boolean;
  } | null;
}

/** The lap chart: a top rider's position after each lap (null: lap not ridden). */
export interface LapChartRider {
  bib: string;
  name: string;
  positions: (number | null)[];
}

export interface LapTable {
  raceId: string;
  name: string;
  format: 'laps' | 'timeLimited' | 'backyard';
  leaderLaps: number;
  /** Criterium: laps the leader still has to ride. */
  lapsToGo: number | null;
  rows: LapTableRow[];
  /** The lap chart of the top riders (at most 10, in the table's order), from lap 1. */
  chart: LapChartRider[];
}

/** One leg's cell: its time and rank (overall; gender for multisport). */
export interface LegCell {
  timeMs: number | null;
  rank: number | null;
  genderRank: number | null;
}

export interface LegTableRow {
  rank: number | null;
  bib: string;
  name: string;
  status: string;
  totalMs: number | null;
  legs: LegCell[];
  /** The leg being done (on course only). */
  currentLeg: number | null;
  /** A relay team's members by leg (names; empty when none are stored). */
  members: string[][];
  /** Who is on course now (a relay: the current leg's members). */
  onCourse: string[];
  /**
   * The cut-off this athlete (team) missed: DNF or over time with the reason; `overridden` when
   * the desk reinstated them (shown, not applied).
   */
  cutoff: {
    pointKey: string;
    outcome: 'DNF' | 'overTime';
    reason: 'late' | 'notReached';
    deadlineMs: number;
    readMs: number | null;
    overridden: boolean;
  } | null;
}

export interface LegTable {
  raceId: string;
  name: string;
  format: 'multisport' | 'relay';
  legs: { key: string; name: { en: string; fr: string }; kind: 'discipline' | 'transition' | 'leg' }[];
  rows: LegTableRow[];
}
