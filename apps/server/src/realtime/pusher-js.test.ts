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
  type TestNode,
  testUser,
} from './test-harness.ts';

/** The official pusher-js (Node build) and pusher server SDK against our server, unchanged. */
describe('pusher-js and the pusher SDK against the embedded server', () => {
  let node: TestNode;
  const clients: Pusher[] = [];
  const client = (...args: Parameters<typeof pusherClient> extends [unknown, ...infer R] ? R : never) => {
    const c = pusherClient(node, ...args);
    clients.push(c);
    return c;
  };
  beforeAll(async () => {
    node = await startNode();
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.disconnect();
  });
  afterAll(() => node.close());

  it('connects, subscribes to a public channel and receives triggered events', async () => {
    const alice = client();
    await connected(alice);
    expect(alice.connection.socket_id).toMatch(/^\d+\.\d+$/);
    const { channel } = await subscribed(alice, 'live-20km');
    const received = nextEvent(channel, 'passing');
    const sdk = pusherServer(node);
    await sdk.trigger('live-20km', 'passing', { bib: 'F3', ms: 3_600_000 });
    expect(await received).toEqual({ bib: 'F3', ms: 3_600_000 });
  });

  it('excludes the socket_id given to trigger', async () => {
    const [a, b] = [client(), client()];
    await Promise.all([connected(a), connected(b)]);
    const [ca, cb] = await Promise.all([subscribed(a, 'excl'), subscribed(b, 'excl')]);
    const seenByA: unknown[] = [];
    ca.channel.bind('e', (d: unknown) => seenByA.push(d));
    const toB = nextEvent(cb.channel, 'e');
    await pusherServer(node).trigger('excl', 'e', 'one', { socket_id: a.connection.socket_id });
    expect(await toB).toBe('one');
    await new Promise((r) => setTimeout(r, 50));
    expect(seenByA).toEqual([]);
  });

  it('delivers batch events', async () => {
    const a = client();
    const [one, two] = await Promise.all([subscribed(a, 'batch-1'), subscribed(a, 'batch-2')]);
    const got = Promise.all([nextEvent(one.channel, 'x'), nextEvent(two.channel, 'y')]);
    await pusherServer(node).triggerBatch([
      { channel: 'batch-1', name: 'x', data: { n: 1 } },
      { channel: 'batch-2', name: 'y', data: { n: 2 } },
    ]);
    expect(await got).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('authorises the personal channel through the auth endpoint, for its user only', async () => {
    const user = testUser('u-1');
    const a = client(user);
    const { channel } = await subscribed(a, 'private-user-u-1');
    const received = nextEvent(channel, 'notice');
    await pusherServer(node).trigger('private-user-u-1', 'notice', { text: 'hi' });
    expect(await received).toEqual({ text: 'hi' });
    await expect(subscribed(a, 'private-user-u-2')).rejects.toMatchObject({ detail: { status: 403 } });
    await expect(subscribed(client(), 'private-user-u-1')).rejects.toMatchObject({ detail: { status: 401 } });
  });

  it('refuses a private subscription without a signature or with a wrong one', async () => {
    const raw = rawClient(node);
    await rawSocketId(raw);
    raw.ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel: 'private-x' } }));
    const refused = await raw.next((m) => m.event === 'pusher:subscription_error');
    expect(refused).toMatchObject({ channel: 'private-x', data: { type: 'AuthError', status: 401 } });
    raw.ws.close();

    const forged = client(undefined, {
      channelAuthorization: {
        endpoint: 'unused',
        transport: 'ajax',
        customHandler: (_params, callback) =>
          callback(null, { auth: `${node.config.REALTIME_KEY}:${'0'.repeat(64)}` }),
      },
    });
    await expect(subscribed(forged, 'private-y')).rejects.toMatchObject({
      detail: { type: 'AuthError', status: 401 },
    });
  });

  it('tracks presence members across joins and leaves', async () => {
    const org = [{ organisationId: 'org1', role: 'staff' as const }];
    const anna = client(testUser('anna', org));
    const { channel: annaChannel, data } = await subscribed(anna, 'presence-org-org1');
    expect(data).toMatchObject({ count: 1, me: { id: 'anna', info: { name: 'anna@example.org' } } });
    const added = nextEvent<{ id: string }>(annaChannel, 'pusher:member_added');
    const bob = client(testUser('bob', org));
    const { data: bobView } = await subscribed(bob, 'presence-org-org1');
    expect(bobView).toMatchObject({ count: 2 });
    expect((await added).id).toBe('bob');
    const sdk = pusherServer(node);
    const users = await (await sdk.get({ path: '/channels/presence-org-org1/users' })).json();
    expect(users.users.map((u: { id: string }) => u.id).sort()).toEqual(['anna', 'bob']);
    const info = await (
      await sdk.get({
        path: '/channels/presence-org-org1',
        params: { info: 'user_count,subscription_count' },
      })
    ).json();
    expect(info).toEqual({ occupied: true, user_count: 2, subscription_count: 2 });
    const removed = nextEvent<{ id: string }>(annaChannel, 'pusher:member_removed');
    bob.disconnect();
    expect((await removed).id).toBe('bob');
    await expect(subscribed(client(testUser('eve')), 'presence-org-org1')).rejects.toMatchObject({
      detail: { status: 403 },
    });
  });

  it('answers channel lists and occupancy through the SDK, and refuses a bad signature', async () => {
    const a = client();
    await Promise.all([subscribed(a, 'occ-1'), subscribed(a, 'occ-2')]);
    const sdk = pusherServer(node);
    const list = await (await sdk.get({ path: '/channels', params: { filter_by_prefix: 'occ-' } })).json();
    expect(Object.keys(list.channels).sort()).toEqual(['occ-1', 'occ-2']);
    const one = await (
      await sdk.get({ path: '/channels/occ-1', params: { info: 'subscription_count' } })
    ).json();
    expect(one).toEqual({ occupied: true, subscription_count: 1 });
    a.unsubscribe('occ-1');
    await eventually(async () => !(await (await sdk.get({ path: '/channels/occ-1' })).json()).occupied);
    const forger = pusherServer(node, 'not-the-secret');
    await expect(forger.trigger('occ-2', 'e', {})).rejects.toMatchObject({ status: 401 });
    await expect(forger.get({ path: '/channels' })).rejects.toMatchObject({ status: 401 });
    expect(await node.app.realtime.channel('occ-2')).toEqual({ subscriptionCount: 1 });
  });

  it('publishes through app.realtime', async () => {
    const a = client();
    const { channel } = await subscribed(a, 'server-side');
    const received = nextEvent(channel, 'report-patch');
    await node.app.realtime.publish(['server-side'], 'report-patch', { version: 2 });
    expect(await received).toEqual({ version: 2 });
  });
});
