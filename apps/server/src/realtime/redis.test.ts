import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type Pusher from 'pusher-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signChannel } from './protocol.ts';
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

const url = process.env.TEST_REDIS_URL;

/** Two nodes on one Redis, as behind a load balancer; each test has its own key prefix. */
describe.skipIf(!url)('redis adapter: two nodes', () => {
  let a: TestNode;
  let b: TestNode;
  let redis: Redis;
  let prefix: string;
  const clients: Pusher[] = [];
  const on = (
    node: TestNode,
    ...rest: Parameters<typeof pusherClient> extends [unknown, ...infer R] ? R : never
  ) => {
    const c = pusherClient(node, ...rest);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    prefix = `tempora-test:${randomUUID()}:`;
    const overrides = { REDIS_URL: url!, REALTIME_REDIS_PREFIX: prefix };
    [a, b] = await Promise.all([
      startNode(overrides, { heartbeatMs: 200 }),
      startNode(overrides, { heartbeatMs: 200 }),
    ]);
    redis = new Redis(url!);
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.disconnect();
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    expect(keys.filter((k) => k.includes(':n:'))).toEqual([]); // closed nodes removed their share
    await redis.quit();
  });

  it('delivers an event triggered on node A to a pusher-js client on node B', async () => {
    expect(a.app.realtime.adapter).toBe('redis');
    const client = on(b);
    const { channel } = await subscribed(client, 'live');
    const received = nextEvent(channel, 'passing');
    await pusherServer(a).trigger('live', 'passing', { bib: 7 });
    expect(await received).toEqual({ bib: 7 });
    const viaService = nextEvent(channel, 'patch');
    await a.app.realtime.publish(['live'], 'patch', 'v2');
    expect(await viaService).toBe('v2');
  });

  it('counts occupancy across nodes', async () => {
    const [ca, cb] = [on(a), on(b)];
    await Promise.all([subscribed(ca, 'occ'), subscribed(cb, 'occ'), subscribed(cb, 'occ-b')]);
    expect(await a.app.realtime.channel('occ')).toEqual({ subscriptionCount: 2 });
    const list = await (
      await pusherServer(b).get({ path: '/channels', params: { filter_by_prefix: 'occ' } })
    ).json();
    expect(Object.keys(list.channels).sort()).toEqual(['occ', 'occ-b']);
    cb.disconnect();
    await eventually(async () => (await a.app.realtime.channel('occ')).subscriptionCount === 1);
    expect((await a.app.realtime.channels('occ')).has('occ-b')).toBe(false);
  });

  it('announces presence members once per user across nodes', async () => {
    const org = [{ organisationId: 'o', role: 'owner' as const }];
    const anna = on(a, testUser('anna', org));
    const { channel } = await subscribed(anna, 'presence-org-o');
    const addedEvents: string[] = [];
    const removedEvents: string[] = [];
    channel.bind('pusher:member_added', (m: { id: string }) => addedEvents.push(m.id));
    channel.bind('pusher:member_removed', (m: { id: string }) => removedEvents.push(m.id));
    const bob = on(b, testUser('bob', org));
    const { data } = await subscribed(bob, 'presence-org-o');
    expect(data).toMatchObject({ count: 2 });
    await eventually(() => addedEvents.includes('bob'));
    const bobAgain = on(a, testUser('bob', org)); // a second tab of bob, on the other node
    await subscribed(bobAgain, 'presence-org-o');
    expect(await a.app.realtime.channel('presence-org-o')).toEqual({ subscriptionCount: 3, userCount: 2 });
    bob.disconnect();
    await eventually(async () => (await b.app.realtime.channel('presence-org-o')).subscriptionCount === 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(removedEvents).toEqual([]); // bob is still there through his other tab
    bobAgain.disconnect();
    await eventually(() => removedEvents.includes('bob'));
    expect(addedEvents).toEqual(['bob']);
    expect((await b.app.realtime.members('presence-org-o')).map((m) => m.id)).toEqual(['anna']);
  });

  it('removes the members of a node whose heartbeat stopped', async () => {
    const ghost = 'ghost-node';
    await redis.zadd(`${prefix}nodes`, Date.now() + 60_000, ghost);
    await redis.hset(`${prefix}n:${ghost}:subs`, 'presence-room', 1);
    await redis.hset(`${prefix}n:${ghost}:pres:presence-room`, 'casper', '{"name":"C"}');
    const raw = rawClient(a);
    const id = await rawSocketId(raw);
    const channelData = JSON.stringify({ user_id: 'watcher' });
    const auth = signChannel(
      a.config.REALTIME_KEY,
      a.config.REALTIME_SECRET,
      id,
      'presence-room',
      channelData,
    );
    raw.ws.send(
      JSON.stringify({
        event: 'pusher:subscribe',
        data: { channel: 'presence-room', auth, channel_data: channelData },
      }),
    );
    const ok = await raw.next((m) => m.event === 'pusher_internal:subscription_succeeded');
    expect(JSON.parse(ok.data as string).presence.ids.sort()).toEqual(['casper', 'watcher']);
    await redis.zadd(`${prefix}nodes`, 1, ghost); // the ghost's last heartbeat is now ancient
    const removed = await raw.next((m) => m.event === 'pusher_internal:member_removed');
    expect(JSON.parse(removed.data as string)).toEqual({ user_id: 'casper' });
    expect(await redis.exists(`${prefix}n:${ghost}:subs`)).toBe(0);
    raw.ws.close();
  });

  it('writes its share again after being taken for dead', async () => {
    const client = on(b);
    await connected(client);
    await subscribed(client, 'resync');
    await redis.del(`${prefix}nodes`); // as if every node had been reaped
    await eventually(async () => (await a.app.realtime.channel('resync')).subscriptionCount === 1, 3000);
  });
});
