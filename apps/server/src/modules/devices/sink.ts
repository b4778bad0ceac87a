/**
 * Where every connector's reads go: resolved to a timing point, the clock offset applied, then
 * stored through the results service's one ingest path (so the live tables, tracking cards and
 * statistics follow) — and only then acknowledged to the device by the caller.
 */
import { MAX_INGEST_BATCH } from '@tempora/contracts';
import type { IncomingPassing } from '../results/service.ts';
import type { VendorRead } from './protocols/common.ts';
import type { ConnectorConfig } from './repository.ts';
import type { DeviceStatus } from './status.ts';

const POINT_KEY = /^[A-Za-z0-9_-]{1,64}$/;

export interface ReadSink {
  /** Stores reads durably (resolves once stored; rejects when storing failed). Returns the count stored. */
  store(config: ConnectorConfig, reads: readonly IncomingPassing[], status: DeviceStatus): Promise<number>;
}

/**
 * A vendor read → a passing: the point is the point map's entry for `vendorPoint` (a location,
 * loop or antenna), else the device's point, else `vendorPoint` itself when it is a valid key.
 * Null when no point can be named (the read is rejected and counted).
 */
export function toIncoming(
  config: Pick<ConnectorConfig, 'pointKey' | 'pointMap' | 'clockOffsetMs'>,
  read: VendorRead,
  vendorPoint: string | null = null,
): IncomingPassing | null {
  const mapped = vendorPoint !== null ? config.pointMap[vendorPoint] : undefined;
  const pointKey =
    mapped ?? config.pointKey ?? (vendorPoint && POINT_KEY.test(vendorPoint) ? vendorPoint : null);
  if (!pointKey) return null;
  return {
    ...(read.id ? { id: read.id } : {}),
    ...(read.chip ? { chip: read.chip } : {}),
    ...(read.bib ? { bib: read.bib } : {}),
    pointKey,
    timeMs: read.deviceTimeMs + config.clockOffsetMs,
  };
}

/** A sink storing through `ingest` (the results service's, or the race-day wrapper that clears DNS). */
export function createReadSink(
  ingest: (
    db: string,
    reads: readonly IncomingPassing[],
    meta: { deviceId: string },
  ) => Promise<{ accepted: number; duplicates: number }>,
): ReadSink {
  return {
    async store(config, reads, status) {
      const receivedAt = Date.now();
      let stored = 0;
      for (let k = 0; k < reads.length; k += MAX_INGEST_BATCH) {
        const part = reads.slice(k, k + MAX_INGEST_BATCH);
        const result = await ingest(config.db, part, { deviceId: config.deviceId });
        stored += result.accepted;
      }
      let last: number | null = null;
      for (const r of reads) if (last === null || r.timeMs > last) last = r.timeMs;
      status.stored(reads.length, last);
      if (last !== null) status.readLead(last, receivedAt);
      return stored;
    },
  };
}
