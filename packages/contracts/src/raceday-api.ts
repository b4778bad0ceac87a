import { isTimeZone } from '@tempora/domain';
import { z } from 'zod';
import { startTypes } from './console.ts';
import { officialCorrectionSchema } from './corrections.ts';
import { racedayAuditEntrySchema } from './raceday.ts';

/**
 * Present when the caller confirms a change to official results (issue 43): the organiser's
 * reason, kept as a correction spectators see. Without it such a change is refused (409
 * `RACE_OFFICIAL`).
 */
const correction = officialCorrectionSchema.optional();

/**
 * The race-day API (issue 15; apps/server/src/modules/devices/routes.ts): its routes' inputs and
 * answers (issue 30: the routes declare them, the web reads its types from here).
 */

/** Kinds of device connectors. */
export const CONNECTOR_KINDS = [
  'tempora',
  'raceresult',
  'wiclax',
  'mylaps',
  'chronotrack',
  'impinj',
  'rrexporter',
] as const;
export type ConnectorKind = (typeof CONNECTOR_KINDS)[number];

/** How a device's chip codes are read (issue 26): as sent, leading zeros dropped, or the EPC holds the bib. */
export const CHIP_FORMATS = ['as-is', 'strip-zeros', 'epc-bib'] as const;
export type ChipFormat = (typeof CHIP_FORMATS)[number];

/** A point, wave or similar key. */
export const key = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, - and _ only');
export const dbParams = z.object({ db: z.string().min(1).max(100) });
export const eventParams = z.object({ eventId: z.string().min(1).max(100) });
export const deviceParams = dbParams.extend({ deviceId: z.uuid() });
export const raceParams = dbParams.extend({ raceId: z.string().min(1).max(100) });
export const auditParams = dbParams.extend({ auditId: z.uuid() });
const bib = z.string().trim().min(1).max(20);
const reason = z.string().trim().max(500).default('');
const epochMs = z.number().int().min(946_684_800_000).max(4_102_444_800_000);
const host = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.:-]+$/, 'a host name or IP address');

/** A connector's fields, without defaults (a patch names only what it changes). */
const connectorFields = {
  name: z.string().trim().min(1).max(80),
  kind: z.enum(CONNECTOR_KINDS),
  pointKey: key.nullable(),
  host: host.nullable(),
  port: z.number().int().min(1).max(65535).nullable(),
  listenPort: z.number().int().min(1024).max(65535).nullable(),
  clockOffsetMs: z.number().int().min(-86_400_000).max(86_400_000),
  /** The IANA zone the device's clock shows (daylight saving followed); null: UTC. */
  timeZone: z.string().refine(isTimeZone, 'an IANA time zone, e.g. Europe/Brussels').nullable(),
  chipFormat: z.enum(CHIP_FORMATS),
  enabled: z.boolean(),
  pointMap: z.record(z.string().min(1).max(64), key),
};

export const connectorSchema = z.object({
  ...connectorFields,
  pointKey: connectorFields.pointKey.default(null),
  host: connectorFields.host.default(null),
  port: connectorFields.port.default(null),
  listenPort: connectorFields.listenPort.default(null),
  clockOffsetMs: connectorFields.clockOffsetMs.default(0),
  timeZone: connectorFields.timeZone.default(null),
  chipFormat: connectorFields.chipFormat.default('as-is'),
  enabled: connectorFields.enabled.default(true),
  pointMap: connectorFields.pointMap.default({}),
});

/**
 * A device change: only the fields sent change (no defaults — `{"enabled": false}` keeps the
 * address, a new name keeps the point map and the clock offset).
 */
export const connectorPatchSchema = z.object(connectorFields).partial();

/**
 * A device's clock correction: apply the measured drift (the offset becomes offset − drift), or
 * set the offset the device's clock sync gave. Audited with the old and new offsets.
 */
export const clockSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('applyDrift'), reason }),
  z.object({ action: z.literal('set'), clockOffsetMs: connectorFields.clockOffsetMs, reason }),
]);

