import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers.ts';
import { createTestUser } from '../../test/identity-helpers.ts';

// Issue 13 "Low": each a 4xx problem+json, never a 500; headers from @fastify/helmet.

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
let app: FastifyInstance;
let owner: string;
let url: string;
beforeAll(async () => {
  app = await buildTestApp({ TRUST_PROXY: '127.0.0.1' });
  owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
    .authorization;
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

const isProblem = (res: { statusCode: number; headers: Record<string, unknown> }, status: number) => {
  expect(res.statusCode).toBe(status);
  expect(String(res.headers['content-type'])).toContain('application/problem+json');
};

describe('text the database cannot hold is refused at the edge', () => {
  it('NUL in a path, a query or a JSON string → 400 INVALID_TEXT', async () => {
    isProblem(await app.inject('/api/events/demo%00city'), 400);
    isProblem(await app.inject('/api/results/contexts/demo-city-run-10k/participants?q=a%00b'), 400);
    const body = await app.inject({
      method: 'POST',
      url: '/api/results/contexts/demo-city-run-10k/passings',
      headers: { authorization: owner, 'content-type': 'application/json' },
      payload: '{"passings":[{"bib":"1\\u0000","point":"finish","time":1795417981600}]}',
    });
    isProblem(body, 400);
    expect(body.json().code).toBe('INVALID_TEXT');
  });

  it('a lone surrogate in ingest or manual passings → 400, nothing stored', async () => {
    const before = await app.database.query('SELECT count(*)::int AS n FROM passings');
    for (const payload of [
      '{"passings":[{"chip":"\\ud800","time":1795417981600,"point":"finish"}]}',
      '{"passings":[{"bib":"\\udc00x","point":"finish","time":1795417981600}]}',
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/results/contexts/demo-city-run-10k/passings',
        headers: { authorization: owner, 'content-type': 'application/json' },
        payload,
      });
      isProblem(res, 400);
    }
    const ingest = await app.inject({
      method: 'POST',
      url: '/api/ingest/passings',
      headers: { 'x-device-key': 'whatever', 'content-type': 'application/json' },
      payload: '{"passings":[{"chip":"\\ud800","time":1795417981600,"point":"finish"}]}',
    });
    expect(ingest.statusCode).toBeGreaterThanOrEqual(400);
    expect(ingest.statusCode).toBeLessThan(500);
    expect(await app.database.query('SELECT count(*)::int AS n FROM passings')).toEqual(before);
  });
});

describe('framework errors are problem+json', () => {
  it('bad %-encoding → 400', async () => {
    const res = await fetch(`${url}/api/events/%FF`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });

  it('headers too large → 431; an over-long URL is refused with a 4xx problem', async () => {
    const big = await fetch(`${url}/api/health`, { headers: { 'x-big': 'a'.repeat(20_000) } });
    expect(big.status).toBe(431);
    expect(big.headers.get('content-type')).toContain('application/problem+json');
    expect(((await big.json()) as { code: string }).code).toBe('HEADERS_TOO_LARGE');
    const long = await fetch(`${url}/api/events/${'a'.repeat(20_000)}`);
    expect(long.status).toBeGreaterThanOrEqual(400);
    expect(long.status).toBeLessThan(500);
    expect(long.headers.get('content-type')).toContain('application/problem+json');
  });

  it('invalid JSON and a wrong content type → 400 / 415', async () => {
    const post = (payload: string, type: string) =>
      app.inject({ method: 'POST', url: '/api/auth/sign-in', headers: { 'content-type': type }, payload });
    isProblem(await post('{"email":', 'application/json'), 400);
    isProblem(await post('<x/>', 'application/xml'), 415);
  });
});

describe('security headers', () => {
  it('nosniff and no framing on every answer; HSTS only over HTTPS through a trusted proxy', async () => {
    for (const path of ['/api/health', '/api/nowhere', '/api/events']) {
      const res = await app.inject(path);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    const https = await app.inject({
      url: '/api/health',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(https.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    const spoofed = await app.inject({
      url: '/api/health',
      remoteAddress: '203.0.113.7',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();
  });
});
