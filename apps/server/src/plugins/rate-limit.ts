import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { AppError } from '../errors.ts';
import { type BackoffStore, memoryBackoffStore, redisBackoffStore } from './backoff-store.ts';

/** The 429 problem (code RATE_LIMITED) with how long the caller should wait. */
export class RateLimitError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'RATE_LIMITED', `Too many requests; retry in ${retryAfterSeconds} s`);
  }
}

/** A limit: at most `max` hits per key in a fixed window of `windowMs`. */
export interface LimitRule {
  /** Namespaces the keys (`sign-in`, `contact`, …). */
  name: string;
  max: number;
  windowMs: number;
}

/** `app.limits`: rate limits backed by @fastify/rate-limit (Redis when REDIS_URL is set). */
export interface Limits {
  /**
   * Counts one hit of `rule` for every key (e.g. `ip:…` and `account:…`), and throws a
   * {@link RateLimitError} (429, Retry-After set) when any of them is over the limit. Keys are
   * independent: a client address and an account are limited separately, so that neither
   * password spraying (one address, many accounts) nor credential stuffing (many addresses, one
   * account) gets past (issue 13).
   */
  hit(request: FastifyRequest, reply: FastifyReply, rule: LimitRule, keys: string[]): Promise<void>;
  /** Exponential backoff per key (the per-account sign-in counter, issue 25), in the same store. */
  backoff: BackoffStore;
}

declare module 'fastify' {
  interface FastifyInstance {
    limits: Limits;
  }
}

/** The key the limiter should count, handed to its keyGenerator through the request. */
const currentKey = new WeakMap<FastifyRequest, string>();
type Check = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * Registers @fastify/rate-limit (a maintained limiter; no global limit) and `app.limits`. With
 * `REDIS_URL` the counters live in Redis, so every node shares them; otherwise in memory. A
 * Redis outage lets requests through (logged) rather than refusing every sign-in.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    let redis: Redis | undefined;
    if (app.config.REDIS_URL) {
      redis = new Redis(app.config.REDIS_URL, { connectTimeout: 2000, maxRetriesPerRequest: 1 });
      redis.on('error', (err) => app.log.warn({ err }, 'rate-limit store: Redis error'));
      app.addHook('onClose', async () => {
        await redis?.quit().catch(() => redis?.disconnect());
      });
    }
    await app.register(fastifyRateLimit, {
      global: false,
      ...(redis ? { redis } : {}),
      nameSpace: app.config.RATE_LIMIT_REDIS_PREFIX,
      skipOnError: true,
      keyGenerator: (request) => currentKey.get(request) ?? request.ip,
    });
    const checks = new Map<string, Check>();
    const checkOf = (rule: LimitRule) => {
      const id = `${rule.name}:${rule.max}:${rule.windowMs}`;
      let check = checks.get(id);
      if (!check) {
        check = app.createRateLimit({ max: rule.max, timeWindow: rule.windowMs });
        checks.set(id, check);
      }
      return check;
    };

    const backoffStore = redis
      ? redisBackoffStore(redis, app.config.RATE_LIMIT_REDIS_PREFIX)
      : memoryBackoffStore();
    const backoff: BackoffStore = {
      async take(key, policy, now) {
        try {
          return await backoffStore.take(key, policy, now);
        } catch (err) {
          app.log.warn({ err }, 'backoff store: error, attempt let through');
          return { allowed: true, count: 0 };
        }
      },
      async clear(key) {
        await backoffStore.clear(key).catch((err) => app.log.warn({ err }, 'backoff store: error'));
      },
    };

    app.decorate('limits', {
      backoff,
      async hit(request, reply, rule, keys) {
        const check = checkOf(rule);
        let wait = 0;
        for (const key of keys) {
          currentKey.set(request, `${rule.name}:${key}`);
          const result = await check(request);
          if (!result.isAllowed && result.isExceeded) wait = Math.max(wait, result.ttlInSeconds || 1);
        }
        currentKey.delete(request);
        if (wait > 0) {
          reply.header('retry-after', String(wait));
          throw new RateLimitError(wait);
        }
      },
    } satisfies Limits);

    // RFC 9110 §10.2.3: every 429 carries Retry-After.
    app.addHook('onError', async (_request, reply, error) => {
      if (error instanceof RateLimitError) reply.header('retry-after', String(error.retryAfterSeconds));
    });
  },
  { name: 'rate-limit' },
);
