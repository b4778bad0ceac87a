import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A browser stays known to an account for a year after its last successful sign-in. */
const KNOWN_DEVICE_MAX_AGE_S = 365 * 24 * 3600;
const COOKIE_PREFIX = 'tempora_kd_';

/**
 * "Known devices" (issue 25): a browser that has signed in to an account gets an HttpOnly,
 * SameSite=Strict cookie scoped to `/api/auth`, signed with a key derived from the ID-token
 * signing key (HMAC-SHA256 of the account's sub and the issue time). The per-account backoff does
 * not apply to a sign-in carrying it, so a password spray from other addresses never keeps the
 * owner out of a browser they have used before. The cookie alone signs nobody in: the password is
 * still checked, and attempts from one device are limited like those from one address.
 *
 * One cookie per account (several people may share a computer); its name is a keyed hash of the
 * sub, so it tells nobody which account it is for.
 */
export function knownDevices(key: Buffer) {
  const mac = (text: string) => crypto.createHmac('sha256', key).update(text).digest('base64url');
  const nameOf = (sub: string) => `${COOKIE_PREFIX}${mac(`name:${sub}`).slice(0, 16)}`;

  function cookieValue(request: FastifyRequest, name: string): string | undefined {
    const header = request.headers.cookie;
    if (!header) return undefined;
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
    }
    return undefined;
  }

  return {
    /** The device id when the request carries a valid known-device cookie for `sub`. */
    deviceOf(request: FastifyRequest, sub: string, now = Date.now()): string | null {
      const value = cookieValue(request, nameOf(sub));
      const match = value && /^(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(value);
      if (!match) return null;
      const [, issued, device, signature] = match as unknown as [string, string, string, string];
      if (now / 1000 - Number(issued) > KNOWN_DEVICE_MAX_AGE_S) return null;
      const expected = Buffer.from(mac(`device:${sub}.${issued}.${device}`));
      const given = Buffer.from(signature);
      return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? device : null;
    },

    /** Sets (or renews) the cookie after a successful sign-in; keeps the device id it had. */
    remember(request: FastifyRequest, reply: FastifyReply, sub: string, now = Date.now()) {
      const device = this.deviceOf(request, sub, now) ?? crypto.randomBytes(16).toString('base64url');
      const issued = Math.floor(now / 1000);
      const value = `${issued}.${device}.${mac(`device:${sub}.${issued}.${device}`)}`;
      const secure = request.protocol === 'https' ? '; Secure' : '';
      const cookie = `${nameOf(sub)}=${value}; Max-Age=${KNOWN_DEVICE_MAX_AGE_S}; Path=/api/auth; HttpOnly; SameSite=Strict${secure}`;
      const previous = reply.getHeader('set-cookie');
      reply.header('set-cookie', previous ? [...[previous].flat().map(String), cookie] : cookie);
    },
  };
}

export type KnownDevices = ReturnType<typeof knownDevices>;
