import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { buildTestApp } from '../../test/helpers.ts';
import { signChannel } from './protocol.ts';
import { rawClient, rawSocketId, startNode } from './test-harness.ts';

describe('WebSocket server (protocol 7)', () => {
  it('sends connection_established with a double-encoded socket id and activity timeout', async () => {
    const node = await startNode();
    const raw = rawClient(node);
    const established = await raw.next((m) => m.event === 'pusher:connection_established');
    expect(typeof established.data).toBe('string');
    expect(JSON.parse(established.data as string)).toEqual({
      socket_id: expect.stringMatching(/^\d+\.\d+$/),
      activity_timeout: 120,
    });
    raw.ws.send(JSON.stringify({ event: 'pusher:ping', data: {} }));
    expect(await raw.next((m) => m.event === 'pusher:pong')).toBeTruthy();
    raw.ws.close();
    await node.close();
  });

  it('refuses an unknown app key with 4001 and a missing or unsupported protocol with 4008/4007', async () => {
    const node = await startNode();
    const wrongKey = rawClient(node, '/app/nope?protocol=7');
    expect(await wrongKey.next((m) => m.event === 'pusher:error')).toMatchObject({ data: { code: 4001 } });
    expect((await wrongKey.closed).code).toBe(4001);
    expect((await rawClient(node, `/app/${node.config.REALTIME_KEY}`).closed).code).toBe(4008);
    expect((await rawClient(node, `/app/${node.config.REALTIME_KEY}?protocol=99`).closed).code).toBe(4007);
    await node.close();
  });

  it('answers pusher:error to invalid JSON, unknown events and binary frames without closing', async () => {
    const node = await startNode();
    const raw = rawClient(node);
    await rawSocketId(raw);
    for (const bad of ['{', '"x"', '{"event":"nope"}', '{"event":"pusher:subscribe","data":{}}']) {
      raw.ws.send(bad);
      expect(await raw.next((m) => m.event === 'pusher:error')).toMatchObject({ data: { code: null } });
    }
    raw.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await raw.next((m) => m.event === 'pusher:error')).toBeTruthy();
    raw.ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel: 'a b' } }));
    expect(await raw.next((m) => m.event === 'pusher:subscription_error')).toMatchObject({
      data: { status: 400 },
    });
    raw.ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel: 'private-encrypted-x' } }));
    expect(await raw.next((m) => m.event === 'pusher:subscription_error')).toMatchObject({
      data: { status: 401 },
    });
    expect(raw.ws.readyState).toBe(WebSocket.OPEN);
    raw.ws.close();
    await node.close();
  });

  it('pings a silent client and closes it with 4201 when no pong comes', async () => {
    const node = await startNode({ REALTIME_ACTIVITY_TIMEOUT: '1' });
    const raw = rawClient(node);
    await rawSocketId(raw);
    expect(await raw.next((m) => m.event === 'pusher:ping', 3000)).toBeTruthy();
    expect((await raw.closed).code).toBe(4201);
    await node.close();
  }, 10_000);

  it('refuses connections over the configured capacity with 4100', async () => {
    const node = await startNode({ REALTIME_MAX_CONNECTIONS: '1' });
    const first = rawClient(node);
    await rawSocketId(first);
    const second = rawClient(node);
    expect((await second.closed).code).toBe(4100);
    first.ws.close();
    await node.close();
  });

  it('refuses client events by default and relays them when enabled', async () => {
    const off = await startNode();
    const raw = rawClient(off);
    const id = await rawSocketId(raw);
    const auth = signChannel(off.config.REALTIME_KEY, off.config.REALTIME_SECRET, id, 'private-chat');
    raw.ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel: 'private-chat', auth } }));
    await raw.next((m) => m.event === 'pusher_internal:subscription_succeeded');
    raw.ws.send(JSON.stringify({ event: 'client-typing', channel: 'private-chat', data: {} }));
    expect(await raw.next((m) => m.event === 'pusher:error')).toMatchObject({ data: { code: 4009 } });
    raw.ws.close();
    await off.close();

    const on = await startNode({ REALTIME_CLIENT_EVENTS: 'true' });
    const join = async () => {
      const client = rawClient(on);
      const socketId = await rawSocketId(client);
      const channelData = JSON.stringify({ user_id: `u${socketId}` });
      const { REALTIME_KEY: key, REALTIME_SECRET: secret } = on.config;
      const signed = signChannel(key, secret, socketId, 'presence-room', channelData);
      const data = { channel: 'presence-room', auth: signed, channel_data: channelData };
      client.ws.send(JSON.stringify({ event: 'pusher:subscribe', data }));
      await client.next((m) => m.event === 'pusher_internal:subscription_succeeded');
      return { client, socketId };
    };
    const a = await join();
    const b = await join();
    a.client.ws.send(
      JSON.stringify({ event: 'client-typing', channel: 'presence-room', data: { on: true } }),
    );
    const relayed = await b.client.next((m) => m.event === 'client-typing');
    expect(relayed).toMatchObject({
      channel: 'presence-room',
      data: '{"on":true}',
      user_id: `u${a.socketId}`,
    });
    await expect(a.client.next((m) => m.event === 'client-typing', 200)).rejects.toThrow();
    a.client.ws.send(JSON.stringify({ event: 'client-x', channel: 'public', data: {} }));
    expect(await a.client.next((m) => m.event === 'pusher:error')).toMatchObject({ data: { code: 4009 } });
    for (let i = 0; i < 12; i++) {
      a.client.ws.send(JSON.stringify({ event: 'client-burst', channel: 'presence-room', data: i }));
    }
    expect(await a.client.next((m) => m.event === 'pusher:error')).toMatchObject({ data: { code: 4301 } });
    a.client.ws.close();
    b.client.ws.close();
    await on.close();
  });

  it('is served by the full app and closes sockets with 4200 on shutdown', async () => {
    const app = await buildTestApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const ws = new WebSocket(`ws://127.0.0.1:${port}/app/${app.config.REALTIME_KEY}?protocol=7`);
    const first = await new Promise<string>((resolve) => ws.once('message', (m) => resolve(m.toString())));
    expect(JSON.parse(first).event).toBe('pusher:connection_established');
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    const started = Date.now();
    await app.close();
    expect(await closed).toBe(4200);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
