import type { Envelope, RealtimeAdapter } from './adapters/types.ts';
import type { LocalHub, Subscriber } from './hub.ts';
import {
  type ClientMessage,
  channelType,
  codes,
  encodeMessage,
  errorMessage,
  isCacheChannel,
  MAX_DATA_BYTES,
  parseChannelData,
  parseUserData,
  SERVER_TO_USER_PREFIX,
  safeEqual,
  signUser,
  verifyChannelAuth,
} from './protocol.ts';
import type { Webhooks } from './webhooks.ts';

/** A connection as the node needs it: the hub's view plus its channels and a few protocol replies. */
export interface NodeConnection extends Subscriber {
  /** Subscribed channels → the presence user id (null on other channels). */
  readonly channels: Map<string, string | null>;
  /** The user signed in on this connection (`pusher:signin`), or null. */
  userId: string | null;
  sendText(frame: string): void;
  close(code: number, reason: string): void;
  /** Takes one client-event token; false when over the protocol's rate. */
  takeClientEventToken(): boolean;
}

export interface NodeOptions {
  key: string;
  secret: string;
  clientEvents: boolean;
  /** Send `pusher_internal:subscription_count` to non-presence channels when their count changes. */
  subscriptionCount?: boolean;
  webhooks?: Webhooks;
}

/** Subscription-count events of one channel are sent at most this often (the last count wins). */
const SUBSCRIPTION_COUNT_INTERVAL_MS = 1000;

type SubscribeData = Extract<ClientMessage, { event: 'pusher:subscribe' }>['data'];

/**
 * The protocol's channel logic on one node: subscriptions (with the signature check), presence
 * membership announcements and client events, over the local hub and the adapter that shares
 * them with other nodes.
 */
export class RealtimeNode {
  private readonly countTimers = new Map<string, NodeJS.Timeout>();

  constructor(
    readonly hub: LocalHub,
    readonly adapter: RealtimeAdapter,
    private readonly options: NodeOptions,
  ) {}

  /**
   * `pusher:signin` ("User authentication"): checks the signature of `socket_id::user::user_data`,
   * answers `pusher:signin_success`; the client then subscribes to `#server-to-user-{id}`, which
   * `sendToUser` publishes to. A bad signature closes the connection with 4009, as Pusher does.
   */
  signin(conn: NodeConnection, data: { auth: string; user_data: string }): void {
    const { key, secret } = this.options;
    const userId = parseUserData(data.user_data);
    if (!userId || !safeEqual(data.auth, signUser(key, secret, conn.id, data.user_data))) {
      conn.sendText(errorMessage(codes.unauthorized, 'Invalid signature for user authentication'));
      conn.close(codes.unauthorized, 'Invalid signature for user authentication');
      return;
    }
    if (conn.userId && conn.userId !== userId) this.hub.signOut(conn, conn.userId);
    conn.userId = userId;
    this.hub.signIn(conn, userId);
    conn.sendText(encodeMessage('pusher:signin_success', { user_data: data.user_data }));
  }

