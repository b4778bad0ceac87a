import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type BackoffPolicy, backoffDelay } from '../plugins/backoff-store.ts';
import { RateLimitError } from '../plugins/rate-limit.ts';
import type { KnownDevices } from './known-device.ts';
import { signInNoticeMail } from './mails.ts';
import type { UserRow } from './repository.ts';

/** Attempts from one known device are counted over 15 minutes, as those from one address. */
const DEVICE_WINDOW_MS = 15 * 60_000;

/**
 * The per-account sign-in policy (issue 25; README: AUTH_RATE_LIMIT). It slows an attacker
 * without ever locking the owner out:
 * - per client address: AUTH_RATE_LIMIT attempts per 15 minutes, unchanged (the route's limit);
 * - per account, from a browser that never signed in to it: AUTH_RATE_LIMIT free attempts, then
 *   an exponential wait between attempts (15 s, 30 s, 1 min … at most 15 minutes: about 17
 *   attempts in the first half hour, then 4 an hour, against 40 an hour before), forgotten an hour
 *   after the last attempt or at the next correct password from such a browser. Every attempt
 *   counts until it succeeds, taken atomically, so parallel requests from many addresses get one
 *   attempt per wait, not one each. Unknown and missing accounts are treated alike;
 * - per account, from a known device (a signed cookie set by an earlier successful sign-in,
 *   known-device.ts): no backoff, so a spray from elsewhere never blocks the owner's usual
 *   browsers; instead AUTH_RATE_LIMIT attempts per 15 minutes per device;
 * - the account gets one notice e-mail when its backoff starts (once per spray).
 * The owner on a new device during a spray waits at most 15 minutes per attempt, and the notice
 * tells them to use a browser they know or to reset the password: reset mails are not blocked by
 * the sign-in backoff, and a completed reset ends the backoff and marks that browser known.
 */
export function createSignInGuard(
  app: FastifyInstance,
  deps: { devices: KnownDevices; publicUrl: string; free: number },
) {
  const { devices, publicUrl, free } = deps;
  const policy: BackoffPolicy = { free, baseMs: 15_000, capMs: 15 * 60_000, ttlMs: 60 * 60_000 };
  const accountKey = (email: string) => `sign-in:account:${email}`;

  return {
    policy,
    /**
     * Lets an attempt through or throws 429 with Retry-After. Answers the known device the
     * request carries for this account, if any.
     */
    async admit(
      request: FastifyRequest,
      reply: FastifyReply,
      email: string,
      user: UserRow | undefined,
    ): Promise<string | null> {
      const device = user ? devices.deviceOf(request, user.sub) : null;
      if (device && user) {
        await app.limits.hit(
          request,
          reply,
          { name: 'sign-in-device', max: free, windowMs: DEVICE_WINDOW_MS },
          [`${user.sub}:${device}`],
        );
        return device;
      }
      const turn = await app.limits.backoff.take(accountKey(email), policy);
      if (!turn.allowed) {
        const wait = Math.max(1, Math.ceil(turn.waitMs / 1000));
        reply.header('retry-after', String(wait));
        throw new RateLimitError(wait);
      }
      if (turn.count === free && backoffDelay(turn.count, policy) > 0 && user) {
        // Not awaited: the notice must not make this answer slower than any other.
        app.outbox
          .send(signInNoticeMail(user.email, user.lng, publicUrl))
          .catch((err) => request.log.warn({ err }, 'sign-in notice not sent'));
      }
      return null;
    },

    /** After a correct password: forget the account's backoff, (re)mark this browser known. */
    async succeeded(
      request: FastifyRequest,
      reply: FastifyReply,
      email: string,
      sub: string,
      device: string | null,
    ) {
      // A known device's success leaves a running spray's backoff in place.
      if (!device) await app.limits.backoff.clear(accountKey(email));
      devices.remember(request, reply, sub);
    },
  };
}
