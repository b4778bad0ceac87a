import type { Envelope, RealtimeAdapter } from './adapters/types.ts';
import type { LocalHub, Subscriber } from './hub.ts';
import {
  type ClientMessage,
  channelType,
  codes,
  encodeMessage,
  errorMessage,
  MAX_DATA_BYTES,
  parseChannelData,
  verifyChannelAuth,
} from './protocol.ts';

/** A connection as the node needs it: the hub's view plus its channels and a few protocol replies. */
export interface NodeConnection extends Subscriber {
  /** Subscribed channels → the presence user id (null on other channels). */
  readonly channels: Map<string, string | null>;
  sendText(frame: string): void;
  /** Takes one client-event token; false when over the protocol's rate. */
  takeClientEventToken(): boolean;
}

export interface NodeOptions {
  key: string;
  secret: string;
  clientEvents: boolean;
}

type SubscribeData = Extract<ClientMessage, { event: 'pusher:subscribe' }>['data'];

/**
 * The protocol's channel logic on one node: subscriptions (with the signature check), presence
 * membership announcements and client events, over the local hub and the adapter that shares
 * them with other nodes.
 */
export class RealtimeNode {
  constructor(
    readonly hub: LocalHub,
    readonly adapter: RealtimeAdapter,
    private readonly options: NodeOptions,
  ) {}

  /** `pusher:subscribe`: answers subscription_succeeded or a `pusher:subscription_error`. */
  async subscribe(conn: NodeConnection, data: SubscribeData): Promise<void> {
    const { channel } = data;
    const kind = channelType(channel);
    if ('error' in kind) return refuse(conn, channel, 400, kind.error);
    const channelData = kind.type === 'presence' ? data.channel_data : undefined;
    if (kind.type !== 'public') {
      if (kind.type === 'presence' && !channelData) return refuse(conn, channel, 400, 'Missing channel_data');
      const { key, secret } = this.options;
      if (!verifyChannelAuth(key, secret, conn.id, channel, data.auth, channelData)) {
        return refuse(conn, channel, 401, `Invalid signature for subscription to ${channel}`);
      }
    }
    const member = kind.type === 'presence' ? parseChannelData(channelData) : null;
    if (kind.type === 'presence' && !member) return refuse(conn, channel, 400, 'Invalid channel_data');
    if (conn.channels.has(channel)) return this.succeed(conn, channel, kind.type === 'presence');
    conn.channels.set(channel, member?.id ?? null);
    this.hub.add(conn, channel);
    await this.adapter.subscriptionChanged(channel, this.hub.count(channel));
    if (!member) return this.succeed(conn, channel, false);
    const firstAnywhere =
      this.hub.addMember(channel, member) && (await this.adapter.memberJoined(channel, member));
    await this.succeed(conn, channel, true);
    if (firstAnywhere) {
      const added = JSON.stringify({ user_id: member.id, user_info: member.info });
      await this.adapter.publish({
        channels: [channel],
        event: 'pusher_internal:member_added',
        data: added,
        excludeSocketId: conn.id,
      });
    }
  }

  /** `pusher:unsubscribe` (and every channel of a closing connection). */
  async unsubscribe(conn: NodeConnection, channel: string): Promise<void> {
    if (!conn.channels.has(channel)) return;
    const userId = conn.channels.get(channel) ?? null;
    conn.channels.delete(channel);
    this.hub.remove(conn, channel);
    await this.adapter.subscriptionChanged(channel, this.hub.count(channel));
    if (userId === null || !this.hub.removeMember(channel, userId)) return;
    if (await this.adapter.memberLeft(channel, userId)) {
      await this.adapter.publish({
        channels: [channel],
        event: 'pusher_internal:member_removed',
        data: JSON.stringify({ user_id: userId }),
      });
    }
  }

  async leaveAll(conn: NodeConnection): Promise<void> {
    for (const channel of [...conn.channels.keys()]) await this.unsubscribe(conn, channel);
  }

  /**
   * A `client-*` event: only on private and presence channels the connection is subscribed to,
   * only when the operator enabled them, at most 10 per second ("Client events" in the docs).
   */
  async clientEvent(conn: NodeConnection, event: string, channel: string, data: string): Promise<void> {
    if (!this.options.clientEvents)
      return conn.sendText(errorMessage(codes.unauthorized, 'Client events are disabled'));
    const kind = channelType(channel);
    if ('error' in kind || kind.type === 'public') {
      return conn.sendText(
        errorMessage(codes.unauthorized, 'Client events need a private or presence channel'),
      );
    }
    if (!conn.channels.has(channel)) {
      return conn.sendText(errorMessage(codes.unauthorized, `Not subscribed to ${channel}`));
    }
    if (Buffer.byteLength(data) > MAX_DATA_BYTES)
      return conn.sendText(errorMessage(null, 'Event data too large'));
    if (!conn.takeClientEventToken()) {
      return conn.sendText(
        errorMessage(codes.clientEventRateLimited, 'Client event rejected due to rate limit'),
      );
    }
    const envelope: Envelope = { channels: [channel], event, data, excludeSocketId: conn.id };
    if (kind.type === 'presence') envelope.userId = conn.channels.get(channel) ?? undefined;
    await this.adapter.publish(envelope);
  }

  private async succeed(conn: NodeConnection, channel: string, presence: boolean): Promise<void> {
    let data = '{}';
    if (presence) {
      const members = await this.adapter.members(channel);
      const hash = Object.fromEntries(members.map((m) => [m.id, m.info]));
      data = JSON.stringify({ presence: { ids: members.map((m) => m.id), hash, count: members.length } });
    }
    conn.sendText(encodeMessage('pusher_internal:subscription_succeeded', data, channel));
  }
}

/**
 * A refused subscription: `pusher:subscription_error` on the channel, which pusher-js emits on
 * the channel object (the same shape it uses when its own authorizer fails).
 */
function refuse(conn: NodeConnection, channel: string, status: number, error: string): void {
  const type = status === 401 ? 'AuthError' : 'SubscriptionError';
  conn.sendText(encodeMessage('pusher:subscription_error', { type, error, status }, channel));
}
