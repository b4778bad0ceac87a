import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers.ts';

describe('auth rate limits (issue 13)', () => {
  const attempt = (app: FastifyInstance, email: string, remoteAddress: string, headers = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      payload: { email, password: 'guess1234' },
      remoteAddress,
      headers,
    });

  it('password spraying: many accounts from one address are limited by the address', async () => {
    const app = await buildTestApp({ AUTH_RATE_LIMIT: '5', SEED_DEMO: 'false' });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 15; i++)
        codes.push((await attempt(app, `v${i}@example.org`, '198.51.100.1')).statusCode);
      expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(codes.slice(5)).toEqual(Array(10).fill(429));
      // A forged X-Forwarded-For (TRUST_PROXY unset) is no way around it.
      const forged = await attempt(app, 'v99@example.org', '198.51.100.1', {
        'x-forwarded-for': '203.0.113.5',
      });
      expect(forged.statusCode).toBe(429);
      expect(Number(forged.headers['retry-after'])).toBeGreaterThan(0);
      expect(forged.headers['content-type']).toContain('application/problem+json');
    } finally {
      await app.close();
    }
  });

  it('credential stuffing: one account from many addresses is limited by the account', async () => {
    const app = await buildTestApp({ AUTH_RATE_LIMIT: '5', SEED_DEMO: 'false' });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 8; i++)
        codes.push((await attempt(app, 'Target@example.org', `192.0.2.${i + 1}`)).statusCode);
      expect(codes).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      // Another account from a fresh address is not affected.
      expect((await attempt(app, 'other@example.org', '192.0.2.200')).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('with TRUST_PROXY, the forwarded client address is the key', async () => {
    const app = await buildTestApp({ AUTH_RATE_LIMIT: '2', SEED_DEMO: 'false', TRUST_PROXY: '10.0.0.1' });
    try {
      const via = (client: string, email: string) =>
        attempt(app, email, '10.0.0.1', { 'x-forwarded-for': client });
      expect((await via('203.0.113.1', 'a@example.org')).statusCode).toBe(401);
      expect((await via('203.0.113.1', 'b@example.org')).statusCode).toBe(401);
      expect((await via('203.0.113.1', 'c@example.org')).statusCode).toBe(429);
      expect((await via('203.0.113.2', 'd@example.org')).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  const redisUrl = process.env.TEST_REDIS_URL;
  it.runIf(redisUrl)('with REDIS_URL, two nodes share the counters', async () => {
    const prefix = `rl-${Date.now()}`;
    // Counters of this run only: a Redis shared with earlier runs (CI) keeps theirs for the window.
    const env = {
      AUTH_RATE_LIMIT: '3',
      SEED_DEMO: 'false',
      REDIS_URL: redisUrl as string,
      RATE_LIMIT_REDIS_PREFIX: `${prefix}:rate:`,
    };
    const [a, b] = await Promise.all([buildTestApp(env), buildTestApp(env)]);
    try {
      const email = `${prefix}@example.org`;
      const codes = [];
      for (const app of [a, b, a, b])
        codes.push((await attempt(app, email, `203.0.113.${codes.length + 10}`)).statusCode);
      expect(codes).toEqual([401, 401, 401, 429]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
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
