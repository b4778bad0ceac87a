import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import PusherServer from 'pusher';
import type Pusher from 'pusher-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  connected,
  eventually,
  nextEvent,
  pusherClient,
  pusherServer,
  rawClient,
  rawSocketId,
  startNode,
  subscribed,
  TEST_USER_HEADER,
  type TestNode,
  testUser,
} from './test-harness.ts';

// Issue 20: the rest of the Pusher protocol, checked with the official packages unchanged —
// webhooks (the `pusher` SDK's webhook() verifies them), user sign-in with sendToUser and
// terminateUserConnections, end-to-end encrypted channels (pusher-js decrypting with its nacl
// what the `pusher` SDK encrypted), cache channels, subscription counts and oversized frames.

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local webhook receiver; answers 500 to the first `failFirst` deliveries. */
async function receiver(failFirst = 0) {
  const got: Received[] = [];
  let failures = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      if (failures < failFirst) {
        failures++;
        res.statusCode = 500;
        return res.end();
      }
      got.push({ headers: req.headers, body });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { got, url, failed: () => failures, close: () => new Promise((r) => server.close(r)) };
}

const MASTER_KEY = crypto.randomBytes(32).toString('base64');

describe('Pusher protocol completeness', () => {
  let node: TestNode;
  let hooks: Awaited<ReturnType<typeof receiver>>;
  const clients: Pusher[] = [];
  const client = (...args: Parameters<typeof pusherClient> extends [unknown, ...infer R] ? R : never) => {
    const c = pusherClient(node, ...args);
    clients.push(c);
    return c;
  };
  beforeAll(async () => {
    hooks = await receiver(1);
    node = await startNode({
      REALTIME_WEBHOOK_URLS: hooks.url,
      REALTIME_SUBSCRIPTION_COUNT: 'true',
      REALTIME_CLIENT_EVENTS: 'true',
      REALTIME_ENCRYPTION_MASTER_KEY: MASTER_KEY,
    });
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.disconnect();
  });
  afterAll(async () => {
    await node.close();
    await hooks.close();
  });

  /** Every webhook event received so far, after checking each delivery with the SDK. */
  const events = () =>
    hooks.got.flatMap((delivery) => {
      const hook = pusherServer(node).webhook({ headers: delivery.headers, rawBody: delivery.body });
      expect(hook.isValid()).toBe(true);
      return hook.getEvents() as { name: string; channel: string; user_id?: string; event?: string }[];
    });

  it('sends signed, batched webhooks that the SDK verifies, retrying after a 500', async () => {
    const a = client(testUser('hook-user', [{ organisationId: 'o1', role: 'staff' }]));
    await subscribed(a, 'hooked');
    const { channel } = await subscribed(a, 'presence-org-o1');
    channel.trigger('client-wave', { hi: 1 });
    a.unsubscribe('hooked');
    await eventually(() => {
      const names = events().map((e) => `${e.name}:${e.channel}`);
      return (
        names.includes('channel_occupied:hooked') &&
        names.includes('member_added:presence-org-o1') &&
        names.includes('client_event:presence-org-o1') &&
        names.includes('channel_vacated:hooked')
      );
    }, 15_000);
    expect(hooks.failed()).toBe(1); // the first delivery failed and was sent again
    const client_event = events().find((e) => e.name === 'client_event');
    expect(client_event).toMatchObject({ event: 'client-wave', user_id: 'hook-user' });
    // A forged delivery does not pass the SDK's check.
    const forged = pusherServer(node).webhook({
      headers: { ...hooks.got[0]!.headers, 'x-pusher-signature': 'f'.repeat(64) },
      rawBody: hooks.got[0]!.body,
    });
    expect(forged.isValid()).toBe(false);
  });

  it('signs a user in, delivers sendToUser to their connections only, and terminates them', async () => {
    const userAuth = (sub: string) => ({
      userAuthentication: {
        endpoint: `http://127.0.0.1:${node.port}/api/realtime/user-auth`,
        transport: 'ajax' as const,
        headers: { [TEST_USER_HEADER]: JSON.stringify(testUser(sub)) },
      },
    });
    const alice = client(undefined, userAuth('alice'));
    const bob = client(undefined, userAuth('bob'));
    alice.signin();
    bob.signin();
    await Promise.all([connected(alice), connected(bob)]);
    await eventually(() => !!alice.user.user_data && !!bob.user.user_data);
    expect(alice.user.user_data).toMatchObject({ id: 'alice' });
    const seenByBob: unknown[] = [];
    bob.user.bind('notice', (d: unknown) => seenByBob.push(d));
    const got = new Promise((resolve) => alice.user.bind('notice', resolve));
    // The #server-to-user channel subscription follows the sign-in: retry until it is in place.
    const sdk = pusherServer(node);
    let delivered: unknown;
    await eventually(async () => {
      await sdk.sendToUser('alice', 'notice', { text: 'your bib is 1234' });
      delivered = await Promise.race([got, new Promise((r) => setTimeout(() => r(null), 200))]);
      return delivered !== null;
    });
    expect(delivered).toEqual({ text: 'your bib is 1234' });
    expect(seenByBob).toEqual([]);

    // Nobody else may subscribe to a user's channel.
    const raw = rawClient(node);
    await rawSocketId(raw);
    raw.ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel: '#server-to-user-alice' } }));
    const refused = await raw.next((m) => m.event === 'pusher:subscription_error');
    expect(refused.channel).toBe('#server-to-user-alice');
    raw.ws.close();

    // terminateUserConnections closes alice's connection, not bob's.
    const closed = new Promise<void>((resolve) =>
      alice.connection.bind('state_change', (s: { current: string }) => {
        if (s.current !== 'connected') resolve();
      }),
    );
    await sdk.terminateUserConnections('alice');
    await closed;
    expect(bob.connection.state).toBe('connected');
  });

  it('refuses a forged sign-in by closing with 4009', async () => {
    const raw = rawClient(node);
    await rawSocketId(raw);
    raw.ws.send(
      JSON.stringify({ event: 'pusher:signin', data: { auth: 'tempora-key:00', user_data: '{"id":"eve"}' } }),
    );
    expect((await raw.closed).code).toBe(4009);
  });

  it('relays end-to-end encrypted channels: pusher-js decrypts what the SDK encrypted', async () => {
    const sdk = new PusherServer({
      appId: node.config.REALTIME_APP_ID,
      key: node.config.REALTIME_KEY,
      secret: node.config.REALTIME_SECRET,
      host: '127.0.0.1',
      port: String(node.port),
      useTLS: false,
      encryptionMasterKeyBase64: MASTER_KEY,
    });
    const a = client(testUser('enc'));
    const { channel } = await subscribed(a, 'private-encrypted-user-enc');
    const received = nextEvent(channel, 'secret');
    await sdk.trigger('private-encrypted-user-enc', 'secret', { result: '2:09:37' });
    expect(await received).toEqual({ result: '2:09:37' });
    // What travels through the server is ciphertext.
    const raw = rawClient(node);
    const socketId = await rawSocketId(raw);
    const auth = sdk.authorizeChannel(socketId, 'private-encrypted-user-enc');
    raw.ws.send(
      JSON.stringify({
        event: 'pusher:subscribe',
        data: { channel: 'private-encrypted-user-enc', auth: auth.auth },
      }),
    );
    await raw.next((m) => m.event === 'pusher_internal:subscription_succeeded');
    await sdk.trigger('private-encrypted-user-enc', 'secret', { result: '2:09:37' });
    const wire = await raw.next((m) => m.event === 'secret');
    expect(String(wire.data)).not.toContain('2:09:37');
    expect(JSON.parse(String(wire.data))).toHaveProperty('ciphertext');
    raw.ws.close();
  });

  it('replays the last event of a cache channel to a new subscriber, or says cache_miss', async () => {
    const a = client();
    const missed = await new Promise<boolean>((resolve) => {
      const ch = a.subscribe('cache-leaders');
      ch.bind('pusher:cache_miss', () => resolve(true));
    });
    expect(missed).toBe(true);
    await pusherServer(node).trigger('cache-leaders', 'leader', { bib: '7' });
    await pusherServer(node).trigger('cache-leaders', 'leader', { bib: '9' });
    const b = client();
    const ch = b.subscribe('cache-leaders');
    expect(await nextEvent(ch, 'leader')).toEqual({ bib: '9' });
    await eventually(() => events().some((e) => e.name === 'cache_miss' && e.channel === 'cache-leaders'));
  });

  it('tells subscribers how many are on a channel', async () => {
    const [a, b] = [client(), client()];
    const { channel } = await subscribed(a, 'counted');
    const count = new Promise<{ subscription_count: number }>((resolve) =>
      channel.bind('pusher:subscription_count', (d: { subscription_count: number }) => {
        if (d.subscription_count === 2) resolve(d);
      }),
    );
    await subscribed(b, 'counted');
    expect((await count).subscription_count).toBe(2);
  });

  it('answers an oversized frame with pusher:error and keeps the connection', async () => {
    const raw = rawClient(node);
    await rawSocketId(raw);
    raw.ws.send(JSON.stringify({ event: 'client-big', channel: 'x', data: 'x'.repeat(40_000) }));
    const error = await raw.next((m) => m.event === 'pusher:error');
    expect((error.data as { message: string }).message).toMatch(/too large/i);
    raw.ws.send(JSON.stringify({ event: 'pusher:ping', data: {} }));
    await raw.next((m) => m.event === 'pusher:pong');
    raw.ws.close();
  });
});