export const listQuery = z.object({
  point: key.optional(),
  device: z.uuid().optional(),
  bib: z.string().trim().min(1).max(64).optional(),
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const manualSchema = z.object({
  entries: z
    .array(
      z.object({
        clientId: z
          .string()
          .regex(/^[A-Za-z0-9_-]{8,64}$/, 'a client-made id of 8 to 64 letters, digits, - or _'),
        bib,
        pointKey: key,
        timeMs: epochMs,
      }),
    )
    .min(1)
    .max(1000),
  correction,
});

export const correctionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('void'), passingId: z.string().min(1).max(200), reason, correction }),
  z.object({ action: z.literal('restore'), passingId: z.string().min(1).max(200), reason, correction }),
  z
    .object({
      action: z.literal('edit'),
      passingId: z.string().min(1).max(200),
      timeMs: epochMs.optional(),
      pointKey: key.optional(),
      reason,
      correction,
    })
    .refine((v) => v.timeMs !== undefined || v.pointKey !== undefined, 'a new time or point is required'),
  z.object({ action: z.literal('add'), bib, pointKey: key, timeMs: epochMs, reason, correction }),
]);

/** An undo's reason; no body: no reason. */
export const undoSchema = z.object({ reason, correction }).prefault({});

export const statusSchema = z.object({
  bib,
  status: z.enum(['registered', 'DNS', 'DNF', 'DSQ']),
  reason,
  correction,
});

export const startSchema = z.discriminatedUnion('action', [
  /** Fire the gun: the time is the server's at the press unless the client's key-press time is given. */
  z.object({ action: z.literal('gun'), timeMs: epochMs.nullable().optional(), reason, correction }),
  z.object({ action: z.literal('wave'), waveId: key, timeMs: epochMs, reason, correction }),
  z.object({
    action: z.literal('individual'),
    starts: z
      .array(z.object({ bib, startTimeMs: epochMs.nullable() }))
      .min(1)
      .max(50_000),
    reason,
    correction,
  }),
]);

export const assignSchema = z.object({
  chip: z.string().min(1).max(64),
  raceId: z.string().min(1).max(100),
  bib,
  correction,
});

export const auditQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });

export const ingestKeyQuery = z.object({ key: z.string().min(10).max(200).optional() });

// ── answers ─────────────────────────────────────────────────────────────

/** `GET /api/raceday/clock`. */
export const serverClockSchema = z.object({ serverTimeMs: z.number() });
export type ServerClock = z.infer<typeof serverClockSchema>;

export const racedayPointSchema = z.object({
  key: z.string(),
  name: z.string(),
  /** The French name (the English one when the organiser gave none): the desk reads in both. */
  nameFr: z.string().optional(),
  isStart: z.boolean(),
  distanceM: z.number(),
});
export type RacedayPoint = z.infer<typeof racedayPointSchema>;
export const racedayRaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  startType: z.enum(startTypes),
  gunTimeMs: z.number().nullable(),
  waves: z.array(z.object({ id: z.string(), startTime: z.number() })),
  clockRate: z.number(),
  /**
   * Whether the race's results are published (issue 43): the desk says so before anyone types,
   * and a change of them needs the organiser's confirmation.
   */
  official: z.boolean(),
  points: z.array(racedayPointSchema),
});
export type RacedayRace = z.infer<typeof racedayRaceSchema>;
/** `GET /api/raceday/events/{eventId}`: the event's contexts with their races and points. */
export const racedayEventSchema = z.object({
  event: z.object({ id: z.string(), name: z.string(), status: z.string(), timeZone: z.string().nullable() }),
  serverTimeMs: z.number(),
  contexts: z.array(z.object({ db: z.string(), name: z.string(), races: z.array(racedayRaceSchema) })),
});
export type RacedayEvent = z.infer<typeof racedayEventSchema>;

const runnerStatus = z.enum(['registered', 'DNS', 'DNF', 'DSQ']);
/** A context's runner, for the desk's wrong-bib check (`GET …/runners`). */
export const racedayRunnerSchema = z.object({
  bib: z.string(),
  name: z.string(),
  raceId: z.string(),
  status: z.string(),
  statusReason: z.string().nullable(),
});
export type Runner = z.infer<typeof racedayRunnerSchema>;

