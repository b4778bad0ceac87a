/**
 * Where every connector's reads go: the front door (`./ingest.ts`), which stores them through the
 * race-day service (so the live tables, tracking cards and statistics follow, and a read clears a
 * DNS) and records them on the device's status — and only then are they acknowledged to the
 * device by the caller.
 */
import type { IncomingPassing } from '../results/port.ts';
import type { FrontDoor } from './ingest.ts';
import type { ConnectorConfig } from './repository.ts';
import type { DeviceStatus } from './status.ts';

export { toIncoming } from './ingest.ts';

export interface ReadSink {
  /** Stores reads durably (resolves once stored; rejects when storing failed). Returns the count stored. */
  store(config: ConnectorConfig, reads: readonly IncomingPassing[], status: DeviceStatus): Promise<number>;
}

/** A sink storing through the front door. */
export function createReadSink(door: Pick<FrontDoor, 'store'>): ReadSink {
  return {
    async store(config, reads) {
      return (await door.store(config, reads)).accepted;
    },
  };
}
