import type { ChannelStats, Envelope, LocalState, PresenceMember } from './adapters/types.ts';
import { encodeMessage } from './protocol.ts';
import { textFrame } from './ws-frame.ts';

/** One connection as the hub sees it: its socket id and a way to send it a text frame. */
export interface Subscriber {
  readonly id: string;
  send(frame: Buffer): void;
  /**
   * Sends a message already framed for the WebSocket (`textFrame` of `payload`), shared by every
   * subscriber of a channel; a subscriber without it gets `send(payload)`.
   */
  sendFramed?(frame: Buffer, payload: Buffer): void;
  /** Closes the connection (terminateUserConnections). */
  close?(code: number, reason: string): void;
}

/**
 * The envelope event that closes a user's connections on every node (never sent to clients):
 * `terminateUserConnections` of the HTTP API, on the user's `#server-to-user-{id}` channel.
 */
export const TERMINATE_EVENT = 'pusher_internal:terminate_connections';
/** Events between server nodes, delivered to `onInternal` listeners only. */
export const INTERNAL_PREFIX = 'tempora_internal:';
/** 4009: "the connection is unauthorized"; pusher-js does not reconnect on it. */
const TERMINATE_CODE = 4009;

interface LocalMember {
  info: unknown;
  /** How many of this node's connections hold the user in the channel (tabs, devices). */
  sockets: number;
}

/**
 * This node's subscriptions and presence members. Pure bookkeeping, no IO: the realtime node
 * mirrors changes to the adapter, which shares them with other nodes when there are several.
 */
export class LocalHub implements LocalState {
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  private readonly presence = new Map<string, Map<string, LocalMember>>();
  /** Listeners of server-to-server events (`tempora_internal:*`: never sent to sockets). */
  private readonly internal = new Map<string, Set<(data: string) => void>>();

  /** Listens to a server-to-server event published on every node (e.g. results invalidation). */
  onInternal(event: string, listener: (data: string) => void): void {
    let set = this.internal.get(event);
    if (!set) {
      set = new Set();
      this.internal.set(event, set);
    }
    set.add(listener);
  }

  /** Signed-in users (`pusher:signin`) → their connections on this node. */
  private readonly users = new Map<string, Set<Subscriber>>();

  signIn(subscriber: Subscriber, userId: string): void {
    let set = this.users.get(userId);
    if (!set) {
      set = new Set();
      this.users.set(userId, set);
    }
    set.add(subscriber);
  }

  signOut(subscriber: Subscriber, userId: string): void {
    const set = this.users.get(userId);
    if (!set?.delete(subscriber)) return;
    if (set.size === 0) this.users.delete(userId);
  }

  /** Listeners told of a channel's first subscriber on this node (see `onOccupied`). */
  private readonly occupiedListeners = new Set<(channel: string) => void>();

  /**
   * Listens to channels getting their first subscriber on this node (issue 28: the results
   * publisher, maybe on another node, hears of it at once rather than at its next occupancy query).
   */
  onOccupied(listener: (channel: string) => void): void {
    this.occupiedListeners.add(listener);
  }

  /** Adds a subscription; false when the connection already had it. */
  add(subscriber: Subscriber, channel: string): boolean {
    let set = this.subscribers.get(channel);
    if (!set) {
      set = new Set();
      this.subscribers.set(channel, set);
    }
    if (set.has(subscriber)) return false;
    set.add(subscriber);
    if (set.size === 1)
      for (const listener of this.occupiedListeners) {
        try {
          listener(channel);
        } catch {}
      }
    return true;
  }

  /** Removes a subscription; false when the connection did not have it. */
  remove(subscriber: Subscriber, channel: string): boolean {
    const set = this.subscribers.get(channel);
    if (!set?.delete(subscriber)) return false;
    if (set.size === 0) this.subscribers.delete(channel);
    return true;
  }

  count(channel: string): number {
    return this.subscribers.get(channel)?.size ?? 0;
  }

  /** Counts a connection of `member` in a presence channel; true for the user's first one here. */
  addMember(channel: string, member: PresenceMember): boolean {
    let members = this.presence.get(channel);
    if (!members) {
      members = new Map();
      this.presence.set(channel, members);
    }
    const existing = members.get(member.id);
    if (existing) {
      existing.sockets++;
      existing.info = member.info;
      return false;
    }
    members.set(member.id, { info: member.info, sockets: 1 });
    return true;
  }

  /** Uncounts a connection of a user; true when it was the user's last one on this node. */
  removeMember(channel: string, userId: string): boolean {
    const members = this.presence.get(channel);
    const existing = members?.get(userId);
    if (!members || !existing) return false;
    if (--existing.sockets > 0) return false;
    members.delete(userId);
    if (members.size === 0) this.presence.delete(channel);
    return true;
  }

  subscriptionCounts(): Map<string, number> {
    return new Map([...this.subscribers].map(([channel, set]) => [channel, set.size]));
  }

  presenceMembers(): Map<string, PresenceMember[]> {
    return new Map([...this.presence.keys()].map((channel) => [channel, this.members(channel)]));
  }

  members(channel: string): PresenceMember[] {
    return [...(this.presence.get(channel) ?? [])].map(([id, m]) => ({ id, info: m.info }));
  }

  stats(channel: string): ChannelStats {
    const stats: ChannelStats = { subscriptionCount: this.count(channel) };
    if (channel.startsWith('presence-')) stats.userCount = this.presence.get(channel)?.size ?? 0;
    return stats;
  }

  allStats(prefix = ''): Map<string, ChannelStats> {
    const result = new Map<string, ChannelStats>();
    for (const channel of this.subscribers.keys()) {
      if (channel.startsWith(prefix)) result.set(channel, this.stats(channel));
    }
    return result;
  }

  /**
   * Sends an event to this node's subscribers of its channels. The message is encoded and framed
   * once per channel and shared by every connection (issue 28: the fan-out cost is then one
   * socket write each).
   */
  deliver(envelope: Envelope): void {
    if (envelope.event.startsWith(INTERNAL_PREFIX)) {
      for (const listener of this.internal.get(envelope.event) ?? []) {
        try {
          listener(envelope.data);
        } catch {}
      }
      return;
    }
    if (envelope.event === TERMINATE_EVENT) {
      for (const channel of envelope.channels) {
        const userId = channel.slice('#server-to-user-'.length);
        for (const subscriber of [...(this.users.get(userId) ?? [])])
          subscriber.close?.(TERMINATE_CODE, 'Connection terminated by the server');
      }
      return;
    }
    for (const channel of envelope.channels) {
      const set = this.subscribers.get(channel);
      if (!set) continue;
      const payload = Buffer.from(encodeMessage(envelope.event, envelope.data, channel, envelope.userId));
      let framed: Buffer | undefined;
      for (const subscriber of set) {
        if (subscriber.id === envelope.excludeSocketId) continue;
        if (subscriber.sendFramed) {
          framed ??= textFrame(payload);
          subscriber.sendFramed(framed, payload);
        } else subscriber.send(payload);
      }
    }
  }
}
