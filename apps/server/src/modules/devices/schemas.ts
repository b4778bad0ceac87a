import { isTimeZone } from '@tempora/domain';
import { z } from 'zod';
import { CHIP_FORMATS, CONNECTOR_KINDS } from './repository.ts';

/** Input schemas of the race-day routes (every route validates with zod: 400 problem+json). */

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
});

export const correctionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('void'), passingId: z.string().min(1).max(200), reason }),
  z.object({ action: z.literal('restore'), passingId: z.string().min(1).max(200), reason }),
  z
    .object({
      action: z.literal('edit'),
      passingId: z.string().min(1).max(200),
      timeMs: epochMs.optional(),
      pointKey: key.optional(),
      reason,
    })
    .refine((v) => v.timeMs !== undefined || v.pointKey !== undefined, 'a new time or point is required'),
  z.object({ action: z.literal('add'), bib, pointKey: key, timeMs: epochMs, reason }),
]);

export const undoSchema = z.object({ reason });

export const statusSchema = z.object({
  bib,
  status: z.enum(['registered', 'DNS', 'DNF', 'DSQ']),
  reason,
});

export const startSchema = z.discriminatedUnion('action', [
  /** Fire the gun: the time is the server's at the press unless the client's key-press time is given. */
  z.object({ action: z.literal('gun'), timeMs: epochMs.nullable().optional(), reason }),
  z.object({ action: z.literal('wave'), waveId: key, timeMs: epochMs, reason }),
  z.object({
    action: z.literal('individual'),
    starts: z
      .array(z.object({ bib, startTimeMs: epochMs.nullable() }))
      .min(1)
      .max(50_000),
    reason,
  }),
]);

export const assignSchema = z.object({
  chip: z.string().min(1).max(64),
  raceId: z.string().min(1).max(100),
  bib,
});

export const auditQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });

export const ingestKeyQuery = z.object({ key: z.string().min(10).max(200).optional() });
