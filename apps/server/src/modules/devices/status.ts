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
  /** How the drift is known: the device's clock asked (`clock`), or estimated from its reads' times (`reads`). */
  driftSource: 'clock' | 'reads' | null;
  battery: number | null;
  peer: string | null;
}

/** Reads' lag kept for the drift estimate: the last two minutes, in buckets of 10 s. */
const LAG_BUCKETS = 12;
const LAG_BUCKET_MS = 10_000;

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
  driftSource: 'clock' | 'reads' | null = null;
  battery: number | null = null;
  peer: string | null = null;
  /** Reads stored per second over the last minute (ring of 60 buckets). */
  private readonly buckets = new Float64Array(60);
  private readonly bucketAt = new Float64Array(60);
  /** Per 10 s bucket: the largest (read time − receive time) seen. */
  private readonly lead = new Float64Array(LAG_BUCKETS);
  private readonly leadAt = new Float64Array(LAG_BUCKETS).fill(-1);

  set(state: DeviceState, reason: string | null = null, peer: string | null = this.peer) {
    if (state !== this.state || reason !== this.reason) this.since = Date.now();
    this.state = state;
    this.reason = reason;
    this.peer = peer;
  }

  /** The device's clock, asked (RaceResult GETSTATUS, Wiclax CLOCK): device − server, offset applied. */
  clockDrift(ms: number) {
    this.driftMs = ms;
    this.driftSource = 'clock';
  }

  /**
   * Reads received together at `receivedAt`, the latest made at `latestMs` (device time with the
   * offset applied), for protocols without a clock query (MYLAPS, ChronoTrack, Impinj, the
   * RaceResult exporter). A read cannot arrive before it is made, so read − receive is at most
   * the drift, and close to it for the promptest read: the estimate is the largest read − receive
   * over the last two minutes (reads re-sent late after a reconnection only lower their own
   * values). A drift from a clock query is kept over an estimate.
   */
  readLead(latestMs: number, receivedAt = Date.now()) {
    if (this.driftSource === 'clock') return;
    const bucket = Math.floor(receivedAt / LAG_BUCKET_MS);
    const slot = bucket % LAG_BUCKETS;
    const lead = latestMs - receivedAt;
    if (this.leadAt[slot] !== bucket) {
      this.leadAt[slot] = bucket;
      this.lead[slot] = lead;
    } else if (lead > this.lead[slot]!) this.lead[slot] = lead;
    let best = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < LAG_BUCKETS; k++)
      if (bucket - this.leadAt[k]! < LAG_BUCKETS && this.lead[k]! > best) best = this.lead[k]!;
    this.driftMs = Math.round(best);
    this.driftSource = 'reads';
  }

  /** Forgets the drift (a new clock offset was applied: the old measure no longer holds). */
  resetDrift() {
    this.driftMs = null;
    this.driftSource = null;
    this.leadAt.fill(-1);
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
      driftSource: this.driftSource,
      battery: this.battery,
      peer: this.peer,
    };
  }
}
