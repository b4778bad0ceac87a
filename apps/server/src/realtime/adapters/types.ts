/**
 * What the rest of the server uses to send realtime events (style.md: services take a
 * publisher). `data` is JSON-encoded unless it is already a string, as the official libraries do.
 */
export interface RealtimePublisher {
  /**
   * `maxDataBytes`: a larger limit than the protocol's 10 KB for the server's own events (issue
   * 20: a live results patch beats a reload that makes every open table fetch the report again);
   * an upstream Pusher service keeps its own limit, so callers pass it only with their own nodes.
   */
  publish(
    channels: string[],
    event: string,
    data: unknown,
    excludeSocketId?: string,
    maxDataBytes?: number,
  ): Promise<void>;
}

/** One event for some channels, data already encoded: what travels between nodes. */
export interface Envelope {
  channels: string[];
  event: string;
  data: string;
  /** The protocol's `socket_id` exclusion: this connection does not receive the event. */
  excludeSocketId?: string;
  /** Set on client events of presence channels (the protocol's `user_id` field). */
  userId?: string;
}

/** Occupancy of one channel; `userCount` only for presence channels. */
export interface ChannelStats {
  subscriptionCount: number;
  userCount?: number;
}

/** A presence member as the protocol lists it: `user_id` and `user_info`. */
export interface PresenceMember {
  id: string;
  info: unknown;
}

/** The node-local state an adapter reads when it has to republish this node's share (Redis). */
export interface LocalState {
  /** Local subscription count per channel. */
  subscriptionCounts(): Map<string, number>;
  /** Local presence members per presence channel. */
  presenceMembers(): Map<string, PresenceMember[]>;
  /** Delivers an envelope to this node's subscribers. */
  deliver(envelope: Envelope): void;
}

/**
 * How events and occupancy are shared: `local` (one process), `redis` (several nodes through
 * Redis pub/sub), `pusher-http` (an upstream Pusher-compatible service through its HTTP API).
 */
export interface RealtimeAdapter {
  readonly name: 'local' | 'redis' | 'pusher-http';
  /** Whether this node serves WebSocket clients itself (not when events go to an upstream). */
  readonly servesSockets: boolean;
  start(local: LocalState): Promise<void>;
  /** Sends an envelope to every subscriber of its channels, on every node. */
  publish(envelope: Envelope): Promise<void>;
  /** Occupied channels (optionally those starting with `prefix`) and their occupancy. */
  channels(prefix?: string): Promise<Map<string, ChannelStats>>;
  channel(name: string): Promise<ChannelStats>;
  members(channel: string): Promise<PresenceMember[]>;
  /** This node's subscription count of a channel changed. */
  subscriptionChanged(channel: string, localCount: number): Promise<void>;
  /** A user joined a presence channel on this node; true when no other node has them (member_added). */
  memberJoined(channel: string, member: PresenceMember): Promise<boolean>;
  /** A user left a presence channel on this node; true when no node has them any more (member_removed). */
  memberLeft(channel: string, userId: string): Promise<boolean>;
  /** The last event published on a cache channel within its TTL, or null (`pusher:cache_miss`). */
  lastEvent(channel: string): Promise<{ event: string; data: string } | null>;
  close(): Promise<void>;
}

/** Encodes publisher data the way the official server libraries do (strings pass through). */
export function encodeData(data: unknown): string {
  return typeof data === 'string' ? data : JSON.stringify(data ?? null);
}
