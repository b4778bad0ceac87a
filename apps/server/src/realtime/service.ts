import { AppError, errors } from '../errors.ts';
import {
  type ChannelStats,
  type Envelope,
  encodeData,
  type PresenceMember,
  type RealtimeAdapter,
  type RealtimePublisher,
} from './adapters/types.ts';
import { INTERNAL_PREFIX, type LocalHub, TERMINATE_EVENT } from './hub.ts';
import { channelType, isEventName, isSocketId, MAX_DATA_BYTES, SERVER_TO_USER_PREFIX } from './protocol.ts';

/** Channels per event, as the HTTP API allows ("limited to 100 channels"). */
export const MAX_CHANNELS_PER_EVENT = 100;

/** `app.realtime`: publish to channels, and ask the cluster-wide occupancy. */
export interface RealtimeService extends RealtimePublisher {
  readonly adapter: RealtimeAdapter['name'];
  /** Publishes an already validated envelope (the events API). */
  publishEnvelope(envelope: Envelope): Promise<void>;
  channels(prefix?: string): Promise<Map<string, ChannelStats>>;
  channel(name: string): Promise<ChannelStats>;
  members(channel: string): Promise<PresenceMember[]>;
  /** WebSocket connections held by this node. */
  localConnections(): number;
  /** This node's subscriptions to a channel (issue 28: occupancy without a round trip). */
  localCount(channel: string): number;
  /** Channels with at least one subscriber on this node (metrics). */
  localChannels(): number;
  /** Listens to channels getting their first subscriber on this node (`LocalHub.onOccupied`). */
  onLocalOccupied(listener: (channel: string) => void): void;
  /**
   * Listens to the upstream Pusher service's occupancy webhooks (`pusher-http` adapter, issue 28:
   * `channel_occupied` / `channel_vacated` at `POST /api/realtime/webhooks`).
   */
  onUpstreamOccupancy(listener: (channel: string, occupied: boolean) => void): void;
  /** Hands a verified occupancy webhook to the listeners (the webhook route). */
  upstreamOccupancy(channel: string, occupied: boolean): void;
  /** An event to every connection signed in as the user (`pusher:signin`), on every node. */
  sendToUser(userId: string, event: string, data: unknown): Promise<void>;
  /** Closes every connection signed in as the user, on every node. */
  terminateUserConnections(userId: string): Promise<void>;
  /** Sends a server-to-server event to every node, this one included (`tempora_internal:*`). */
  broadcastInternal(event: string, data: string): Promise<void>;
  /** Listens to a server-to-server event. */
  onInternal(event: string, listener: (data: string) => void): void;
  /**
   * Sets the check of closed channels (issue 42: a draft's, a hidden report's; the policy's
   * `visibility.channelClosed`): every publication, the events API's included, skips them.
   */
  closeChannels(closed: (channel: string) => Promise<boolean>): void;
}

/**
 * Checks an event against the protocol's limits (channel names, event name, 10 KB of data,
 * 100 channels) and throws the matching 400/413 problem. Event names starting with `pusher:`
 * or `pusher_internal:` are the protocol's own and cannot be published.
 */
export function validateEnvelope(envelope: Envelope, maxDataBytes = MAX_DATA_BYTES): void {
  const { channels, event, data, excludeSocketId } = envelope;
  if (!isEventName(event) || event.startsWith('pusher:') || event.startsWith('pusher_internal:')) {
    throw errors.badRequest('REALTIME_EVENT_INVALID', `Invalid event name '${String(event).slice(0, 200)}'`);
  }
  if (channels.length === 0 || channels.length > MAX_CHANNELS_PER_EVENT) {
    throw errors.badRequest('REALTIME_CHANNELS_INVALID', `Between 1 and ${MAX_CHANNELS_PER_EVENT} channels`);
  }
  for (const channel of channels) {
    const kind = channelType(channel);
    if ('error' in kind) throw errors.badRequest('REALTIME_CHANNEL_INVALID', kind.error);
  }
  if (excludeSocketId !== undefined && !isSocketId(excludeSocketId)) {
    throw errors.badRequest('REALTIME_SOCKET_ID_INVALID', 'Invalid socket_id');
  }
  if (Buffer.byteLength(data) > maxDataBytes) {
    throw new AppError(413, 'REALTIME_DATA_TOO_LARGE', `Event data is limited to ${maxDataBytes} bytes`);
  }
}

/** Builds the service over an adapter; `localConnections` reads the socket server's count. */
export function createRealtimeService(
  adapter: RealtimeAdapter,
  localConnections: () => number,
  hub?: LocalHub,
): RealtimeService {
  let closed: ((channel: string) => Promise<boolean>) | null = null;
  const publishEnvelope = async (envelope: Envelope, maxDataBytes?: number) => {
    // An upstream Pusher service refuses more than its limit: the larger one is for our nodes.
    validateEnvelope(envelope, adapter.servesSockets ? maxDataBytes : undefined);
    if (closed) {
      const check = closed;
      const shut = await Promise.all(envelope.channels.map((channel) => check(channel)));
      const open = envelope.channels.filter((_, i) => !shut[i]);
      if (!open.length) return;
      if (open.length < envelope.channels.length) envelope = { ...envelope, channels: open };
    }
    await adapter.publish(envelope);
  };
  const occupancyListeners = new Set<(channel: string, occupied: boolean) => void>();
  return {
    adapter: adapter.name,
    publishEnvelope,
    async publish(channels, event, data, excludeSocketId, maxDataBytes) {
      const envelope: Envelope = { channels, event, data: encodeData(data) };
      if (excludeSocketId) envelope.excludeSocketId = excludeSocketId;
      await publishEnvelope(envelope, maxDataBytes);
    },
    channels: (prefix) => adapter.channels(prefix),
    channel: (name) => adapter.channel(name),
    members: (channel) => adapter.members(channel),
    localConnections,
    localCount: (channel) => hub?.count(channel) ?? 0,
    localChannels: () => hub?.subscriptionCounts().size ?? 0,
    onLocalOccupied: (listener) => hub?.onOccupied(listener),
    onUpstreamOccupancy(listener) {
      occupancyListeners.add(listener);
    },
    upstreamOccupancy(channel, occupied) {
      for (const listener of occupancyListeners) listener(channel, occupied);
    },
    async sendToUser(userId, event, data) {
      await publishEnvelope({
        channels: [`${SERVER_TO_USER_PREFIX}${userId}`],
        event,
        data: encodeData(data),
      });
    },
    async broadcastInternal(event, data) {
      const envelope: Envelope = { channels: ['#internal'], event: `${INTERNAL_PREFIX}${event}`, data };
      // An upstream Pusher service would hand it to browsers: then this node is the only one.
      if (adapter.servesSockets) await adapter.publish(envelope);
      else hub?.deliver(envelope);
    },
    onInternal(event, listener) {
      hub?.onInternal(`${INTERNAL_PREFIX}${event}`, listener);
    },
    closeChannels(check) {
      closed = check;
    },
    async terminateUserConnections(userId) {
      // A control envelope: every node's hub closes its connections of the user (hub.ts).
      await adapter.publish({
        channels: [`${SERVER_TO_USER_PREFIX}${userId}`],
        event: TERMINATE_EVENT,
        data: '{}',
      });
    },
  };
}
