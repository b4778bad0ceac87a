import { z } from 'zod';
import { resultCorrectionSchema } from './corrections.ts';
import { localizedSchema, participantHitSchema } from './results.ts';

/**
 * The live views of a race (issue 7, issue 31) as `GET results/contexts/{db}/races/{raceId}/…`
 * answers them: one shape for the server and the web (issue 30).
 *   GET results/contexts/{db}/races                    → ContextRace[]
 *   GET results/contexts/{db}/races/{raceId}/stats     → RaceStats
 *   GET results/contexts/{db}/races/{raceId}/leaders   → LeadersBoard
 *   GET results/contexts/{db}/races/{raceId}/timetrial → TimeTrialBoard
 *   GET results/contexts/{db}/races/{raceId}/laps|legs → Published<LapTable|LegTable>
 *   GET results/contexts/{db}/races/{raceId}/course    → RaceCourse
 *   GET results/contexts/{db}/races/{raceId}/teams     → RaceTeams
 *   GET objects/{token}                                → SharedObject (a team or an athlete)
 */

const n = z.number();
const nn = z.number().nullable();

/** A timing point as the live views name it (`nameFr`: its French name, else the English one). */
const pointName = z.object({ key: z.string(), name: z.string(), nameFr: z.string(), distanceM: n });

export const contextRaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  distanceM: n,
  startType: z.string(),
  points: z.array(pointName),
});
export type ContextRace = z.infer<typeof contextRaceSchema>;

export const raceStatsSchema = z.object({
  raceId: z.string(),
  name: z.string(),
  distanceM: n,
  counts: z.object({
    registered: n,
    started: n,
    onCourse: n,
    finished: n,
    dnf: n,
    dns: n,
    dsq: n,
  }),
  /**
   * Per ranked point: how many passed it, how many are on course with it as their last point
   * (between it and the next), and how many abandoned after it (DNF with it as their last point).
   */
  points: z.array(pointName.extend({ passed: n, onCourse: n, dnf: n })),
  /** Finish times in buckets (net). */
  histogram: z.array(z.object({ fromMs: n, toMs: n, count: n })),
  categories: z.array(z.object({ id: z.string(), name: z.string(), registered: n, finished: n })),
  averagePaceMsPerKm: nn,
  /** The leader's margin over the 2nd, 3rd, 5th and 10th at every point (ms). */
  leaderGaps: z.array(z.object({ key: z.string(), distanceM: n, gaps: z.array(nn) })),
});
export type RaceStats = z.infer<typeof raceStatsSchema>;

export const leadersBoardSchema = z.object({
  raceId: z.string(),
  name: z.string(),
  /** The race's event, for the page's breadcrumbs (issue 43: the board lost the event). */
  event: z.object({ id: z.string(), name: z.string() }).optional(),
  points: z.array(
    pointName.extend({
      rows: z.array(
        z.object({
          rank: n,
          bib: z.string(),
          name: z.string(),
          nationality: z.string(),
          club: z.string(),
          netMs: n,
          gapMs: n,
          trackingKey: z.string(),
        }),
      ),
    }),
  ),
});
export type LeadersBoard = z.infer<typeof leadersBoardSchema>;

/** One rider of the time-trial board. */
export const timeTrialRiderSchema = z.object({
  bib: z.string(),
  name: z.string(),
  club: z.string(),
  nationality: z.string(),
  trackingKey: z.string(),
});
export type TimeTrialRider = z.infer<typeof timeTrialRiderSchema>;

/** The time-trial live board (issue 7 `/live/clm/{db}/{key}`). */
export const timeTrialBoardSchema = z.object({
  raceId: z.string(),
  name: z.string(),
  distanceM: n,
  startType: z.string(),
  /** The race clock when the board was made, and how fast it runs: the page ticks on from them. */
  now: n,
  clockRate: n,
  /** The gun (race time) and the event's time zone: times of day are shown on the wall clock, there. */
  gunTimeMs: nn,
  timeZone: z.string().nullable(),
  points: z.array(pointName),
  hotSeat: timeTrialRiderSchema.extend({ netMs: n }).nullable(),
  standings: z.array(timeTrialRiderSchema.extend({ rank: n, netMs: n, gapMs: n })),
  /** Riders finished in all; `standings` lists the first `size`. */
  finishers: n,
  /** Riders on course in all; `onCourse` lists the first 3 × size of them. */
  onCourseCount: n,
  onCourse: z.array(
    timeTrialRiderSchema.extend({
      /** Null when the rider's start is unknown (no gun, no start read: issue 41). */
      startMs: nn,
      /** Index into `points` of the last point reached, -1 before the first. */
      lastPoint: n,
      netMs: nn,
      rank: nn,
      gapMs: nn,
      predictedFinishNetMs: nn,
    }),
  ),
  /** `netMs` null for a finisher whose start is unknown (no start read, no scheduled start). */
  latestFinishers: z.array(timeTrialRiderSchema.extend({ rank: nn, netMs: nn, finishedAt: n })),
  nextStarters: z.array(timeTrialRiderSchema.extend({ startAt: n })),
});
export type TimeTrialBoard = z.infer<typeof timeTrialBoardSchema>;

const publicationSchema = z.object({
  state: z.enum(['provisional', 'protestOpen', 'official']),
  protestEndsMs: n.optional(),
});
const cutoff = {
  pointKey: z.string(),
  outcome: z.enum(['DNF', 'overTime']),
  reason: z.enum(['late', 'notReached']),
  deadlineMs: n,
  readMs: nn,
  overridden: z.boolean(),
};

