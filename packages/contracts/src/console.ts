import { categoryTemplates, isTimeZone } from '@tempora/domain';
import { z } from 'zod';
import { organisationRoles } from './abilities.ts';
import { resultCorrectionSchema } from './corrections.ts';

/**
 * Organiser console API contract (issue 14 part A; the routes declare these schemas, issue 30).
 * Paths are relative to `/api/console/`; every route needs a signed-in caller and checks its
 * abilities (packages/contracts/src/abilities.ts):
 *
 *   GET    organisations                                   → ConsoleOrganisation[] (mine, with my role)
 *   POST   organisations                OrganisationCreate → ConsoleOrganisation (creator is owner)
 *   GET    organisations/{orgId}                           → ConsoleOrganisation       (read Organisation)
 *   PATCH  organisations/{orgId}        OrganisationPatch  → ConsoleOrganisation       (manage Organisation)
 *   GET    organisations/{orgId}/members                   → Member[]                  (read Organisation)
 *   PATCH  organisations/{orgId}/members/{sub}  { role }   → Member                    (manage Organisation)
 *   DELETE organisations/{orgId}/members/{sub}             → 204 (never the last owner) (manage Organisation; or oneself)
 *   GET    organisations/{orgId}/invitations               → Invitation[] (pending)    (manage Organisation)
 *   POST   organisations/{orgId}/invitations InvitationCreate → Invitation (mail with a single-use link)
 *   DELETE organisations/{orgId}/invitations/{id}          → 204                        (manage Organisation)
 *   GET    invitations/{token}                             → InvitationPreview          (signed in)
 *   POST   invitations/{token}/accept                      → ConsoleOrganisation        (signed in, invited e-mail)
 *   GET    organisations/{orgId}/events                    → ConsoleEvent[]            (read Event of the org)
 *   POST   organisations/{orgId}/events     EventCreate    → ConsoleEventDetail        (create Event)
 *   GET    events/{eventId}                                → ConsoleEventDetail        (member of the org)
 *   PATCH  events/{eventId}             EventUpdate        → ConsoleEventDetail        (update Event)
 *   DELETE events/{eventId}                                → 204 (409 EVENT_HAS_PASSINGS) (delete Event)
 *   PUT    events/{eventId}/logo        image/png|jpeg|webp body → ConsoleEventDetail  (update Event)
 *   DELETE events/{eventId}/logo                           → ConsoleEventDetail        (update Event)
 *   POST   events/{eventId}/contexts    ContextCreate      → ConsoleContext            (update Event)
 *   PATCH  contexts/{db}                { name }           → ConsoleContext            (update Event)
 *   DELETE contexts/{db}                                   → 204 (409 when it holds races or passings)
 *   POST   contexts/{db}/races          RaceCreate         → ConsoleRace (standard reports created)
 *   GET    races/{raceId}                                  → ConsoleRace
 *   PATCH  races/{raceId}               RaceUpdate         → ConsoleRace               (update Race)
 *   DELETE races/{raceId}                                  → 204 (409 RACE_HAS_PASSINGS)
 *   PUT    races/{raceId}/points        PointsReplace      → ConsoleRace
 *   PUT    races/{raceId}/course        GPX (application/gpx+xml, text/xml) or GeoJSON → ConsoleRace
 *   DELETE races/{raceId}/course                           → ConsoleRace
 *   POST   races/{raceId}/course/place  CoursePlacement    → ConsoleRace (points snapped to the track)
 *   PUT    races/{raceId}/categories    CategoriesReplace  → ConsoleRace (+ issues)
 *   PUT    races/{raceId}/team-rule     TeamRule           → ConsoleRace
 *   PUT    races/{raceId}/fade-prior    { csv } | { fromRaceId } → ConsoleRace (previous editions' fade, issue 19)
 *   DELETE races/{raceId}/fade-prior                       → ConsoleRace
 *   PUT    races/{raceId}/format        RaceFormat         → ConsoleRace (laps, multisport, relay…, issue 31)
 *   PUT    races/{raceId}/publication   RacePublication    → ConsoleRace (provisional → official, issue 31)
 *   PUT    races/{raceId}/cutoff-overrides CutoffOverrideInput → ConsoleRace (desk reinstates past a cut-off)
 *   PUT    races/{raceId}/relay-members  RelayMembers       → ConsoleRace (who runs each leg of a team)
 *   GET    races/{raceId}/review                           → RaceReview: anomalies before publishing (issue 31)
 *   GET    races/{raceId}/reports                          → ReportDefinitionView[]    (read: member)
 *   POST   races/{raceId}/reports       ReportCreate       → ReportDefinitionView      (manage Report)
 *   PATCH  races/{raceId}/reports/{key} ReportUpdate       → ReportDefinitionView
 *   DELETE races/{raceId}/reports/{key}                    → 204 (added reports only)
 *   PUT    races/{raceId}/reports/order { keys }           → ReportDefinitionView[]
 *   POST   races/{raceId}/reports/visibility { keys, hidden } → ReportDefinitionView[] (issue 29: several at once)
 *   GET    events/{eventId}/logo  (public unless draft, under /api/events/)  → image/webp
 *
 * Times of day (gun, waves) are typed and shown in the event's IANA time zone; the answers carry
 * both the wall-clock text and the instant (epoch ms).
 */

