import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hmacHex } from './protocol.ts';
import {
  eventually,
  nextEvent,
  pusherClient,
  pusherServer,
  startNode,
  subscribed,
  type TestNode,
  testUser,
} from './test-harness.ts';
import { UPSTREAM_WEBHOOK_PATH } from './upstream-webhooks.ts';

/** The pusher-http adapter, with another Tempora node standing in for hosted Pusher. */
describe('pusher-http adapter', () => {
  let upstream: TestNode;
  let forwarder: TestNode;
  /** The occupancy webhooks the forwarder accepted, in order: `+channel` / `-channel`. */
  const heard: string[] = [];
  beforeAll(async () => {
    upstream = await startNode();
    forwarder = await startNode({
      REALTIME_ADAPTER: 'pusher-http',
      REALTIME_UPSTREAM_URL: `http://127.0.0.1:${upstream.port}`,
    });
    forwarder.app.realtime.onUpstreamOccupancy((channel, occupied) =>
      heard.push(`${occupied ? '+' : '-'}${channel}`),
    );
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

  // Issue 28: occupancy webhooks. The upstream here is another Tempora node, whose webhooks are
  // Pusher's (signed with the app secret; pusher-complete.test.ts checks them with the SDK).
  it("hears the upstream's channel_occupied and channel_vacated webhooks", async () => {
    heard.length = 0;
    const hooked = await startNode({
      REALTIME_WEBHOOK_URLS: `http://127.0.0.1:${forwarder.port}${UPSTREAM_WEBHOOK_PATH}`,
    });
    const client = pusherClient(hooked);
    await subscribed(client, 'results-demo-passings');
    await eventually(() => heard.includes('+results-demo-passings'), 5_000);
    client.unsubscribe('results-demo-passings');
    await eventually(() => heard.includes('-results-demo-passings'), 5_000);
    expect(heard).toEqual(['+results-demo-passings', '-results-demo-passings']);
    client.disconnect();
    await hooked.close();
  });

  it('accepts a body the pusher SDK verifies, and refuses bad signatures with 401 problem+json', async () => {
    heard.length = 0;
    const { REALTIME_KEY: key, REALTIME_SECRET: secret } = forwarder.config;
    const body = JSON.stringify({
      time_ms: Date.now(),
      events: [
        { name: 'channel_occupied', channel: 'results-a' },
        { name: 'member_added', channel: 'presence-x', user_id: 'u' },
        { name: 'channel_vacated', channel: 'results-b' },
      ],
    });
    const headers = { 'content-type': 'application/json', 'x-pusher-key': key };
    const signed = { ...headers, 'x-pusher-signature': hmacHex(secret, body) };
    // The official SDK's own check agrees with ours on what a valid delivery is.
    expect(pusherServer(forwarder).webhook({ headers: signed, rawBody: body }).isValid()).toBe(true);
    const ok = await forwarder.app.inject({
      method: 'POST',
      url: UPSTREAM_WEBHOOK_PATH,
      headers: signed,
      payload: body,
    });
    expect(ok.statusCode).toBe(200);
    expect(heard).toEqual(['+results-a', '-results-b']);

    const refusals = [
      { ...headers, 'x-pusher-signature': hmacHex('another-secret', body) },
      { ...signed, 'x-pusher-key': 'another-key' },
      headers,
    ];
    for (const h of refusals) {
      const res = await forwarder.app.inject({
        method: 'POST',
        url: UPSTREAM_WEBHOOK_PATH,
        headers: h,
        payload: body,
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.json()).toMatchObject({ code: 'REALTIME_WEBHOOK_SIGNATURE_INVALID' });
    }
    // A body changed after signing is refused too.
    const tampered = body.replace('results-a', 'results-z');
    const res = await forwarder.app.inject({
      method: 'POST',
      url: UPSTREAM_WEBHOOK_PATH,
      headers: signed,
      payload: tampered,
    });
    expect(res.statusCode).toBe(401);
    // Signed but not a webhook body: 400.
    const bad = '{"events":"nope"}';
    const invalid = await forwarder.app.inject({
      method: 'POST',
      url: UPSTREAM_WEBHOOK_PATH,
      headers: { ...headers, 'x-pusher-signature': hmacHex(secret, bad) },
      payload: bad,
    });
    expect(invalid.statusCode).toBe(400);
    expect(heard).toEqual(['+results-a', '-results-b']);
  });

  it('has no webhook endpoint where this node serves the sockets itself', async () => {
    const res = await upstream.app.inject({ method: 'POST', url: UPSTREAM_WEBHOOK_PATH, payload: {} });
    expect(res.statusCode).toBe(404);
  });
});
