import type { LocalHub } from '../hub.ts';
import { CACHE_TTL_MS, isCacheChannel } from '../protocol.ts';
import type { ChannelStats, Envelope, PresenceMember, RealtimeAdapter } from './types.ts';

/**
 * One process (the default): events go straight to this node's subscribers, and occupancy is
 * this node's. A user's first connection here is their first anywhere, so presence changes are
 * always announced.
 */
export function localAdapter(hub: LocalHub): RealtimeAdapter {
  const cache = new Map<string, { event: string; data: string; at: number }>();
  return {
    name: 'local',
    servesSockets: true,
    async start() {},
    async publish(envelope: Envelope) {
      rememberLast(cache, envelope);
      hub.deliver(envelope);
    },
    async lastEvent(channel: string) {
      const last = cache.get(channel);
      if (!last || Date.now() - last.at > CACHE_TTL_MS) return null;
      return { event: last.event, data: last.data };
    },
    async channels(prefix?: string): Promise<Map<string, ChannelStats>> {
      return hub.allStats(prefix);
    },
    async channel(name: string) {
      return hub.stats(name);
    },
    async members(channel: string): Promise<PresenceMember[]> {
      return hub.members(channel);
    },
    async subscriptionChanged() {},
    async memberJoined() {
      return true;
    },
    async memberLeft() {
      return true;
    },
    async close() {},
  };
}

/** Keeps the last event of each cache channel (internal events excepted), dropping expired ones. */
export function rememberLast(
  cache: Map<string, { event: string; data: string; at: number }>,
  envelope: Envelope,
): void {
  if (envelope.event.startsWith('pusher')) return;
  const now = Date.now();
  for (const channel of envelope.channels) {
    if (isCacheChannel(channel)) cache.set(channel, { event: envelope.event, data: envelope.data, at: now });
  }
  if (cache.size > 10_000) for (const [k, v] of cache) if (now - v.at > CACHE_TTL_MS) cache.delete(k);
}