const trimmed = (max: number) => z.string().trim().min(1).max(max);
/** Ids typed by organisers (event, context, race, point, report keys): URL-safe. */
export const consoleKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'letters, digits, - and _ (at most 64)');
const isoDate = z.iso.date();
const timeOfDay = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?$/, 'a time of day HH:MM[:SS]');
export const timeZoneSchema = z.string().refine(isTimeZone, 'an IANA time zone, e.g. Europe/Brussels');
const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);

export const organisationRoleSchema = z.enum(organisationRoles);

// ── Organisations and members ─────────────────────────────────────────────────────────────────

export const organisationCreateSchema = z
  .object({
    name: trimmed(120),
    /** ISO 3166-1 alpha-2. */
    country: z.string().regex(/^[A-Z]{2}$/, 'a two-letter country code (ISO 3166-1)'),
    contactEmail: z.email().max(200),
  })
  .strict();
export type OrganisationCreate = z.infer<typeof organisationCreateSchema>;
/** The organiser's legal details printed on invoices (issue 29); empty texts and no rate: not printed. */
export const organisationLegalSchema = z
  .object({
    name: z.string().trim().max(200).default(''),
    address: z.string().trim().max(500).default(''),
    vatNumber: z.string().trim().max(40).default(''),
    /** Percent VAT included in fees (e.g. 21); null: no VAT line. */
    vatRate: z.number().min(0).max(100).nullable().default(null),
  })
  .strict();
export type OrganisationLegal = z.infer<typeof organisationLegalSchema>;
export const organisationPatchSchema = organisationCreateSchema
  .partial()
  .extend({ legal: organisationLegalSchema.optional() })
  .strict();
export type OrganisationPatch = z.infer<typeof organisationPatchSchema>;

/** An organisation as the console shows it (answers of `organisations…`). */
export const consoleOrganisationSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  country: z.string(),
  contactEmail: z.string(),
  /** Legal details for invoices (empty texts when not given). */
  legal: z.object({
    name: z.string(),
    address: z.string(),
    vatNumber: z.string(),
    vatRate: z.number().nullable(),
  }),
  /** The caller's role (null for platform staff who are not members). */
  role: organisationRoleSchema.nullable(),
  members: z.number().int(),
  events: z.number().int(),
});
export type ConsoleOrganisation = z.infer<typeof consoleOrganisationSchema>;

export const memberSchema = z.object({
  sub: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: organisationRoleSchema,
  since: z.string(),
});
export type Member = z.infer<typeof memberSchema>;

export const memberRoleSchema = z.object({ role: organisationRoleSchema }).strict();

export const invitationCreateSchema = z
  .object({
    email: z.email().max(200),
    role: organisationRoleSchema,
    lng: z.enum(['en', 'fr']).default('fr'),
  })
  .strict();
export type InvitationCreate = z.input<typeof invitationCreateSchema>;

