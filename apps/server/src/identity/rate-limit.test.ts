import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers.ts';
import { createRateLimiter, RateLimitError } from '../plugins/rate-limit.ts';

describe('createRateLimiter (sliding window)', () => {
  it('allows `limit` hits per window, then throws RATE_LIMITED with a retry delay', () => {
    let now = 1_000_000;
    const limiter = createRateLimiter({ limit: 3, windowMs: 60_000, now: () => now });
    for (let i = 0; i < 3; i++) limiter.hit('k');
    expect(() => limiter.hit('k')).toThrow(RateLimitError);
    try {
      limiter.hit('k');
    } catch (error) {
      expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      expect((error as RateLimitError).retryAfterSeconds).toBeGreaterThan(0);
      expect((error as RateLimitError).retryAfterSeconds).toBeLessThanOrEqual(60);
    }
    limiter.hit('other'); // keys are independent
    // Halfway through the next window, half of the previous one still counts.
    now = 1_020_000 + 30_000;
    expect(limiter.remaining('k')).toBe(1);
    limiter.hit('k');
    expect(() => limiter.hit('k')).toThrow(RateLimitError);
    // Two windows later everything is forgotten.
    now += 120_000;
    expect(limiter.remaining('k')).toBe(3);
  });
});

describe('app.outbox with a failing SMTP server', () => {
  it('keeps the message unsent and does not fail the caller', async () => {
    const app = await buildTestApp({ SMTP_URL: 'smtp://127.0.0.1:1', SEED_DEMO: 'false' });
    try {
      await app.outbox.send({ to: 'x@example.org', subject: 'S', text: 'T', html: '<p>T</p>' });
      await app.outbox.flush();
      const [message] = await app.outbox.list(1);
      expect(message).toMatchObject({ to: 'x@example.org', sentAt: null });
    } finally {
      await app.close();
    }
  });
});
