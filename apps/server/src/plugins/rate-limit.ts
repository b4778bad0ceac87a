import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';

/** The 429 problem (code RATE_LIMITED) with how long the caller should wait. */
export class RateLimitError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'RATE_LIMITED', `Too many requests; retry in ${retryAfterSeconds} s`);
  }
}

/** A limiter of hits per key over a sliding window. */
export interface RateLimiter {
  /**
   * Counts one hit for `key`; throws a {@link RateLimitError} when the key is over its limit.
   * With `reply`, the Retry-After header is set directly (the rate-limit plugin also sets it for
   * any RateLimitError thrown from a route).
   */
  hit(key: string, reply?: FastifyReply): void;
  /** Hits left for `key` in the current window (for tests and headers). */
  remaining(key: string): number;
  /** Forgets every key (tests). */
  reset(): void;
}

export interface RateLimiterOptions {
  limit: number;
  windowMs: number;
  /** Clock (tests). */
  now?: () => number;
}

interface Slot {
  start: number;
  current: number;
  previous: number;
}

/**
 * In-memory sliding-window counter (the "sliding window counter" approximation: the previous
 * fixed window's count weighted by how much of it still overlaps). Per node: several nodes each
 * allow `limit`, which bounds brute force well enough without a shared store.
 */
export function createRateLimiter({ limit, windowMs, now = Date.now }: RateLimiterOptions): RateLimiter {
  const slots = new Map<string, Slot>();
  let lastSweep = now();

  const slotFor = (key: string, t: number): Slot => {
    const start = t - (t % windowMs);
    let slot = slots.get(key);
    if (!slot) {
      slot = { start, current: 0, previous: 0 };
      slots.set(key, slot);
    } else if (slot.start !== start) {
      slot.previous = slot.start === start - windowMs ? slot.current : 0;
      slot.current = 0;
      slot.start = start;
    }
    return slot;
  };
  const weighted = (slot: Slot, t: number) =>
    slot.current + slot.previous * (1 - (t - slot.start) / windowMs);

  const sweep = (t: number) => {
    if (t - lastSweep < windowMs) return;
    lastSweep = t;
    for (const [key, slot] of slots) if (t - slot.start >= 2 * windowMs) slots.delete(key);
  };

  return {
    hit(key, reply) {
      const t = now();
      sweep(t);
      const slot = slotFor(key, t);
      if (weighted(slot, t) + 1 > limit) {
        // Waiting until the current window ends always brings the count back under the limit.
        const retryAfter = Math.max(1, Math.ceil((slot.start + windowMs - t) / 1000));
        reply?.header('retry-after', String(retryAfter));
        throw new RateLimitError(retryAfter);
      }
      slot.current++;
    },
    remaining(key) {
      const t = now();
      return Math.max(0, Math.floor(limit - weighted(slotFor(key, t), t)));
    },
    reset() {
      slots.clear();
    },
  };
}

/** Adds the Retry-After header to every RateLimitError answer (RFC 9110 §10.2.3). */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onError', async (_request, reply, error) => {
      if (error instanceof RateLimitError) reply.header('retry-after', String(error.retryAfterSeconds));
    });
  },
  { name: 'rate-limit' },
);
