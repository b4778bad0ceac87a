import type { ChannelStats } from '../../realtime/adapters/types.ts';

/**
 * Which live channels someone is subscribed to (issue 28: publish only to occupied channels).
 * `has` is synchronous — a publication asks it for every report and runner it could send to —
 * and answers from this node's own subscriptions (exact), the channels other nodes announced
 * getting their first subscriber (`announce`, through the nodes' bus: heard within milliseconds),
 * and a snapshot of the cluster's occupancy (the Redis adapter's shares of every live node, or the
 * upstream Pusher service's channel list) refreshed every `refreshMs`, which also forgets the
 * channels left. With an upstream Pusher service, its `channel_occupied` / `channel_vacated`
 * webhooks (`heard`) are applied at once and win over a snapshot asked before them; while they
 * arrive, the snapshot is only a resync, asked every `resyncMs` (Pusher's API is rate-limited).
 */
export interface ChannelOccupancy {
  has(channel: string): boolean;
  /** A channel got its first subscriber on some node. */
  announce?(channel: string): void;
  /** An occupancy webhook of the upstream service: the channel is occupied, or vacated. */
  heard?(channel: string, occupied: boolean): void;
  /** Stops the refreshing. */
  close?(): void;
}

/** How long an announced channel counts as occupied without the snapshot saying so. */
const ANNOUNCED_MS = 5_000;

export function channelOccupancy(options: {
  /** This node's subscriptions to a channel (0 when this node serves no sockets). */
  localCount(channel: string): number;
  /** The cluster's occupied channels with a prefix; absent with one node (`local` adapter). */
  clusterChannels?: (prefix: string) => Promise<Map<string, ChannelStats>>;
  prefix?: string;
  refreshMs?: number;
  /** With webhooks heard within this long, the snapshot is asked this often only (default 10 s). */
  resyncMs?: number;
  /** The clock (tests). */
  now?: () => number;
  onError?: (error: unknown) => void;
}): ChannelOccupancy {
  const { localCount, clusterChannels } = options;
  const prefix = options.prefix ?? 'results-';
  const refreshMs = options.refreshMs ?? 250;
  const resyncMs = options.resyncMs ?? 10_000;
  const now = options.now ?? Date.now;
  let snapshot: Set<string> | null = null;
  const announced = new Map<string, number>();
  /** Webhooks heard since the snapshot was asked: channel → occupied. */
  const heard = new Map<string, { occupied: boolean; at: number }>();
  let lastHeard = Number.NEGATIVE_INFINITY;
  let askedAt = Number.NEGATIVE_INFINITY;
  let refreshing = false;
  const refresh = () => {
    if (!clusterChannels || refreshing) return;
    const started = now();
    if (started - lastHeard < resyncMs && started - askedAt < resyncMs) return;
    refreshing = true;
    askedAt = started;
    clusterChannels(prefix)
      .then((channels) => {
        // Listed means occupied (Pusher's `GET /channels` lists occupied channels only, and
        // gives no count unless subscription counting is on).
        snapshot = new Set(channels.keys());
        // What was heard before the question is in the answer; what came after is newer.
        for (const [channel, h] of heard) if (h.at < started) heard.delete(channel);
      })
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        refreshing = false;
      });
  };
  const timer = clusterChannels ? setInterval(refresh, refreshMs) : undefined;
  timer?.unref();
  refresh();
  return {
    has(channel) {
      if (localCount(channel) > 0) return true;
      if (!clusterChannels) return false;
      const at = announced.get(channel);
      if (at !== undefined) {
        if (now() - at < ANNOUNCED_MS) return true;
        announced.delete(channel);
      }
      const h = heard.get(channel);
      if (h) return h.occupied;
      // Before the first answer: occupied, to be safe.
      return snapshot ? snapshot.has(channel) : true;
    },
    announce(channel) {
      if (clusterChannels && channel.startsWith(prefix)) announced.set(channel, now());
    },
    heard(channel, occupied) {
      if (!clusterChannels || !channel.startsWith(prefix)) return;
      lastHeard = now();
      heard.set(channel, { occupied, at: lastHeard });
      if (!occupied) announced.delete(channel);
    },
    close() {
      clearInterval(timer);
    },
  };
}