export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: organisationRoleSchema,
  invitedBy: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const invitationPreviewSchema = z.object({
  organisation: z.object({ id: z.string(), name: z.string() }),
  email: z.string(),
  role: organisationRoleSchema,
  /** pending, or why it cannot be accepted any more. */
  state: z.enum(['pending', 'accepted', 'expired', 'revoked']),
  expiresAt: z.string(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** How long an invitation link stays valid. */
export const INVITATION_DAYS = 7;

// ── Events and contexts ───────────────────────────────────────────────────────────────────────

export const eventVisibilities = ['draft', 'public'] as const;
export type EventVisibility = (typeof eventVisibilities)[number];
const eventStatus = z.enum(['upcoming', 'live', 'finished']);
const accentColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a #rrggbb colour');

const eventFields = {
  name: trimmed(200),
  startDate: isoDate,
  endDate: isoDate,
  place: z.string().trim().max(200),
  placeLat: latitude.nullable(),
  placeLon: longitude.nullable(),
  timeZone: timeZoneSchema,
  visibility: z.enum(eventVisibilities),
  status: eventStatus,
  accentColor: accentColor.nullable(),
  tagline: z.string().trim().max(200),
};

const datesInOrder = (e: { startDate?: string | undefined; endDate?: string | undefined }) =>
  !e.startDate || !e.endDate || e.endDate >= e.startDate;
const placeComplete = (e: { placeLat?: number | null | undefined; placeLon?: number | null | undefined }) =>
  (e.placeLat === undefined) === (e.placeLon === undefined) &&
  (e.placeLat === null) === (e.placeLon === null);

export const eventCreateSchema = z
  .object({
    /** The event's id in URLs; made from the name and year when omitted. */
    id: consoleKeySchema.optional(),
    ...eventFields,
    place: eventFields.place.default(''),
    placeLat: eventFields.placeLat.default(null),
    placeLon: eventFields.placeLon.default(null),
    visibility: eventFields.visibility.default('draft'),
    status: eventFields.status.default('upcoming'),
    accentColor: eventFields.accentColor.default(null),
    tagline: eventFields.tagline.default(''),
    /**
     * Also create the event's first timing context (issue 29: most events need one), its key the
     * event's id (`-ctx` when taken), named after the event. The console's dialog asks it.
     */
    context: z.boolean().default(false),
  })
  .strict()
  .refine(datesInOrder, { path: ['endDate'], message: 'on or after the start date' })
  .refine(placeComplete, { path: ['placeLon'], message: 'latitude and longitude together' });
export type EventCreate = z.input<typeof eventCreateSchema>;

export const eventUpdateSchema = z
  .object(eventFields)
  .partial()
  .strict()
  .refine(datesInOrder, { path: ['endDate'], message: 'on or after the start date' })
  .refine(placeComplete, { path: ['placeLon'], message: 'latitude and longitude together' });
export type EventUpdate = z.infer<typeof eventUpdateSchema>;

export const consoleContextSchema = z.object({ db: z.string(), name: z.string(), races: z.number().int() });
export type ConsoleContext = z.infer<typeof consoleContextSchema>;

export const consoleEventSchema = z.object({
  id: z.string(),
  organisationId: z.string(),
  name: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  place: z.string(),
  placeLat: z.number().nullable(),
  placeLon: z.number().nullable(),
  timeZone: z.string(),
  visibility: z.enum(eventVisibilities),
  status: eventStatus,
  accentColor: z.string().nullable(),
  tagline: z.string(),
  /** `/api/events/{id}/logo?v=…`, or null. */
  logoUrl: z.string().nullable(),
  /** Passings stored in the event's contexts (deletion is refused while there are any). */
  passings: z.number().int(),
});
export type ConsoleEvent = z.infer<typeof consoleEventSchema>;

export const contextCreateSchema = z.object({ db: consoleKeySchema, name: trimmed(120) }).strict();
export const contextUpdateSchema = z.object({ name: trimmed(120) }).strict();

// ── Races, timing points, course, categories, team rule ───────────────────────────────────────

export const startTypes = ['mass', 'waves', 'individual'] as const;
export const pointKinds = ['start', 'split', 'finish'] as const;
export type PointKind = (typeof pointKinds)[number];

const waveSchema = z.object({
  id: consoleKeySchema,
  name: z.string().trim().max(80).default(''),
  gunTime: timeOfDay,
});

const raceFields = {
  name: trimmed(120),
  date: isoDate,
  distanceM: z.number().int().positive().max(1_000_000),
  startType: z.enum(startTypes),
  /** Gun time of day in the event's time zone (null: not fixed yet). */
  gunTime: timeOfDay.nullable(),
  /** Per-wave gun times (wave starts). */
  waves: z.array(waveSchema).max(50),
};

export const raceCreateSchema = z
  .object({
    id: consoleKeySchema,
    ...raceFields,
    gunTime: raceFields.gunTime.default(null),
    waves: raceFields.waves.default([]),
  })
  .strict();
export type RaceCreate = z.input<typeof raceCreateSchema>;
export const raceUpdateSchema = z.object(raceFields).partial().strict();
export type RaceUpdate = z.infer<typeof raceUpdateSchema>;

export const pointInputSchema = z
  .object({
    key: consoleKeySchema,
    name: z.object({ en: trimmed(80), fr: trimmed(80) }).strict(),
    distanceM: z.number().min(0).max(1_000_000),
    kind: z.enum(pointKinds),
    lat: latitude.nullable().default(null),
    lon: longitude.nullable().default(null),
  })
  .strict();
export type PointInput = z.input<typeof pointInputSchema>;

/**
 * The whole ordered list of a race's timing points: at most one start (first, at 0 m), exactly one
 * finish (last), distances never decreasing, keys unique.
 */
export const pointsReplaceSchema = z
  .object({ points: z.array(pointInputSchema).min(1).max(100) })
  .strict()
  .superRefine(({ points }, ctx) => {
    const keys = new Set<string>();
    points.forEach((p, k) => {
      if (keys.has(p.key))
        ctx.addIssue({ code: 'custom', path: ['points', k, 'key'], message: 'duplicate key' });
      keys.add(p.key);
      if (p.kind === 'start' && (k !== 0 || p.distanceM !== 0))
        ctx.addIssue({ code: 'custom', path: ['points', k, 'kind'], message: 'the start is first, at 0 m' });
      if (p.kind === 'finish' && k !== points.length - 1)
        ctx.addIssue({ code: 'custom', path: ['points', k, 'kind'], message: 'the finish is last' });
      if (k > 0 && p.distanceM < points[k - 1]!.distanceM)
        ctx.addIssue({
          code: 'custom',
          path: ['points', k, 'distanceM'],
          message: 'not before the previous point',
        });
      if ((p.lat === null) !== (p.lon === null))
        ctx.addIssue({
          code: 'custom',
          path: ['points', k, 'lon'],
          message: 'latitude and longitude together',
        });
    });
    if (points.at(-1)?.kind !== 'finish')
      ctx.addIssue({
        code: 'custom',
        path: ['points', points.length - 1, 'kind'],
        message: 'the last point is the finish',
      });
  });
export type PointsReplace = z.input<typeof pointsReplaceSchema>;

export const coursePlacementSchema = z
  .object({
    placements: z
      .array(
        z.union([
          z.object({ key: consoleKeySchema, lat: latitude, lon: longitude }).strict(),
          z.object({ key: consoleKeySchema, distanceM: z.number().min(0).max(1_000_000) }).strict(),
        ]),
      )
      .min(1)
      .max(100),
  })
  .strict();
export type CoursePlacement = z.infer<typeof coursePlacementSchema>;

export const genderSchema = z.enum(['M', 'F', 'X']);
export const categoryInputSchema = z
  .object({
    id: consoleKeySchema,
    name: trimmed(80),
    gender: genderSchema.optional(),
    minAge: z.number().int().min(0).max(120).optional(),
    maxAge: z.number().int().min(0).max(120).optional(),
  })
  .strict();
export const ageBases = ['raceDay', 'birthYear'] as const;
export const categoriesReplaceSchema = z
  .object({ ageBasis: z.enum(ageBases), categories: z.array(categoryInputSchema).max(200) })
  .strict()
  .superRefine(({ categories }, ctx) => {
    const ids = new Set<string>();
    categories.forEach((c, k) => {
      if (ids.has(c.id))
        ctx.addIssue({ code: 'custom', path: ['categories', k, 'id'], message: 'duplicate id' });
      ids.add(c.id);
      if (c.minAge !== undefined && c.maxAge !== undefined && c.minAge > c.maxAge)
        ctx.addIssue({
          code: 'custom',
          path: ['categories', k, 'maxAge'],
          message: 'not below the minimum age',
        });
    });
  });
export type CategoriesReplace = z.infer<typeof categoriesReplaceSchema>;
export const categoryTemplateSchema = z.enum(categoryTemplates);

/** Team ranking: the best `best` finishers' times add up; teams need at least `minMembers` runners. */
export const teamRuleSchema = z
  .object({ best: z.number().int().min(1).max(50), minMembers: z.number().int().min(1).max(500) })
  .strict()
  .refine((r) => r.minMembers >= r.best, { path: ['minMembers'], message: 'at least the number counted' });
export type TeamRule = z.infer<typeof teamRuleSchema>;

/**
 * A race's format (issue 31), kept in the race's rules: the road race (the default) or one of the
 * formats of packages/domain/src/formats. Points are named by their console key; durations in
 * whole seconds or minutes as the console takes them.
 */
const lapFields = {
  lapPointKey: z.string().min(1).max(60),
  /** Reads closer than this to the last counted crossing are re-reads. */
  minLapS: z.number().int().min(0).max(86_400),
};
const legName = z
  .object({ en: z.string().trim().min(1).max(60), fr: z.string().trim().min(1).max(60) })
  .strict();
/**
 * A cut-off at a timing point (issue 31): passed by `afterGunMinutes` after the gun (a time of
 * day) and/or within `elapsedMinutes` of the athlete's own start (the earlier holds); past it the
 * athlete is DNF, or "over time" where the race still lists them. The desk can reinstate one.
 */
export const cutoffSchema = z
  .object({
    pointKey: z.string().min(1).max(60),
    afterGunMinutes: z.number().int().min(1).max(20_160).optional(),
    elapsedMinutes: z.number().int().min(1).max(20_160).optional(),
    outcome: z.enum(['DNF', 'overTime']).default('DNF'),
  })
  .strict()
  .refine((c) => c.afterGunMinutes !== undefined || c.elapsedMinutes !== undefined, {
    message: 'a time after the gun or an elapsed time is required',
    path: ['afterGunMinutes'],
  });
export type CutoffInput = z.infer<typeof cutoffSchema>;
const cutoffs = z.array(cutoffSchema).max(30).optional();
/**
 * A cut-off on a lap race (issue 31): lap `laps` done by `afterGunMinutes` after the gun and/or
 * within `elapsedMinutes` of the rider's start (the earlier holds); a rider later, or short of it
 * once the deadline passed, is DNF or over time. Desk overrides name it `lap:{laps}`.
 */
export const lapCutoffSchema = z
  .object({
    laps: z.number().int().min(1).max(10_000),
    afterGunMinutes: z.number().int().min(1).max(20_160).optional(),
    elapsedMinutes: z.number().int().min(1).max(20_160).optional(),
    outcome: z.enum(['DNF', 'overTime']).default('DNF'),
  })
  .strict()
  .refine((c) => c.afterGunMinutes !== undefined || c.elapsedMinutes !== undefined, {
    message: 'a time after the gun or an elapsed time is required',
    path: ['afterGunMinutes'],
  });
export type LapCutoffInput = z.infer<typeof lapCutoffSchema>;
const lapCutoffs = z.array(lapCutoffSchema).max(30).optional();

/** A desk decision on a cut-off (issue 31): reinstate one athlete (or team) at one point, or undo it. */
export const cutoffOverrideSchema = z
  .object({
    bib: z.string().trim().min(1).max(20),
    pointKey: z.string().min(1).max(60),
    reinstated: z.boolean(),
  })
  .strict();
export type CutoffOverrideInput = z.infer<typeof cutoffOverrideSchema>;

/**
 * A relay's team members (issue 31): per team (its bib), the name of who runs each leg, in leg
 * order ('' for a leg not yet named; "A & B" for a pair). The teams sent replace theirs; an empty
 * list removes a team's members.
 */
export const relayMembersSchema = z
  .object({
    teams: z
      .array(
        z
          .object({
            bib: z.string().trim().min(1).max(20),
            members: z.array(z.string().trim().max(120)).max(30),
          })
          .strict(),
      )
      .min(1)
      .max(5000),
  })
  .strict();
export type RelayMembers = z.infer<typeof relayMembersSchema>;

export const raceFormatKinds = ['road', 'laps', 'timeLimited', 'backyard', 'multisport', 'relay'] as const;
export const raceFormatSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('road'),
      /**
       * The race's cut-off (issue 43): the time within which a runner finishes, from their own
       * start. The review flags a finish slower than it ("slower than the cut-off"); without it,
       * a finish slower than three times the field's median.
       */
      cutoffMinutes: z.number().int().min(1).max(20_160).optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('laps'),
      ...lapFields,
      lapCutoffs,
      lapLengthM: z.number().positive().max(1_000_000).optional(),
      targetLaps: z.number().int().min(1).max(10_000),
    })
    .strict(),
  z
    .object({
      kind: z.literal('timeLimited'),
      ...lapFields,
      lapCutoffs,
      lapLengthM: z.number().positive().max(1_000_000),
      limitMinutes: z.number().int().min(1).max(20_160),
      partialLap: z.enum(['none', 'measured']),
    })
    .strict(),
  z
    .object({
      kind: z.literal('backyard'),
      ...lapFields,
      lapCutoffs,
      lapLengthM: z.number().positive().max(1_000_000),
      intervalMinutes: z.number().int().min(1).max(1_440),
    })
    .strict(),
  z
    .object({
      kind: z.literal('multisport'),
      legs: z
        .array(
          z
            .object({
              pointKey: z.string().min(1).max(60),
              kind: z.enum(['discipline', 'transition']),
              name: legName,
            })
            .strict(),
        )
        .min(1)
        .max(20),
      cutoffs,
    })
    .strict(),
  z
    .object({
      kind: z.literal('relay'),
      legs: z
        .array(
          z
            .object({
              pointKey: z.string().min(1).max(60),
              name: legName,
              /** A mass start of the leg, minutes after the gun. */
              massStartMinutes: z.number().int().min(0).max(20_160).optional(),
            })
            .strict(),
        )
        .min(2)
        .max(30),
      cutoffs,
    })
    .strict(),
]);
export type RaceFormat = z.infer<typeof raceFormatSchema>;

