import type { ChannelAuthorizationHandler } from 'pusher-js';
import { describe, expect, it, vi } from 'vitest';
import { createPusher, type PusherLike, pusherOptions, RealtimeSession } from './client.ts';
import { eventBus } from './event-bus.ts';

const settings = { key: 'k-1', cluster: 'eu', host: null, port: null, forceTLS: null };
const page = { protocol: 'https:', hostname: 'results.example', port: '' };
const authorize = async () => ({ auth: 'k-1:sig' });

/**
 * A stand-in for the part of pusher-js the session drives (subscribe/unsubscribe, bind_global,
 * connection state events). Only for the single-channel and ref-count rules; the real pusher-js
 * against our real server is covered by apps/server/src/realtime/pusher-js.test.ts.
 */
function fakePusher() {
  const subscribed = new Set<string>();
  const globals = new Map<string, Set<(event: string, data: unknown) => void>>();
  const stateHandlers = new Set<(change: { current: string }) => void>();
  const fake = {
    subscribed,
    subscribeCalls: [] as string[],
    deliver: (channel: string, event: string, data: unknown) => {
      for (const fn of globals.get(channel) ?? []) fn(event, data);
    },
    setState: (current: string) => {
      fake.connection.state = current;
      for (const fn of stateHandlers) fn({ current });
    },
    subscribe(name: string) {
      subscribed.add(name);
      fake.subscribeCalls.push(name);
      if (!globals.has(name)) globals.set(name, new Set());
      const set = globals.get(name)!;
      return {
        bind_global: (fn: (event: string, data: unknown) => void) => set.add(fn),
        unbind_global: (fn: (event: string, data: unknown) => void) => set.delete(fn),
      };
    },
    unsubscribe(name: string) {
      subscribed.delete(name);
    },
    connection: {
      state: 'initialized',
      bind: (_: string, fn: (change: { current: string }) => void) => stateHandlers.add(fn),
      unbind: (_: string, fn: (change: { current: string }) => void) => stateHandlers.delete(fn),
    },
    disconnect: vi.fn(),
  };
  return fake;
}
const sessionOf = (fake: ReturnType<typeof fakePusher>) => new RealtimeSession(fake as unknown as PusherLike);

