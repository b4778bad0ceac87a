import type { ChannelStats } from '../../realtime/adapters/types.ts';

/**
 * Which live channels someone is subscribed to (issue 28: publish only to occupied channels).
 * `has` is synchronous — a publication asks it for every report and runner it could send to —
 * and answers from this node's own subscriptions (exact), the channels other nodes announced
 * getting their first subscriber (`announce`, through the nodes' bus: heard within milliseconds),
 * and a snapshot of the cluster's occupancy (the Redis adapter's shares of every live node, or the
 * upstream Pusher service's channel list) refreshed every `refreshMs`, which also forgets the
 * channels left.
 */
export interface ChannelOccupancy {
  has(channel: string): boolean;
  /** A channel got its first subscriber on some node. */
  announce?(channel: string): void;
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
  onError?: (error: unknown) => void;
}): ChannelOccupancy {
  const { localCount, clusterChannels } = options;
  const prefix = options.prefix ?? 'results-';
  const refreshMs = options.refreshMs ?? 250;
  let snapshot: Set<string> | null = null;
  const announced = new Map<string, number>();
  let refreshing = false;
  const refresh = () => {
    if (!clusterChannels || refreshing) return;
    refreshing = true;
    clusterChannels(prefix)
      .then((channels) => {
        // Listed means occupied (Pusher's `GET /channels` lists occupied channels only, and
        // gives no count unless subscription counting is on).
        snapshot = new Set(channels.keys());
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
        if (Date.now() - at < ANNOUNCED_MS) return true;
        announced.delete(channel);
      }
      // Before the first answer: occupied, to be safe.
      return snapshot ? snapshot.has(channel) : true;
    },
    announce(channel) {
      if (clusterChannels && channel.startsWith(prefix)) announced.set(channel, Date.now());
    },
    close() {
      clearInterval(timer);
    },
  };
}