/**
 * Publishing a race's results (issue 31): `official: true` publishes them now, open to protests
 * for `protestWindowMinutes` (0: none) before they are final; `official: false` takes them back
 * to provisional.
 */
export const racePublicationSchema = z
  .object({
    official: z.boolean(),
    protestWindowMinutes: z.number().int().min(0).max(10_080).default(0),
    /**
     * Why official results go back to provisional (issue 43: re-opening is a correction spectators
     * see; required then, 400 without).
     */
    reason: z.string().trim().min(1).max(500).optional(),
  })
  .strict();
export type RacePublication = z.infer<typeof racePublicationSchema>;

export const consolePointSchema = z.object({
  key: z.string(),
  name: z.object({ en: z.string(), fr: z.string() }),
  distanceM: z.number(),
  kind: z.enum(pointKinds),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
});
export type ConsolePoint = z.infer<typeof consolePointSchema>;

export const consoleRaceSummarySchema = z.object({
  id: z.string(),
  db: z.string(),
  name: z.string(),
  date: z.string(),
  distanceM: z.number(),
  startType: z.enum(startTypes),
  participants: z.number().int(),
});
export type ConsoleRaceSummary = z.infer<typeof consoleRaceSummarySchema>;

export const consoleEventDetailSchema = consoleEventSchema.extend({
  organisation: z.object({ id: z.string(), name: z.string() }),
  contexts: z.array(consoleContextSchema),
  races: z.array(consoleRaceSummarySchema),
});
export type ConsoleEventDetail = z.infer<typeof consoleEventDetailSchema>;