/** A device's live status. */
export const deviceStatusSchema = z.object({
  state: z.enum(['disabled', 'waiting', 'connected', 'error']),
  reason: z.string().nullable(),
  since: z.number(),
  lastSeenAt: z.number().nullable(),
  lastReadAt: z.number().nullable(),
  lastReadTimeMs: z.number().nullable(),
  readsTotal: z.number(),
  readsPerMinute: z.number(),
  rejected: z.number(),
  driftMs: z.number().nullable(),
  /** `clock`: the device's clock asked; `reads`: estimated from its reads' times. */
  driftSource: z.enum(['clock', 'reads']).nullable(),
  battery: z.number().nullable(),
  peer: z.string().nullable(),
});
/** A device with its connector and status (`GET …/devices`). */
export const deviceRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(CONNECTOR_KINDS),
  pointKey: z.string().nullable(),
  host: z.string().nullable(),
  port: z.number().nullable(),
  listenPort: z.number().nullable(),
  clockOffsetMs: z.number(),
  timeZone: z.string().nullable(),
  chipFormat: z.enum(CHIP_FORMATS),
  enabled: z.boolean(),
  pointMap: z.record(z.string(), z.string()),
  status: deviceStatusSchema,
});
export type DeviceRow = z.infer<typeof deviceRowSchema>;
export const devicesAnswerSchema = z.object({ serverTimeMs: z.number(), devices: z.array(deviceRowSchema) });
export type DevicesAnswer = z.infer<typeof devicesAnswerSchema>;
/** A new device: its key, answered once. */
export const deviceCreatedSchema = z.object({ id: z.string(), key: z.string() });
export const deviceIdSchema = z.object({ id: z.string() });
export const clockCorrectedSchema = z.object({
  auditId: z.string(),
  previousOffsetMs: z.number(),
  clockOffsetMs: z.number(),
});

/** A read as the passings desk lists it. */
export const deskReadSchema = z.object({
  seq: z.number(),
  id: z.string(),
  bib: z.string().nullable(),
  chip: z.string().nullable(),
  pointKey: z.string(),
  timeMs: z.number(),
  source: z.enum(['decoder', 'manual', 'import']),
  deviceId: z.string().nullable(),
  createdBy: z.string().nullable(),
  receivedAt: z.string(),
  voided: z.boolean(),
  runner: z.object({ raceId: z.string(), bib: z.string(), name: z.string(), status: z.string() }).nullable(),
});
export type DeskRead = z.infer<typeof deskReadSchema>;
export const deskReadsSchema = z.object({ reads: z.array(deskReadSchema), next: z.number().nullable() });
export type DeskReads = z.infer<typeof deskReadsSchema>;

/** Reads stored: new ones and ones already stored. */
export const ingestResultSchema = z.object({ accepted: z.number(), duplicates: z.number() });
/** Manual entries stored, each with who its bib is. */
export const manualResultSchema = ingestResultSchema.extend({
  entries: z.array(
    z.object({
      clientId: z.string(),
      passingId: z.string(),
      known: z.boolean(),
      name: z.string().nullable(),
    }),
  ),
});
export type ManualResult = z.infer<typeof manualResultSchema>;
/** An audited change: its audit entry, and what it made. */
export const auditedSchema = z.object({
  auditId: z.string(),
  passingId: z.string().optional(),
  gunTimeMs: z.number().nullable().optional(),
  updated: z.number().optional(),
});
export const racedayAuditSchema = z.array(racedayAuditEntrySchema);

/** Reads whose chip or bib is no participant's (`GET …/unknown`). */
export const unknownRunnerSchema = z.object({
  chip: z.string().nullable(),
  bib: z.string().nullable(),
  reads: z.number(),
  lastTimeMs: z.number(),
  pointKey: z.string(),
});
export type UnknownRunner = z.infer<typeof unknownRunnerSchema>;
export { runnerStatus as racedayRunnerStatusSchema };