describe('realtime client options (spec §8, §9)', () => {
  it('refuses to start without an app key, naming the setting', async () => {
    expect(() => pusherOptions({ ...settings, key: '' }, authorize, page)).toThrow(
      /app key is missing \(realtime\.key/,
    );
    await expect(createPusher({ ...settings, key: ' ' }, authorize, page)).rejects.toThrow(
      /app key is missing/,
    );
  });

  it('uses cluster eu, the page host and TLS from the page protocol, ws/wss only', () => {
    const options = pusherOptions(settings, authorize, page);
    expect(options).toMatchObject({
      cluster: 'eu',
      wsHost: 'results.example',
      wsPort: 443,
      wssPort: 443,
      forceTLS: true,
      enabledTransports: ['ws', 'wss'],
    });
    const local = pusherOptions(settings, authorize, {
      protocol: 'http:',
      hostname: 'localhost',
      port: '3000',
    });
    expect(local).toMatchObject({ wsHost: 'localhost', wsPort: 3000, forceTLS: false });
  });

  it('uses the self-hosted host and port when the environment gives them', () => {
    const options = pusherOptions(
      { ...settings, host: 'rt.example', port: 6001, forceTLS: false },
      authorize,
      page,
    );
    expect(options).toMatchObject({ wsHost: 'rt.example', wsPort: 6001, forceTLS: false });
  });

  it('authorises private channels through the given authoriser', async () => {
    const seen: unknown[] = [];
    const options = pusherOptions(
      settings,
      async (socketId, channel) => {
        seen.push([socketId, channel]);
        return { auth: 'sig' };
      },
      page,
    );
    const handler = (options.channelAuthorization as { customHandler: ChannelAuthorizationHandler })
      .customHandler;
    const result = await new Promise((resolve) =>
      handler({ socketId: '1.2', channelName: 'private-user-a' }, (_e, data) => resolve(data)),
    );
    expect(seen).toEqual([['1.2', 'private-user-a']]);
    expect(result).toEqual({ auth: 'sig' });
  });
});

describe('realtime session (spec §4)', () => {
  it('holds one personal channel at a time: a new login replaces it, sign-out unsubscribes', () => {
    const fake = fakePusher();
    const session = sessionOf(fake);
    session.setPersonal('alice');
    expect([...fake.subscribed]).toEqual(['private-user-alice']);
    session.setPersonal('bob');
    expect([...fake.subscribed]).toEqual(['private-user-bob']);
    session.setPersonal('bob');
    expect(fake.subscribeCalls).toEqual(['private-user-alice', 'private-user-bob']);
    expect(session.personalChannel).toBe('private-user-bob');
    session.setPersonal(null);
    expect(fake.subscribed.size).toBe(0);
    expect(session.personalChannel).toBeNull();
  });

  it('forwards every event of the channel to the bus, once, without pusher internals', () => {
    const fake = fakePusher();
    const session = sessionOf(fake);
    const seen: unknown[] = [];
    const off = eventBus.on('*', (data, meta) => seen.push([meta.event, meta.channel, data]));
    session.setPersonal('alice');
    session.setPersonal(null);
    session.setPersonal('alice'); // re-subscribing must not bind twice
    fake.deliver('private-user-alice', 'profile-updated', { id: 1 });
    fake.deliver('private-user-alice', 'pusher_internal:subscription_succeeded', {});
    off();
    expect(seen).toEqual([['profile-updated', 'private-user-alice', { id: 1 }]]);
  });

  it('puts a results bundle on the bus as its report patches and reads, in order', () => {
    const fake = fakePusher();
    const session = sessionOf(fake);
    const seen: unknown[] = [];
    const off = eventBus.on('*', (data, meta) => seen.push([meta.event, meta.channel, data]));
    const release = session.hold('results-ctx');
    const patch = { group: 'g', report: 'LIVE1', fromVersion: 1, version: 2, upserts: [] };
    const read = { raceId: 'r', bib: '7', pointKey: 'finish', timeOfDay: 5 };
    fake.deliver('results-ctx', 'results', { patches: [patch], passings: [read] });
    release();
    off();
    expect(seen).toEqual([
      ['results', 'results-ctx', { patches: [patch], passings: [read] }],
      ['report-patch', 'results-ctx', patch],
      ['passing', 'results-ctx', read],
    ]);
  });

  it('ref-counts public channels', () => {
    const fake = fakePusher();
    const session = sessionOf(fake);
    const a = session.hold('results-x');
    const b = session.hold('results-x');
    expect(fake.subscribeCalls).toEqual(['results-x']);
    a();
    a(); // a second release of the same holder counts once
    expect(fake.subscribed.has('results-x')).toBe(true);
    b();
    expect(fake.subscribed.has('results-x')).toBe(false);
  });

  it('reports a lost connection and runs catch-up callbacks after reconnecting, not on the first connect', () => {
    const fake = fakePusher();
    const session = sessionOf(fake);
    const catchUp = vi.fn();
    const states: string[] = [];
    session.onReconnect(catchUp);
    session.onStateChange(() => states.push(`${session.state}:${session.isLost}`));
    fake.setState('connecting');
    fake.setState('connected');
    expect(catchUp).not.toHaveBeenCalled();
    fake.setState('unavailable');
    fake.setState('connecting');
    fake.setState('connected');
    expect(catchUp).toHaveBeenCalledOnce();
    expect(states).toEqual([
      'connecting:false',
      'connected:false',
      'unavailable:true',
      'connecting:true',
      'connected:false',
    ]);
    session.close();
    expect(fake.disconnect).toHaveBeenCalled();
  });
});

describe('subscription catch-up', () => {
  it('calls back when a channel’s subscription succeeds, for that channel only, until released', () => {
    const fake = fakePusher();
    const session = sessionOf(fake);
    const calls: string[] = [];
    const release = session.hold('results-a');
    session.hold('results-b');
    const off = session.onSubscribed('results-a', () => calls.push('a'));
    fake.deliver('results-b', 'pusher:subscription_succeeded', {});
    expect(calls).toEqual([]);
    fake.deliver('results-a', 'pusher:subscription_succeeded', {});
    expect(calls).toEqual(['a']);
    off();
    fake.deliver('results-a', 'pusher:subscription_succeeded', {});
    expect(calls).toEqual(['a']);
    release();
  });
});