export const consoleRaceSchema = consoleRaceSummarySchema.extend({
  eventId: z.string(),
  timeZone: z.string(),
  gunTime: z.string().nullable(),
  gunTimeMs: z.number().nullable(),
  waves: z.array(z.object({ id: z.string(), name: z.string(), gunTime: z.string(), gunTimeMs: z.number() })),
  points: z.array(consolePointSchema),
  /** GeoJSON LineString, [lon, lat] pairs. */
  course: z
    .object({ type: z.literal('LineString'), coordinates: z.array(z.tuple([z.number(), z.number()])) })
    .nullable(),
  courseLengthM: z.number().nullable(),
  ageBasis: z.enum(ageBases),
  categories: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      gender: genderSchema.optional(),
      minAge: z.number().optional(),
      maxAge: z.number().optional(),
    }),
  ),
  /** Overlaps and gaps of the categories (packages/domain checkCategories). */
  categoryIssues: z.array(z.unknown()),
  teamRule: z.object({ best: z.number().int(), minMembers: z.number().int() }),
  /**
   * The previous editions the finish prediction starts from (issue 19): a CSV (`source: 'csv'`)
   * or an earlier race (its id), and how many of their finishers count; null: the general model.
   */
  fadePrior: z.object({ source: z.string(), runners: z.number() }).nullable(),
  /** The race's format (issue 31); `{ kind: 'road' }` unless the console set another. */
  format: raceFormatSchema,
  /** When results were published as official and their protest window (issue 31); null: provisional. */
  publication: z.object({ publishedAtMs: z.number(), protestWindowMs: z.number() }).nullable(),
  /** Corrections confirmed since the results were official (issue 43), newest first. */
  corrections: z.array(resultCorrectionSchema),
  /** Athletes the desk reinstated past a cut-off (issue 31). */
  cutoffOverrides: z.array(z.object({ bib: z.string(), pointKey: z.string() })),
  /** A relay's members by team bib, names in leg order (issue 31). */
  relayMembers: z.record(z.string(), z.array(z.string())),
  passings: z.number().int(),
});
export type ConsoleRace = z.infer<typeof consoleRaceSchema>;

