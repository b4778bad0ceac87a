import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signChannel } from './protocol.ts';
import { startNode, TEST_USER_HEADER, type TestNode, testUser } from './test-harness.ts';

describe('POST /api/realtime/auth', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startNode();
  });
  afterAll(() => node.close());

  const post = (body: string, user?: object, type = 'application/x-www-form-urlencoded') =>
    node.app.inject({
      method: 'POST',
      url: '/api/realtime/auth',
      payload: body,
      headers: { 'content-type': type, ...(user ? { [TEST_USER_HEADER]: JSON.stringify(user) } : {}) },
    });

  it('refuses anonymous callers with a 401 problem', async () => {
    const reply = await post('socket_id=1.2&channel_name=private-user-a');
    expect(reply.statusCode).toBe(401);
    expect(reply.headers['content-type']).toContain('application/problem+json');
  });

  it('signs the personal channel of the signed-in user only (form and JSON bodies)', async () => {
    const user = testUser('a');
    const reply = await post('socket_id=1.2&channel_name=private-user-a', user);
    expect(reply.statusCode).toBe(200);
    const { REALTIME_KEY, REALTIME_SECRET } = node.config;
    expect(reply.json()).toEqual({
      auth: signChannel(REALTIME_KEY, REALTIME_SECRET, '1.2', 'private-user-a'),
    });
    const json = await post(
      JSON.stringify({ socket_id: '1.2', channel_name: 'private-user-a' }),
      user,
      'application/json',
    );
    expect(json.json()).toEqual(reply.json());
    expect((await post('socket_id=1.2&channel_name=private-user-b', user)).statusCode).toBe(403);
  });

  it('grants organisation channels by ability, with presence channel_data', async () => {
    const staff = testUser('s', [{ organisationId: 'o1', role: 'staff' }]);
    const presence = await post('socket_id=3.4&channel_name=presence-org-o1', staff);
    expect(presence.statusCode).toBe(200);
    const body = presence.json();
    expect(JSON.parse(body.channel_data)).toEqual({ user_id: 's', user_info: { name: 's@example.org' } });
    const { REALTIME_KEY, REALTIME_SECRET } = node.config;
    expect(body.auth).toBe(
      signChannel(REALTIME_KEY, REALTIME_SECRET, '3.4', 'presence-org-o1', body.channel_data),
    );
    expect((await post('socket_id=3.4&channel_name=private-org-o1', staff)).statusCode).toBe(200);
    expect((await post('socket_id=3.4&channel_name=presence-org-o2', staff)).statusCode).toBe(403);
    const timekeeper = testUser('t', [{ organisationId: 'o1', role: 'timekeeper' }]);
    expect((await post('socket_id=3.4&channel_name=presence-org-o1', timekeeper)).statusCode).toBe(403);
    const platform = { ...testUser('p'), isPlatformStaff: true };
    expect((await post('socket_id=3.4&channel_name=presence-org-o9', platform)).statusCode).toBe(200);
  });

  it('refuses other channels and invalid input', async () => {
    const user = testUser('a');
    expect((await post('socket_id=1.2&channel_name=live-20km', user)).statusCode).toBe(403);
    expect((await post('socket_id=1.2&channel_name=private-other', user)).statusCode).toBe(403);
    const bad = await post('socket_id=abc&channel_name=private-user-a', user);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_FAILED');
    expect((await post('socket_id=1.2&channel_name=private user', user)).statusCode).toBe(400);
    expect((await post('', user)).statusCode).toBe(400);
    expect((await post('{', user, 'application/json')).statusCode).toBe(400);
  });
});
