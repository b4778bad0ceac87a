import { createHash } from 'node:crypto';
import { hmacHex, safeEqual } from './protocol.ts';

/**
 * Request signatures of the Pusher HTTP API ("HTTP API reference", section "Authentication"):
 * the query carries auth_key, auth_timestamp, auth_version=1.0, body_md5 (when there is a body)
 * and auth_signature = hex HMAC-SHA256 of "METHOD\nPATH\nQUERY", where QUERY is every other
 * parameter as `key=value` (not URL-encoded, keys lower-case) sorted by key and joined with `&`.
 */
export const MAX_CLOCK_SKEW_S = 600;

/** Parses a raw query string the way the official libraries build it (values not re-encoded). */
export function parseQuery(rawQuery: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const part of rawQuery.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    try {
      params.set(decodeURIComponent(rawKey).toLowerCase(), decodeURIComponent(rawValue));
    } catch {
      params.set(rawKey.toLowerCase(), rawValue);
    }
  }
  return params;
}

/** The string to sign for a request (everything except auth_signature, sorted by key). */
export function stringToSign(method: string, path: string, params: Map<string, string>): string {
  const query = [...params.entries()]
    .filter(([key]) => key !== 'auth_signature')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  return `${method.toUpperCase()}\n${path}\n${query}`;
}

/** Hex MD5 of a body, as the `body_md5` parameter carries it. */
export function md5Hex(body: string | Buffer): string {
  return createHash('md5').update(body).digest('hex');
}

/** Builds the signed query string for a request (used by the pusher-http adapter and tests). */
export function signRequest(options: {
  key: string;
  secret: string;
  method: string;
  path: string;
  params?: Record<string, string>;
  body?: string;
  now?: number;
}): string {
  const params = new Map<string, string>(Object.entries(options.params ?? {}));
  params.set('auth_key', options.key);
  params.set('auth_timestamp', String(Math.floor((options.now ?? Date.now()) / 1000)));
  params.set('auth_version', '1.0');
  if (options.body) params.set('body_md5', md5Hex(options.body));
  const signature = hmacHex(options.secret, stringToSign(options.method, options.path, params));
  const query = [...params.entries()].map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return `${query.join('&')}&auth_signature=${signature}`;
}

export type SignatureCheck =
  | { ok: true }
  | { ok: false; reason: 'missing' | 'key' | 'version' | 'timestamp' | 'body_md5' | 'signature' };

/** Verifies a request's signature; `rawBody` is the exact body bytes (empty string when none). */
export function verifyRequest(options: {
  key: string;
  secret: string;
  method: string;
  path: string;
  params: Map<string, string>;
  rawBody: string;
  now?: number;
}): SignatureCheck {
  const { params } = options;
  const signature = params.get('auth_signature');
  const timestamp = params.get('auth_timestamp');
  if (!signature || !timestamp || !params.get('auth_key')) return { ok: false, reason: 'missing' };
  if (!safeEqual(params.get('auth_key') ?? '', options.key)) return { ok: false, reason: 'key' };
  if (params.get('auth_version') !== '1.0') return { ok: false, reason: 'version' };
  const skew = Math.abs((options.now ?? Date.now()) / 1000 - Number(timestamp));
  if (!/^\d+$/.test(timestamp) || !(skew <= MAX_CLOCK_SKEW_S)) return { ok: false, reason: 'timestamp' };
  if (options.rawBody.length > 0 || params.has('body_md5')) {
    if (!safeEqual(params.get('body_md5') ?? '', md5Hex(options.rawBody)))
      return { ok: false, reason: 'body_md5' };
  }
  const expected = hmacHex(options.secret, stringToSign(options.method, options.path, params));
  return safeEqual(signature.toLowerCase(), expected) ? { ok: true } : { ok: false, reason: 'signature' };
}