  /** `pusher:subscribe`: answers subscription_succeeded or a `pusher:subscription_error`. */
  async subscribe(conn: NodeConnection, data: SubscribeData): Promise<void> {
    const { channel } = data;
    const kind = channelType(channel);
    if ('error' in kind) return refuse(conn, channel, 400, kind.error);
    if (kind.type === 'user' && channel !== `${SERVER_TO_USER_PREFIX}${conn.userId}`) {
      return refuse(conn, channel, 403, `Sign in as this user to subscribe to ${channel}`);
    }
    const channelData = kind.type === 'presence' ? data.channel_data : undefined;
    if (kind.type === 'private' || kind.type === 'presence') {
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
    await this.occupancyChanged(channel, kind.type, +1);
    if (!member) return this.succeed(conn, channel, false);
    const firstAnywhere =
      this.hub.addMember(channel, member) && (await this.adapter.memberJoined(channel, member));
    await this.succeed(conn, channel, true);
    if (firstAnywhere) {
      this.options.webhooks?.emit({ name: 'member_added', channel, user_id: member.id });
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
    const kind = channelType(channel);
    await this.occupancyChanged(channel, 'error' in kind ? 'public' : kind.type, -1);
    if (userId === null || !this.hub.removeMember(channel, userId)) return;
    if (await this.adapter.memberLeft(channel, userId)) {
      this.options.webhooks?.emit({ name: 'member_removed', channel, user_id: userId });
      await this.adapter.publish({
        channels: [channel],
        event: 'pusher_internal:member_removed',
        data: JSON.stringify({ user_id: userId }),
      });
    }
  }

  async leaveAll(conn: NodeConnection): Promise<void> {
    if (conn.userId) this.hub.signOut(conn, conn.userId);
    for (const channel of [...conn.channels.keys()]) await this.unsubscribe(conn, channel);
  }

  /**
   * After a subscription count changed: `channel_occupied` / `channel_vacated` webhooks when the
   * channel's cluster-wide count moved from or to zero, and the throttled subscription-count event.
   */
  private async occupancyChanged(channel: string, type: string, delta: 1 | -1): Promise<void> {
    const webhooks = this.options.webhooks?.enabled ? this.options.webhooks : null;
    const counting = this.options.subscriptionCount && type !== 'presence' && type !== 'user';
    if (!webhooks && !counting) return;
    if (webhooks) {
      const total = (await this.adapter.channel(channel)).subscriptionCount;
      if (delta > 0 && total === 1) webhooks.emit({ name: 'channel_occupied', channel });
      if (delta < 0 && total === 0) webhooks.emit({ name: 'channel_vacated', channel });
    }
    if (counting && !this.countTimers.has(channel)) {
      const timer = setTimeout(() => {
        this.countTimers.delete(channel);
        void this.adapter
          .channel(channel)
          .then((stats) =>
            stats.subscriptionCount > 0
              ? this.adapter.publish({
                  channels: [channel],
                  event: 'pusher_internal:subscription_count',
                  data: JSON.stringify({ subscription_count: stats.subscriptionCount }),
                })
              : undefined,
          )
          .catch(() => undefined);
      }, SUBSCRIPTION_COUNT_INTERVAL_MS);
      timer.unref();
      this.countTimers.set(channel, timer);
    }
  }

  /** Stops pending subscription-count timers (close). */
  stop(): void {
    for (const timer of this.countTimers.values()) clearTimeout(timer);
    this.countTimers.clear();
  }

  /**
   * A `client-*` event: only on private and presence channels the connection is subscribed to,
   * only when the operator enabled them, at most 10 per second ("Client events" in the docs).
   */
  async clientEvent(conn: NodeConnection, event: string, channel: string, data: string): Promise<void> {
    if (!this.options.clientEvents)
      return conn.sendText(errorMessage(codes.unauthorized, 'Client events are disabled'));
    const kind = channelType(channel);
    if ('error' in kind || kind.type === 'public' || kind.type === 'user') {
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
    this.options.webhooks?.emit({
      name: 'client_event',
      channel,
      event,
      data,
      socket_id: conn.id,
      ...(envelope.userId ? { user_id: envelope.userId } : {}),
    });
  }

  private async succeed(conn: NodeConnection, channel: string, presence: boolean): Promise<void> {
    let data = '{}';
    if (presence) {
      const members = await this.adapter.members(channel);
      const hash = Object.fromEntries(members.map((m) => [m.id, m.info]));
      data = JSON.stringify({ presence: { ids: members.map((m) => m.id), hash, count: members.length } });
    }
    conn.sendText(encodeMessage('pusher_internal:subscription_succeeded', data, channel));
    if (!isCacheChannel(channel)) return;
    // Cache channels: the last event to the new subscriber, or `pusher:cache_miss`.
    const last = await this.adapter.lastEvent(channel);
    if (last) conn.sendText(encodeMessage(last.event, last.data, channel));
    else {
      conn.sendText(encodeMessage('pusher:cache_miss', '{}', channel));
      this.options.webhooks?.emit({ name: 'cache_miss', channel });
    }
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