/** One anomaly of `GET races/{raceId}/review` (issue 31), with the reads behind it. */
export const reviewAnomalySchema = z.object({
  kind: z.enum([
    'missingRead',
    'tooFast',
    'outOfOrder',
    'readAfterStop',
    // Issue 43: the field's and the context's (packages/domain review-field.ts).
    'tooSlow',
    'aheadOfField',
    'unknownRead',
    'dnfCandidate',
    'dnsCandidate',
    'beforeStart',
    'sharedChip',
    'otherCourse',
  ]),
  bib: z.string(),
  pointId: z.string().nullable(),
  /** The point's names when it is not on this race's course (`otherCourse`: another race's). */
  pointName: z.object({ en: z.string(), fr: z.string() }).nullable().optional(),
  paceMsPerKm: z.number().nullable(),
  reads: z.array(z.object({ id: z.string(), pointId: z.string(), timeMs: z.number() })),
});
export type ReviewAnomaly = z.infer<typeof reviewAnomalySchema>;
/** `GET races/{raceId}/review`: the race's anomalies before results are official. */
export const raceReviewSchema = z.object({ raceId: z.string(), anomalies: z.array(reviewAnomalySchema) });
export type RaceReview = z.infer<typeof raceReviewSchema>;

/**
 * `GET races/{raceId}/publication`: what "Publish as official" would publish (issue 43: asked
 * first) — finishers, DNF, DNS, runners still on course or not started, the review's open
 * anomalies — and the event's zone the dialog states its times in.
 */
