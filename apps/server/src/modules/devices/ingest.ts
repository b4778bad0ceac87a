/**
 * The one front door for timing reads (issue 26). Every transport is an adapter that parses its
 * wire format and hands the reads here: `POST /api/ingest/passings`, the TCP line decoder
 * (`./decoder-tcp.ts`), the Impinj and RaceResult exporter routes, every connector
 * (RaceResult, Wiclax, MYLAPS, ChronoTrack) — and the passings desk through the race-day
 * service's `ingest`. In one place:
 * - device authentication against the one devices table (`devices` with its connector settings);
 * - the timing point: the point map's entry for the vendor's location / loop / antenna, else the
 *   device's point, else the vendor's name when it is a valid key;
 * - the device's time zone (IANA, daylight saving followed) for protocols that send the device's
 *   wall clock, then its clock offset;
 * - chip codes per device: as sent, leading zeros dropped, or "the EPC holds the bib";
 * - storing through the race-day service (duplicates: a read's id, else chip@point@time; any read
 *   clears a DNS), then the device's status (reads stored, last read, drift from the reads' times).
 */
import { MAX_INGEST_BATCH } from '@tempora/contracts';
import { zoneOffsetMs } from '@tempora/domain';
import type { Database } from '../../db/database.ts';
import * as resultsRepo from '../results/port.ts';
import { hashKey, type IncomingPassing } from '../results/port.ts';
import type { VendorRead } from './protocols/common.ts';
import { type ChipFormat, type ConnectorConfig, findConnector } from './repository.ts';
import type { DeviceStatus } from './status.ts';

const POINT_KEY = /^[A-Za-z0-9_-]{1,64}$/;

/** A device's wall-clock reading (written as if UTC) in its zone → UTC ms (right across DST). */
export function wallClockToUtc(wallMs: number, zone: string | null): number {
  if (!zone) return wallMs;
  const guess = wallMs - zoneOffsetMs(wallMs, zone);
  return wallMs - zoneOffsetMs(guess, zone);
}

/** A chip code as the device's format reads it: `{ chip }`, or `{ bib }` when the EPC holds the bib. */
export function readChip(chip: string, format: ChipFormat): { chip?: string; bib?: string } {
  if (format === 'as-is') return { chip };
  const trimmed = chip.replace(/^0+(?=.)/, '');
  return format === 'epc-bib' ? { bib: trimmed } : { chip: trimmed };
}

export type DeviceSettings = Pick<
  ConnectorConfig,
  'pointKey' | 'pointMap' | 'clockOffsetMs' | 'timeZone' | 'chipFormat'
>;

/**
 * A vendor read → a passing: point (map, device, vendor name), time (zone for wall-clock
 * protocols, then offset), chip (the device's format). Null when no point can be named (the read
 * is rejected and counted).
 */
export function toIncoming(
  config: DeviceSettings,
  read: VendorRead,
  vendorPoint: string | null = null,
  opts: { wallClock?: boolean } = {},
): IncomingPassing | null {
  const mapped = vendorPoint !== null ? config.pointMap[vendorPoint] : undefined;
  const pointKey =
    mapped ??
    read.pointKey ??
    config.pointKey ??
    (vendorPoint && POINT_KEY.test(vendorPoint) ? vendorPoint : null);
  if (!pointKey) return null;
  const utc = opts.wallClock ? wallClockToUtc(read.deviceTimeMs, config.timeZone ?? null) : read.deviceTimeMs;
  const runner = read.chip ? readChip(read.chip, config.chipFormat ?? 'as-is') : {};
  const bib = runner.bib ?? read.bib;
  return {
    ...(read.id ? { id: read.id } : {}),
    ...(runner.chip ? { chip: runner.chip } : {}),
    ...(bib ? { bib } : {}),
    pointKey,
    timeMs: utc + config.clockOffsetMs,
    ...((read as { deleted?: boolean }).deleted ? { deleted: true } : {}),
  };
}

