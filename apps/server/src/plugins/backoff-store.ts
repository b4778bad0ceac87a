import type { Redis } from 'ioredis';

/** How a key backs off: `free` attempts, then a wait doubling from `baseMs` up to `capMs`. */
export interface BackoffPolicy {
  free: number;
  baseMs: number;
  capMs: number;
  /** The key is forgotten this long after its last attempt. */
  ttlMs: number;
}

/** What {@link BackoffStore.take} answers. */
export type BackoffTurn =
  /** The attempt may go ahead; `count` attempts so far (this one included). */
  | { allowed: true; count: number }
  /** Too early: the next attempt is allowed in `waitMs`. */
  | { allowed: false; waitMs: number };

/**
 * Exponential backoff per key (issue 25: the per-account sign-in counter slows attackers instead
 * of locking the account). `take` is atomic (one Lua script in Redis, one synchronous step in
 * memory): a burst of parallel attempts at the moment a wait ends gets one attempt through, not
 * the whole burst.
 */
export interface BackoffStore {
  take(key: string, policy: BackoffPolicy, now?: number): Promise<BackoffTurn>;
  /** Forgets a key (a correct password ends the backoff). */
  clear(key: string): Promise<void>;
}

/** The wait after the `count`-th attempt: none while free, then base, 2 × base, 4 × base … up to the cap. */
export function backoffDelay(count: number, policy: BackoffPolicy): number {
  if (count < policy.free) return 0;
  return Math.min(2 ** Math.min(count - policy.free, 40) * policy.baseMs, policy.capMs);
}

/** The store in this process's memory (one node, or tests). */
export function memoryBackoffStore(): BackoffStore {
  const keys = new Map<string, { count: number; next: number; expires: number }>();
  return {
    async take(key, policy, now = Date.now()) {
      let entry = keys.get(key);
      if (entry && entry.expires <= now) entry = undefined;
      if (entry && now < entry.next) return { allowed: false, waitMs: entry.next - now };
      const count = (entry?.count ?? 0) + 1;
      keys.set(key, { count, next: now + backoffDelay(count, policy), expires: now + policy.ttlMs });
      if (keys.size > 100_000) {
        for (const [k, e] of keys) if (e.expires <= now) keys.delete(k);
      }
      return { allowed: true, count };
    },
    async clear(key) {
      keys.delete(key);
    },
  };
}

// KEYS[1]; ARGV: now, free, capMs, ttlMs, baseMs. Same arithmetic as backoffDelay.
const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
local free = tonumber(ARGV[2])
local cap = tonumber(ARGV[3])
local nextAt = tonumber(redis.call('HGET', KEYS[1], 'next') or '0')
if now < nextAt then return {0, nextAt - now} end
local count = redis.call('HINCRBY', KEYS[1], 'count', 1)
local delay = 0
if count >= free then delay = math.min(math.pow(2, math.min(count - free, 40)) * tonumber(ARGV[5]), cap) end
redis.call('HSET', KEYS[1], 'next', now + delay)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {1, count}
`;

/**
 * The store in Redis, shared by every node. A Redis error lets the attempt through (logged by
 * the caller), as the address limits do (@fastify/rate-limit `skipOnError`).
 */
export function redisBackoffStore(redis: Redis, prefix: string): BackoffStore {
  return {
    async take(key, policy, now = Date.now()) {
      const [ok, value] = (await redis.eval(
        TAKE_SCRIPT,
        1,
        `${prefix}backoff:${key}`,
        now,
        policy.free,
        policy.capMs,
        policy.ttlMs,
        policy.baseMs,
      )) as [number, number];
      return ok ? { allowed: true, count: value } : { allowed: false, waitMs: value };
    },
    async clear(key) {
      await redis.del(`${prefix}backoff:${key}`);
    },
  };
}