export const racePublicationPreviewSchema = z.object({
  raceId: z.string(),
  timeZone: z.string(),
  nowMs: z.number(),
  finishers: z.number().int(),
  dnf: z.number().int(),
  dns: z.number().int(),
  dsq: z.number().int(),
  onCourse: z.number().int(),
  notStarted: z.number().int(),
  anomalies: z.number().int(),
});
export type RacePublicationPreview = z.infer<typeof racePublicationPreviewSchema>;

// ── Report definitions ───────────────────────────────────────────────────────────────────────

export const reportKinds = ['ranking', 'lastPassings', 'startList'] as const;
/** The engine's fields a report may show, per kind, in their default order. */
export const reportFields = {
  ranking: [
    'favorite',
    'rank',
    'bib',
    'name',
    'nationality',
    'club',
    'category',
    'rankGender',
    'rankCategory',
    'splits',
    'time',
    'gunTime',
    'gap',
    'pace',
    'status',
    'lastPoint',
  ],
  startList: ['favorite', 'bib', 'name', 'nationality', 'club', 'category'],
  lastPassings: ['time', 'point', 'bib', 'name', 'net'],
} as const;
/** Fields shown when a report names no columns (the rest may be added). */
export const defaultReportFields = {
  ranking: reportFields.ranking.filter((f) => !['gunTime', 'status', 'lastPoint', 'rankGender'].includes(f)),
  startList: [...reportFields.startList],
  lastPassings: [...reportFields.lastPassings],
};
export type ReportField =
  | (typeof reportFields.ranking)[number]
  | (typeof reportFields.startList)[number]
  | (typeof reportFields.lastPassings)[number];