export interface FrontDoor {
  /** The device a key names (its connector settings, or defaults for a plain Tempora device). */
  authenticate(key: string): Promise<ConnectorConfig | null>;
  /** The device by id (the TCP decoder authenticates itself, then stores through here). */
  device(deviceId: string): Promise<ConnectorConfig | null>;
  /**
   * Stores a device's resolved reads (in batches), then records them on its status; the drift is
   * estimated from the reads' times where the protocol asks no clock (`estimateDrift`).
   */
  store(
    config: Pick<ConnectorConfig, 'db' | 'deviceId'>,
    reads: readonly IncomingPassing[],
    opts?: { receivedAt?: number; estimateDrift?: boolean; settle?: boolean },
  ): Promise<{ accepted: number; duplicates: number }>;
}

export function createFrontDoor(deps: {
  database: Database;
  /** The race-day service's ingest: the results engine's, plus DNS clearing. */
  ingest: (
    db: string,
    reads: readonly IncomingPassing[],
    source: 'decoder',
    meta: { deviceId: string },
    opts: { settle?: boolean },
  ) => Promise<{ accepted: number; duplicates: number }>;
  status: (deviceId: string) => DeviceStatus;
}): FrontDoor {
  const { database } = deps;
  return {
    async authenticate(key) {
      if (key.length < 10 || key.length > 256) return null;
      const device = await resultsRepo.findDeviceByKeyHash(database, hashKey(key));
      return device ? findConnector(database, device.id) : null;
    },
    device: (deviceId) => findConnector(database, deviceId),
    async store(config, reads, opts = {}) {
      const receivedAt = opts.receivedAt ?? Date.now();
      const status = deps.status(config.deviceId);
      status.seen(receivedAt);
      let accepted = 0;
      let duplicates = 0;
      for (let k = 0; k < reads.length; k += MAX_INGEST_BATCH) {
        const out = await deps.ingest(
          config.db,
          reads.slice(k, k + MAX_INGEST_BATCH),
          'decoder',
          { deviceId: config.deviceId },
          { settle: opts.settle ?? false },
        );
        accepted += out.accepted;
        duplicates += out.duplicates;
      }
      let last: number | null = null;
      for (const r of reads) if (!r.deleted && (last === null || r.timeMs > last)) last = r.timeMs;
      if (reads.length) status.stored(reads.length, last);
      if (last !== null && opts.estimateDrift !== false) status.readLead(last, receivedAt);
      return { accepted, duplicates };
    },
  };
}

/** For protocols that send the device's wall clock (its time zone applies). */
export const WALL_CLOCK = { wallClock: true } as const;

/**
 * The TCP line decoder's adapter (`./decoder-tcp.ts` authenticates the device and parses
 * the lines, their zone named by AUTH): its reads get the device's point map, clock offset and
 * chip format here, and are stored and counted like every other device's.
 */
export function decoderIngest(door: FrontDoor) {
  return {
    async ingest(
      _db: string,
      reads: readonly IncomingPassing[],
      _source: 'decoder',
      meta: { deviceId?: string | null },
    ): Promise<{ accepted: number; duplicates: number }> {
      const config = meta.deviceId ? await door.device(meta.deviceId) : null;
      if (!config) throw new Error('decoder device not found');
      const incoming: IncomingPassing[] = [];
      for (const r of reads) {
        const { pointKey, timeMs, ...rest } = r;
        const p = toIncoming(config, { ...rest, pointKey, deviceTimeMs: timeMs }, pointKey);
        if (p) incoming.push(p);
      }
      return door.store(config, incoming);
    },
  };
}

/** UTC → what a device's clock shows (its zone's wall clock written as UTC, offset removed). */
export function deviceClockOf(utcMs: number, config: Pick<DeviceSettings, 'clockOffsetMs' | 'timeZone'>) {
  const utc = utcMs - config.clockOffsetMs;
  return config.timeZone ? utc + zoneOffsetMs(utc, config.timeZone) : utc;
}

/** A device clock's reading → UTC (its zone, then its offset): the inverse of `deviceClockOf`. */
export function utcOfDeviceClock(
  deviceMs: number,
  config: Pick<DeviceSettings, 'clockOffsetMs' | 'timeZone'>,
) {
  return wallClockToUtc(deviceMs, config.timeZone ?? null) + config.clockOffsetMs;
}
