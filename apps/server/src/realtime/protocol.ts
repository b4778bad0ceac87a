import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * Pusher Channels protocol 7, the pure part: message shapes, channel name rules, error codes and
 * the channel authorisation signature. Source: Pusher's "Pusher Channels Protocol" and
 * "Authentication and authorization signatures" documents (pusher.com/docs/channels/
 * library_auth_reference/), checked against what pusher-js 8 sends and expects.
 */
export const PROTOCOL_VERSIONS = [5, 6, 7] as const;

/** Seconds of silence after which a client pings (sent in `pusher:connection_established`). */
export const DEFAULT_ACTIVITY_TIMEOUT_S = 120;
/** The protocol recommends closing with 4201 when no pong arrives within 30 s of a ping. */
export const PONG_TIMEOUT_S = 30;
/** Event data limit: "the data content of an event is limited to 10KB". */
export const MAX_DATA_BYTES = 10 * 1024;
/** A WebSocket message may hold the envelope around 10 KB of data plus a presence channel_data. */
export const MAX_FRAME_BYTES = 16 * 1024;
/**
 * Frames up to this size are read and refused with a `pusher:error` (the connection stays open,
 * as Pusher answers an oversized client event); only beyond it does the socket close with 1009.
 */
export const MAX_READ_FRAME_BYTES = 256 * 1024;
/** How long the last event of a cache channel is kept ("Cache channels": 30 minutes). */
export const CACHE_TTL_MS = 30 * 60_000;
/** The channel pusher-js subscribes to after `pusher:signin` ("User authentication"). */
export const SERVER_TO_USER_PREFIX = '#server-to-user-';
export const MAX_CHANNEL_NAME = 164;
export const MAX_EVENT_NAME = 200;
export const MAX_USER_ID = 128;
/** "Client events are limited to 10 messages per second per client (connection)". */
export const CLIENT_EVENTS_PER_SECOND = 10;

/**
 * Close / error codes of the protocol: 4000–4099 the client must not reconnect, 4100–4199 it
 * reconnects after a back-off, 4200–4299 it reconnects at once, 4300–4399 other errors.
 */
export const codes = {
  sslOnly: 4000,
  appNotFound: 4001,
  appDisabled: 4003,
  overQuota: 4004,
  pathNotFound: 4005,
  invalidVersion: 4006,
  unsupportedProtocol: 4007,
  noProtocol: 4008,
  unauthorized: 4009,
  overCapacity: 4100,
  reconnect: 4200,
  pongNotReceived: 4201,
  inactive: 4202,
  clientEventRateLimited: 4301,
} as const;

/** `user`: a signed-in user's `#server-to-user-{id}` channel (sendToUser). */
export type ChannelType = 'public' | 'private' | 'presence' | 'user';

/** "Channel names should only include lower and uppercase letters, numbers and `_ - = @ , . ;`". */
const CHANNEL_NAME = /^[A-Za-z0-9_\-=@,.;]+$/;
const SOCKET_ID = /^\d{1,20}\.\d{1,20}$/;

/**
 * The type of a channel from its name prefix, or an error for invalid names. End-to-end encrypted
 * channels (`private-encrypted-…`) are private channels to this server: the payload is encrypted
 * by the publisher with a key derived from the master key and the channel name, and decrypted by
 * clients with the `shared_secret` their authorisation endpoint returns — the relay never needs
 * the key ("End-to-end encryption" in the Pusher docs). `#server-to-user-{id}` is the channel of
 * a signed-in user (`pusher:signin`).
 */
export function channelType(name: string): { type: ChannelType } | { error: string } {
  if (typeof name === 'string' && name.startsWith(SERVER_TO_USER_PREFIX)) {
    const id = name.slice(SERVER_TO_USER_PREFIX.length);
    return id && id.length <= MAX_USER_ID && CHANNEL_NAME.test(id)
      ? { type: 'user' }
      : { error: `Invalid channel name '${name.slice(0, MAX_CHANNEL_NAME)}'` };
  }
  if (!name || name.length > MAX_CHANNEL_NAME || !CHANNEL_NAME.test(name)) {
    return { error: `Invalid channel name '${String(name).slice(0, MAX_CHANNEL_NAME)}'` };
  }
  if (name.startsWith('private-')) return { type: 'private' };
  if (name.startsWith('presence-')) return { type: 'presence' };
  return { type: 'public' };
}

/** Cache channels keep their last event for new subscribers: `[private-|presence-|private-encrypted-]cache-…`. */
export function isCacheChannel(name: string): boolean {
  return /^(private-encrypted-|private-|presence-)?cache-/.test(name);
}

/** Whether a string is a socket id as this server and Pusher issue them (`123.456`). */
export function isSocketId(value: unknown): value is string {
  return typeof value === 'string' && SOCKET_ID.test(value);
}

/** Whether an event name is valid in the events API or as a client event. */
export function isEventName(name: unknown): name is string {
  return typeof name === 'string' && name.length > 0 && name.length <= MAX_EVENT_NAME;
}

const subscribeData = z.object({
  channel: z.string(),
  auth: z.string().optional(),
  channel_data: z.string().optional(),
});

