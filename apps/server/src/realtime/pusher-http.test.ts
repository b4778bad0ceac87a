import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextEvent, pusherClient, startNode, subscribed, type TestNode, testUser } from './test-harness.ts';

/** The pusher-http adapter, with another Tempora node standing in for hosted Pusher. */
describe('pusher-http adapter', () => {
  let upstream: TestNode;
  let forwarder: TestNode;
  beforeAll(async () => {
    upstream = await startNode();
    forwarder = await startNode({
      REALTIME_ADAPTER: 'pusher-http',
      REALTIME_UPSTREAM_URL: `http://127.0.0.1:${upstream.port}`,
    });
  });
  afterAll(async () => {
    await Promise.all([forwarder.close(), upstream.close()]);
  });

  it('forwards published events and asks the upstream for occupancy and members', async () => {
    const org = [{ organisationId: 'o', role: 'staff' as const }];
    const client = pusherClient(upstream, testUser('u', org));
    const { channel } = await subscribed(client, 'live');
    await subscribed(client, 'presence-org-o');
    const received = nextEvent(channel, 'passing');
    await forwarder.app.realtime.publish(['live'], 'passing', { bib: 1 });
    expect(await received).toEqual({ bib: 1 });
    expect(await forwarder.app.realtime.channel('live')).toEqual({ subscriptionCount: 1 });
    expect(await forwarder.app.realtime.channel('presence-org-o')).toEqual({
      subscriptionCount: 1,
      userCount: 1,
    });
    expect([...(await forwarder.app.realtime.channels()).keys()].sort()).toEqual(['live', 'presence-org-o']);
    expect(await forwarder.app.realtime.members('presence-org-o')).toEqual([{ id: 'u', info: null }]);
    client.disconnect();
  });

  it('serves no sockets itself but still authorises channels', async () => {
    const apps = await forwarder.app.inject({ url: '/apps/tempora/channels' });
    expect(apps.statusCode).toBe(404);
    const auth = await forwarder.app.inject({
      method: 'POST',
      url: '/api/realtime/auth',
      payload: 'socket_id=1.1&channel_name=private-user-u',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-test-user': JSON.stringify(testUser('u')),
      },
    });
    expect(auth.statusCode).toBe(200);
  });

  it('surfaces upstream refusals as errors', async () => {
    await expect(forwarder.app.realtime.publish(['bad channel'], 'e', {})).rejects.toThrow();
    const wrong = await startNode({
      REALTIME_ADAPTER: 'pusher-http',
      REALTIME_UPSTREAM_URL: `http://127.0.0.1:${upstream.port}`,
      REALTIME_SECRET: 'another-secret',
    });
    await expect(wrong.app.realtime.publish(['live'], 'e', {})).rejects.toThrow(/HTTP 401/);
    await wrong.close();
  });
});