/** A lap race's live table with its publication state (format-tables.ts `LapTable`). */
export const publishedLapTableSchema = z.object({
  raceId: z.string(),
  name: z.string(),
  format: z.enum(['laps', 'timeLimited', 'backyard']),
  leaderLaps: n,
  lapsToGo: nn,
  rows: z.array(
    z.object({
      rank: nn,
      bib: z.string(),
      name: z.string(),
      status: z.string(),
      laps: n,
      lastLapMs: nn,
      bestLapMs: nn,
      elapsedMs: nn,
      distanceM: n,
      projectedDistanceM: nn,
      lapsDown: n,
      cutoff: z.object({ lap: n, ...cutoff }).nullable(),
    }),
  ),
  chart: z.array(z.object({ bib: z.string(), name: z.string(), positions: z.array(nn) })),
  publication: publicationSchema,
  /** The event's IANA time zone: times of day (cut-offs, the protest window) are shown there (issue 43). */
  timeZone: z.string().nullable().optional(),
});

/** A multisport race's or a relay's legs with the publication state (format-tables.ts `LegTable`). */
export const publishedLegTableSchema = z.object({
  raceId: z.string(),
  name: z.string(),
  format: z.enum(['multisport', 'relay']),
  legs: z.array(
    z.object({ key: z.string(), name: localizedSchema, kind: z.enum(['discipline', 'transition', 'leg']) }),
  ),
  rows: z.array(
    z.object({
      rank: nn,
      bib: z.string(),
      name: z.string(),
      status: z.string(),
      totalMs: nn,
      legs: z.array(z.object({ timeMs: nn, rank: nn, genderRank: nn })),
      currentLeg: nn,
      members: z.array(z.array(z.string())),
      onCourse: z.array(z.string()),
      cutoff: z.object(cutoff).nullable(),
    }),
  ),
  publication: publicationSchema,
  /** The event's IANA time zone: times of day (cut-offs, the protest window) are shown there (issue 43). */
  timeZone: z.string().nullable().optional(),
});

/** A race's course: its line (a GeoJSON LineString of [lon, lat], as drawn in the console) and its points. */
export const raceCourseSchema = z.object({
  raceId: z.string(),
  name: z.string(),
  distanceM: n,
  course: z.object({ type: z.literal('LineString'), coordinates: z.array(z.tuple([n, n])) }).nullable(),
  points: z.array(pointName.extend({ lat: nn, lon: nn })),
});
export type RaceCourse = z.infer<typeof raceCourseSchema>;

/** One team of a race: a club's runners, its scorers' total, its rank among complete teams. */
export const teamResultSchema = z.object({
  name: z.string(),
  /** Rank among complete teams (ties share), null while incomplete. */
  rank: nn,
  /** Sum of the best scorers' net finish times; of the finishers so far while incomplete. */
  totalMs: n,
  finishers: n,
  members: z.array(
    z.object({
      bib: z.string(),
      name: z.string(),
      status: z.string(),
      netMs: nn,
      rank: nn,
      trackingKey: z.string(),
      scoring: z.boolean(),
    }),
  ),
});
export type TeamResult = z.infer<typeof teamResultSchema>;

/** A race's teams: each with its share token and size, without its members. */
export const raceTeamsSchema = z.object({
  raceId: z.string(),
  name: z.string(),
  scoring: n,
  teams: z.array(teamResultSchema.omit({ members: true }).extend({ token: z.string(), size: n })),
});
export type RaceTeams = z.infer<typeof raceTeamsSchema>;

/** One athlete, live (tracking pages). Times in ms; times of day as UTC epoch ms on the wall clock. */
export const athleteCardSchema = z.object({
  eventId: z.string(),
  db: z.string(),
  /** The event's IANA time zone: times of day are shown there, not in the browser's. */
  timeZone: z.string().nullable(),
  race: z.object({
    id: z.string(),
    name: z.string(),
    distanceM: n,
    /** `nameFr`: the point's name in French (its English `name` when the organiser gave none). */
    points: z.array(
      z.object({
        key: z.string(),
        name: z.string(),
        nameFr: z.string().optional(),
        distanceM: n,
        lat: nn,
        lon: nn,
      }),
    ),
  }),
  athlete: participantHitSchema.extend({ firstName: z.string(), lastName: z.string() }),
  status: z.string(),
  splits: z.array(
    z.object({
      pointKey: z.string(),
      timeOfDay: nn,
      gunMs: nn,
      netMs: nn,
      rankOverall: nn,
      rankGender: nn,
      rankCategory: nn,
      gapMs: nn,
      /** Behind the first of the athlete's category (each list's gap from its own leader). */
      gapCategoryMs: nn.optional(),
      paceMsPerKm: nn,
    }),
  ),
  prediction: z
    .object({
      basis: z.string(),
      finishNetMs: n,
      finishTimeOfDay: nn,
      /** The finish's 80 % interval, net ms [low, high]; null without a split of the runner's own. */
      finishRangeNetMs: z.tuple([n, n]).nullable().optional(),
      points: z.array(z.object({ pointKey: z.string(), netMs: n, timeOfDay: nn })),
    })
    .nullable(),
  /** Estimated distance covered now (m), from the last split and the predicted pace. */
  estimatedDistanceM: nn,
  /** Corrections of the race's official results (issue 43), newest first. */
  corrections: z.array(resultCorrectionSchema).optional(),
});
export type AthleteCard = z.infer<typeof athleteCardSchema>;

/** `objectdetail/{token}`: a team through its share token, or an athlete through their tracking key. */
export const sharedObjectSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('athlete'), card: athleteCardSchema }),
  z.object({
    kind: z.literal('team'),
    db: z.string(),
    race: z.object({ id: z.string(), name: z.string() }),
    scoring: n,
    teams: n,
    team: teamResultSchema.extend({ token: z.string() }),
  }),
]);
export type SharedObject = z.infer<typeof sharedObjectSchema>;
