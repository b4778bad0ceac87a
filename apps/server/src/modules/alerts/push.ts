import http from 'node:http';
import https from 'node:https';
import type WebPush from 'web-push';
import { lazyRequire } from '../../lib/lazy-require.ts';

const webPush = lazyRequire<typeof WebPush>('web-push');

import { type EgressPolicy, guardedLookup } from '../../lib/egress/policy.ts';
import { assertDeliverable } from '../../lib/egress/url.ts';
import type { VapidKeys } from './repository.ts';

/** A new VAPID key pair (RFC 8292), base64url as browsers take the public one. */
export function makeVapidKeys(): VapidKeys {
  return webPush().generateVAPIDKeys();
}

/**
 * The VAPID header of a push service (its origin is the JWT's audience), signed once and reused
 * until an hour before it expires (RFC 8292 §2: at most 24 h): signing is ~3 ms, three times the
 * message's encryption, and a race's alerts go to a handful of push services.
 */
const signed = new Map<string, { headers: Record<string, string>; until: number }>();
const VAPID_LIFETIME_S = 12 * 3600;
function vapidHeaders(
  endpoint: string,
  options: { vapid: VapidKeys; subject: string },
): Record<string, string> {
  const audience = new URL(endpoint).origin;
  const key = `${audience}|${options.vapid.publicKey}`;
  const now = Date.now();
  const known = signed.get(key);
  if (known && known.until > now) return known.headers;
  const expires = Math.floor(now / 1000) + VAPID_LIFETIME_S;
  const headers = webPush().getVapidHeaders(
    audience,
    options.subject,
    options.vapid.publicKey,
    options.vapid.privateKey,
    'aes128gcm',
    expires,
  ) as unknown as Record<string, string>;
  if (signed.size > 1000) signed.clear();
  signed.set(key, { headers, until: (expires - 3600) * 1000 });
  return headers;
}

/**
 * Connections kept open to the push services (a race's alerts go to a handful of them: one TLS
 * handshake per connection, not per message), as many at once as the alerts send.
 */
const AGENT_OPTIONS = { keepAlive: true, maxSockets: 64, maxFreeSockets: 64, timeout: 30_000 };
const agents = { http: new http.Agent(AGENT_OPTIONS), https: new https.Agent(AGENT_OPTIONS) };

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Sends one web push message: `web-push` (a maintained library) encrypts it (RFC 8291,
 * aes128gcm) and signs the VAPID header; the request itself goes through the egress policy like
 * every connection a user's input opens (lib/egress: the endpoint is the browser's, so a
 * follower's input). Answers the push service's status, or null when it could not be reached.
 */
export async function sendPush(
  target: PushTarget,
  payload: string,
  options: { vapid: VapidKeys; subject: string; egress: EgressPolicy; ttlSeconds: number; timeoutMs: number },
): Promise<number | null> {
  const details = webPush().generateRequestDetails(
    { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
    payload,
    {
      TTL: options.ttlSeconds,
      contentEncoding: 'aes128gcm',
      headers: vapidHeaders(target.endpoint, options),
    },
  );
  let url: URL;
  try {
    url = assertDeliverable(details.endpoint, options.egress);
  } catch {
    return null;
  }
  const body = details.body ?? Buffer.alloc(0);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = client.request(
      url,
      {
        method: details.method,
        headers: { ...(details.headers as Record<string, string>), 'content-length': String(body.length) },
        signal: AbortSignal.timeout(options.timeoutMs),
        lookup: guardedLookup(options.egress),
        agent: url.protocol === 'https:' ? agents.https : agents.http,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? null));
        response.on('error', () => resolve(response.statusCode ?? null));
      },
    );
    request.on('error', () => resolve(null));
    request.end(body);
  });
}
