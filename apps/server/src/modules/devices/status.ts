/**
 * A device's live state as the devices panel shows it (kept in memory by the node running its
 * connector): connected / waiting / error with the reason, last read, reads per minute, clock
 * drift against the server, battery where the protocol gives it.
 */
export type DeviceState = 'disabled' | 'waiting' | 'connected' | 'error';

export interface DeviceStatusView {
  state: DeviceState;
  reason: string | null;
  since: number;
  lastSeenAt: number | null;
  lastReadAt: number | null;
  lastReadTimeMs: number | null;
  readsStored: number;
  readsPerMinute: number;
  rejected: number;
  driftMs: number | null;
  battery: number | null;
  peer: string | null;
}

export class DeviceStatus {
  state: DeviceState = 'waiting';
  reason: string | null = null;
  since = Date.now();
  lastSeenAt: number | null = null;
  lastReadAt: number | null = null;
  lastReadTimeMs: number | null = null;
  readsStored = 0;
  rejected = 0;
  driftMs: number | null = null;
  battery: number | null = null;
  peer: string | null = null;
  /** Reads stored per second over the last minute (ring of 60 buckets). */
  private readonly buckets = new Float64Array(60);
  private readonly bucketAt = new Float64Array(60);

  set(state: DeviceState, reason: string | null = null, peer: string | null = this.peer) {
    if (state !== this.state || reason !== this.reason) this.since = Date.now();
    this.state = state;
    this.reason = reason;
    this.peer = peer;
  }

  seen(now = Date.now()) {
    this.lastSeenAt = now;
  }

  stored(count: number, lastTimeMs: number | null, now = Date.now()) {
    this.seen(now);
    if (count <= 0) return;
    this.readsStored += count;
    this.lastReadAt = now;
    if (lastTimeMs !== null) this.lastReadTimeMs = lastTimeMs;
    const second = Math.floor(now / 1000);
    const slot = second % 60;
    if (this.bucketAt[slot] !== second) {
      this.bucketAt[slot] = second;
      this.buckets[slot] = 0;
    }
    this.buckets[slot] = this.buckets[slot]! + count;
  }

  perMinute(now = Date.now()): number {
    const second = Math.floor(now / 1000);
    let sum = 0;
    for (let k = 0; k < 60; k++) if (second - this.bucketAt[k]! < 60) sum += this.buckets[k]!;
    return sum;
  }

  view(now = Date.now()): DeviceStatusView {
    return {
      state: this.state,
      reason: this.reason,
      since: this.since,
      lastSeenAt: this.lastSeenAt,
      lastReadAt: this.lastReadAt,
      lastReadTimeMs: this.lastReadTimeMs,
      readsStored: this.readsStored,
      readsPerMinute: this.perMinute(now),
      rejected: this.rejected,
      driftMs: this.driftMs,
      battery: this.battery,
      peer: this.peer,
    };
  }
}