export const reportFilterSchema = z
  .object({
    gender: genderSchema.optional(),
    category: z.string().max(64).optional(),
    club: z.string().trim().min(1).max(120).optional(),
    wave: z.string().trim().min(1).max(64).optional(),
  })
  .strict();
export type ReportFilter = z.infer<typeof reportFilterSchema>;

const allFields = [...new Set(Object.values(reportFields).flat())] as [ReportField, ...ReportField[]];

export const reportCreateSchema = z
  .object({
    key: consoleKeySchema,
    name: z.object({ en: trimmed(120), fr: trimmed(120) }).strict(),
    kind: z.enum(reportKinds),
    filter: reportFilterSchema.default({}),
    columns: z.array(z.enum(allFields)).min(1).max(40).optional(),
    hidden: z.boolean().default(false),
  })
  .strict()
  .superRefine((r, ctx) => {
    const allowed = reportFields[r.kind] as readonly string[];
    r.columns?.forEach((c, k) => {
      if (!allowed.includes(c))
        ctx.addIssue({ code: 'custom', path: ['columns', k], message: `not a field of a ${r.kind} report` });
    });
  });
export type ReportCreate = z.input<typeof reportCreateSchema>;

export const reportUpdateSchema = z
  .object({
    name: z.object({ en: trimmed(120), fr: trimmed(120) }).strict(),
    filter: reportFilterSchema,
    /** null: the default columns. */
    columns: z.array(z.enum(allFields)).min(1).max(40).nullable(),
    hidden: z.boolean(),
    limit: z.number().int().min(1).max(500),
  })
  .partial()
  .strict();
export type ReportUpdate = z.infer<typeof reportUpdateSchema>;

export const reportOrderSchema = z.object({ keys: z.array(consoleKeySchema).min(1).max(500) }).strict();

/** Shows or hides several reports of a race in one request (issue 29: 28 category reports at once). */
export const reportVisibilitySchema = z
  .object({ keys: z.array(consoleKeySchema).min(1).max(500), hidden: z.boolean() })
  .strict();
export type ReportVisibility = z.infer<typeof reportVisibilitySchema>;

export const reportDefinitionViewSchema = z.object({
  group: z.string(),
  key: z.string(),
  name: z.object({ en: z.string(), fr: z.string() }),
  kind: z.enum(reportKinds),
  scope: z.enum(['overall', 'gender', 'category']).nullable(),
  filter: z.object(reportFilterSchema.shape),
  columns: z.array(z.enum(allFields)).nullable(),
  hidden: z.boolean(),
  position: z.number(),
  /** Created with the race (renamed, hidden, reordered — never deleted). */
  standard: z.boolean(),
});
export type ReportDefinitionView = z.infer<typeof reportDefinitionViewSchema>;
