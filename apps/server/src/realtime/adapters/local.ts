import type { LocalHub } from '../hub.ts';
import type { ChannelStats, Envelope, PresenceMember, RealtimeAdapter } from './types.ts';

/**
 * One process (the default): events go straight to this node's subscribers, and occupancy is
 * this node's. A user's first connection here is their first anywhere, so presence changes are
 * always announced.
 */
export function localAdapter(hub: LocalHub): RealtimeAdapter {
  return {
    name: 'local',
    servesSockets: true,
    async start() {},
    async publish(envelope: Envelope) {
      hub.deliver(envelope);
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
