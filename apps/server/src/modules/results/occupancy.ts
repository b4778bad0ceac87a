import type { ChannelStats } from '../../realtime/adapters/types.ts';

/**
 * Which live channels someone is subscribed to (issue 28: publish only to occupied channels).
 * `has` is synchronous — a publication asks it for every report and runner it could send to —
 * and answers from this node's own subscriptions (exact) plus a snapshot of the cluster's (the
 * Redis adapter's shares of every live node, or the upstream Pusher service's channel list),
 * refreshed in the background at most every `refreshMs` while publications ask.
 */
export interface ChannelOccupancy {
  has(channel: string): boolean;
}

/** Every channel occupied: the behaviour before issue 28 (a service built without occupancy). */
export const EVERY_CHANNEL: ChannelOccupancy = { has: () => true };

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
  let takenAt = 0;
  let refreshing = false;
  const refresh = () => {
    if (!clusterChannels || refreshing || Date.now() - takenAt < refreshMs) return;
    refreshing = true;
    clusterChannels(prefix)
      .then((channels) => {
        snapshot = new Set([...channels].filter(([, s]) => s.subscriptionCount > 0).map(([name]) => name));
        takenAt = Date.now();
      })
      .catch((error: unknown) => {
        takenAt = Date.now();
        options.onError?.(error);
      })
      .finally(() => {
        refreshing = false;
      });
  };
  return {
    has(channel) {
      if (localCount(channel) > 0) return true;
      if (!clusterChannels) return false;
      refresh();
      // Before the first answer (or when the cluster cannot be asked): occupied, to be safe.
      return snapshot ? snapshot.has(channel) : true;
    },
  };
}
