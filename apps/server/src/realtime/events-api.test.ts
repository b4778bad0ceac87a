import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest } from './http-signature.ts';
import { pusherServer, startNode, type TestNode } from './test-harness.ts';

describe('HTTP events API', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startNode();
  });
  afterAll(() => node.close());

  /** A signed request as any Pusher library would send it. */
  const call = async (
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    params?: Record<string, string>,
  ) => {
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const { REALTIME_KEY: key, REALTIME_SECRET: secret } = node.config;
    const query = signRequest({ key, secret, method, path, params, body: text });
    const response = await fetch(`http://127.0.0.1:${node.port}${path}?${query}`, {
      method,
      body: text,
      headers: text ? { 'content-type': 'application/json' } : {},
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const events = () => `/apps/${node.config.REALTIME_APP_ID}/events`;

  it('accepts a valid trigger and answers info when asked', async () => {
    expect(await call('POST', events(), { name: 'e', data: '{}', channels: ['a', 'presence-b'] })).toEqual({
      status: 200,
      body: {},
    });
    const withInfo = await call('POST', events(), {
      name: 'e',
      data: '{}',
      channel: 'presence-b',
      info: 'subscription_count,user_count',
    });
    expect(withInfo.body).toEqual({ channels: { 'presence-b': { subscription_count: 0, user_count: 0 } } });
  });

  it('refuses bad bodies with 400 and oversized data with 413', async () => {
    const cases: [unknown, number, string][] = [
      ['{not json', 400, 'INVALID_JSON'],
      [{ name: 'e', channels: ['a'] }, 400, 'VALIDATION_FAILED'],
      [{ name: 'e', data: '{}', channels: [] }, 400, 'REALTIME_CHANNELS_INVALID'],
      [
        { name: 'e', data: '{}', channels: Array.from({ length: 101 }, (_, i) => `c${i}`) },
        400,
        'REALTIME_CHANNELS_INVALID',
      ],
      [{ name: 'e', data: '{}', channels: ['bad channel'] }, 400, 'REALTIME_CHANNEL_INVALID'],
      [{ name: 'pusher:x', data: '{}', channels: ['a'] }, 400, 'REALTIME_EVENT_INVALID'],
      [{ name: 'x'.repeat(201), data: '{}', channels: ['a'] }, 400, 'REALTIME_EVENT_INVALID'],
      [{ name: 'e', data: '{}', channels: ['a'], socket_id: 'nope' }, 400, 'REALTIME_SOCKET_ID_INVALID'],
      [{ name: 'e', data: 'x'.repeat(10 * 1024 + 1), channels: ['a'] }, 413, 'REALTIME_DATA_TOO_LARGE'],
    ];
    for (const [body, status, code] of cases) {
      const reply = await call('POST', events(), body);
      expect([reply.status, reply.body.code]).toEqual([status, code]);
    }
  });

  it('limits batches to 10 events and validates all before publishing any', async () => {
    const batchPath = `/apps/${node.config.REALTIME_APP_ID}/batch_events`;
    const item = { name: 'e', data: '{}', channel: 'a' };
    expect((await call('POST', batchPath, { batch: Array(11).fill(item) })).status).toBe(400);
    expect((await call('POST', batchPath, { batch: [] })).status).toBe(400);
    expect((await call('POST', batchPath, { batch: [item, { ...item, channel: '' }] })).status).toBe(400);
    expect(await call('POST', batchPath, { batch: [item, { ...item, info: 'subscription_count' }] })).toEqual(
      {
        status: 200,
        body: { batch: [{}, { subscription_count: 0 }] },
      },
    );
  });

  it('answers channel queries and refuses wrong uses', async () => {
    const base = `/apps/${node.config.REALTIME_APP_ID}/channels`;
    expect(await call('GET', base)).toEqual({ status: 200, body: { channels: {} } });
    expect((await call('GET', base, undefined, { info: 'user_count' })).status).toBe(400);
    expect(await call('GET', `${base}/quiet`)).toEqual({ status: 200, body: { occupied: false } });
    expect((await call('GET', `${base}/quiet`, undefined, { info: 'user_count' })).status).toBe(400);
    expect((await call('GET', `${base}/quiet/users`)).status).toBe(400);
    expect(await call('GET', `${base}/presence-x/users`)).toEqual({ status: 200, body: { users: [] } });
  });

  it('refuses unsigned, tampered, stale and foreign-app requests', async () => {
    const path = events();
    const body = JSON.stringify({ name: 'e', data: '{}', channels: ['a'] });
    const send = (url: string, payload = body) =>
      fetch(url, { method: 'POST', body: payload, headers: { 'content-type': 'application/json' } });
    const base = `http://127.0.0.1:${node.port}`;
    expect((await send(`${base}${path}`)).status).toBe(401);
    const { REALTIME_KEY: key, REALTIME_SECRET: secret } = node.config;
    const signed = signRequest({ key, secret, method: 'POST', path, body });
    expect((await send(`${base}${path}?${signed}`)).status).toBe(200);
    expect((await send(`${base}${path}?${signed}`, body.replace('"a"', '"b"'))).status).toBe(401);
    const stale = signRequest({ key, secret, method: 'POST', path, body, now: Date.now() - 700_000 });
    expect((await send(`${base}${path}?${stale}`)).status).toBe(401);
    const other = signRequest({ key, secret, method: 'POST', path: '/apps/other/events', body });
    expect((await send(`${base}/apps/other/events?${other}`)).status).toBe(404);
    await expect(pusherServer(node, 'wrong-secret-123').trigger('a', 'e', {})).rejects.toMatchObject({
      status: 401,
    });
  });
});