const signinData = z.object({ auth: z.string().max(1024), user_data: z.string().max(MAX_DATA_BYTES) });

/** A message from a client, already validated. */
export type ClientMessage =
  | { event: 'pusher:ping' }
  | { event: 'pusher:pong' }
  | { event: 'pusher:subscribe'; data: z.infer<typeof subscribeData> }
  | { event: 'pusher:unsubscribe'; channel: string }
  | { event: 'pusher:signin'; data: { auth: string; user_data: string } }
  | { event: `client-${string}`; channel: string; data: string };

/** Parses one WebSocket text message; never throws (bad input is an error value). */
export function parseClientMessage(raw: string): { message: ClientMessage } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { error: 'Invalid JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { error: 'A message must be a JSON object' };
  }
  const { event, channel } = parsed as { event?: unknown; channel?: unknown };
  let data = (parsed as { data?: unknown }).data;
  if (typeof event !== 'string') return { error: 'Missing event name' };
  // Clients may double-encode data like the server does; accept both for pusher:* events.
  if (typeof data === 'string' && event.startsWith('pusher:')) {
    try {
      data = JSON.parse(data);
    } catch {}
  }
  switch (event) {
    case 'pusher:ping':
    case 'pusher:pong':
      return { message: { event } };
    case 'pusher:subscribe': {
      const result = subscribeData.safeParse(data);
      return result.success ? { message: { event, data: result.data } } : { error: 'Invalid subscribe data' };
    }
    case 'pusher:signin': {
      const result = signinData.safeParse(data);
      return result.success ? { message: { event, data: result.data } } : { error: 'Invalid signin data' };
    }
    case 'pusher:unsubscribe': {
      const name = (data as { channel?: unknown } | undefined)?.channel;
      return typeof name === 'string' ? { message: { event, channel: name } } : { error: 'Missing channel' };
    }
  }
  if (event.startsWith('client-') && isEventName(event)) {
    if (typeof channel !== 'string') return { error: 'Client events need a channel' };
    const text = typeof data === 'string' ? data : JSON.stringify(data ?? null);
    return { message: { event: event as `client-${string}`, channel, data: text } };
  }
  return { error: `Unsupported event '${event.slice(0, MAX_EVENT_NAME)}'` };
}

/**
 * Encodes a server → client message. `data` is sent as given: a JSON string for events (the
 * protocol double-encodes event data), an object for `pusher:error`/ping/pong as Pusher does.
 */
export function encodeMessage(event: string, data: unknown, channel?: string, userId?: string): string {
  const message: Record<string, unknown> = { event };
  if (channel !== undefined) message.channel = channel;
  message.data = data;
  if (userId !== undefined) message.user_id = userId;
  return JSON.stringify(message);
}

/** `pusher:error` with a code (null for errors that are not close codes) and a message. */
export function errorMessage(code: number | null, message: string): string {
  return encodeMessage('pusher:error', { code, message });
}

/** The hex HMAC-SHA256 the protocol uses for every signature. */
export function hmacHex(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}

/** Constant-time comparison of two strings (different lengths compare unequal at once). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The `auth` value granting `socketId` a private or presence channel: `key:hex(HMAC-SHA256(
 * secret, "socket_id:channel_name[:channel_data]"))` ("Authentication and authorization signatures").
 */
export function signChannel(
  key: string,
  secret: string,
  socketId: string,
  channel: string,
  channelData?: string,
): string {
  const text = channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`;
  return `${key}:${hmacHex(secret, text)}`;
}

/** Checks a `pusher:subscribe` auth value, timing-safe. */
export function verifyChannelAuth(
  key: string,
  secret: string,
  socketId: string,
  channel: string,
  auth: string | undefined,
  channelData?: string,
): boolean {
  if (!auth) return false;
  return safeEqual(auth, signChannel(key, secret, socketId, channel, channelData));
}

/**
 * The `auth` value signing a user in: `key:hex(HMAC-SHA256(secret, "socket_id::user::user_data"))`
 * ("User authentication" in the Pusher docs; the same string the official SDKs sign).
 */
export function signUser(key: string, secret: string, socketId: string, userData: string): string {
  return `${key}:${hmacHex(secret, `${socketId}::user::${userData}`)}`;
}

/** The user id of a verified `user_data` (a JSON object with a non-empty string `id`), or null. */
export function parseUserData(userData: string): string | null {
  try {
    const id = (JSON.parse(userData) as { id?: unknown }).id;
    return typeof id === 'string' && id.length > 0 && id.length <= MAX_USER_ID && CHANNEL_NAME.test(id)
      ? id
      : null;
  } catch {
    return null;
  }
}

/** A presence member from a verified `channel_data` (`{user_id, user_info?}`), or null if malformed. */
export function parseChannelData(channelData: string | undefined): { id: string; info: unknown } | null {
  if (!channelData) return null;
  try {
    const parsed = JSON.parse(channelData) as { user_id?: unknown; user_info?: unknown };
    const id = parsed.user_id;
    if ((typeof id !== 'string' && typeof id !== 'number') || String(id).length === 0) return null;
    if (String(id).length > MAX_USER_ID) return null;
    return { id: String(id), info: parsed.user_info ?? null };
  } catch {
    return null;
  }
}
