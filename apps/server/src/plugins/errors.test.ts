import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers.ts';
import { errors } from '../errors.ts';

describe('problem+json errors (RFC 9457)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ BODY_LIMIT: '2048' });
    app.post('/api/echo', async (request) => ({ got: request.body }));
    app.get('/api/boom', async () => {
      throw new Error('secret internal detail at /srv/x.ts:12');
    });
    app.get('/api/missing', async () => {
      throw errors.notFound('THING_NOT_FOUND', 'No such thing');
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('answers an unknown route with a 404 problem', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/does-not-exist?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ status: 404, code: 'ROUTE_NOT_FOUND', title: 'Not Found' });
  });

  it('answers invalid JSON with a 400 problem', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, code: 'INVALID_JSON' });
  });

  it('answers a body over the limit with a 413 problem', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ a: 'x'.repeat(5000) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ status: 413, code: 'BODY_TOO_LARGE' });
  });

  it('answers an unsupported media type with a 415 problem', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/echo',
      headers: { 'content-type': 'application/x-nonsense' },
      payload: 'zzz',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('hides the details of a 500', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret');
    expect(res.body).not.toContain('.ts');
    expect(res.json()).toMatchObject({ status: 500, code: 'INTERNAL' });
  });

  it('carries the stable code of an AppError', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/missing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'THING_NOT_FOUND', detail: 'No such thing' });
  });
});
