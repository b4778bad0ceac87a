import net from 'node:net';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { MAX_FRAME_BYTES } from './protocol.ts';
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
} from './test-harness.ts';

/** Messages that look like the protocol but are wrong in every way a hostile client can try. */
const hostileMessage = fc.oneof(
  fc.string(),
  fc.json(),
  fc.constant('{"event":"pusher:subscribe","data":"{\\"channel\\":'),
  fc
    .record({
      event: fc.constantFrom(
        'pusher:subscribe',
        'pusher:unsubscribe',
        'pusher:ping',
        'client-x',
        'pusher:signin',
        'x',
      ),
      channel: fc.oneof(fc.string(), fc.constantFrom('private-a', 'presence-a', 'public', '')),
      data: fc.oneof(
        fc.anything(),
        fc.record({
          channel: fc.oneof(
            fc.string(),
            fc.constantFrom('private-a', 'presence-a', 'public', 'private-encrypted-a'),
          ),
          auth: fc.oneof(fc.string(), fc.constant('tempora-key:00')),
          channel_data: fc.oneof(fc.string(), fc.json()),
        }),
      ),
    })
    .map((m) => JSON.stringify(m)),
);

it('survives hostile clients and still serves a fresh pusher-js client', async () => {
  const node = await startNode({ REALTIME_CLIENT_EVENTS: 'true' });
  const samples = fc.sample(hostileMessage, { numRuns: 3000, seed: 42 });
  const fuzzers = Array.from({ length: 60 }, async (_, k) => {
    const client = rawClient(node);
    await rawSocketId(client);
    for (let i = k * 50; i < k * 50 + 50; i++) {
      if (client.ws.readyState !== WebSocket.OPEN) break;
      if (i % 97 === 0) client.ws.send(Buffer.from(fc.sample(fc.uint8Array(), { numRuns: 1, seed: i })[0]!));
      else client.ws.send(samples[i]!);
    }
    if (k % 10 === 0) client.ws.send('x'.repeat(MAX_FRAME_BYTES + 1)); // over maxPayload: closed with 1009
    if (k % 7 === 0)
      client.ws.terminate(); // gone without a closing handshake
    else client.ws.close();
    await client.closed;
  });
  // Raw TCP garbage on the upgrade path, and a handshake cut in the middle.
  const garbage = [
    'GET /app/tempora-key?protocol=7 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n',
    'GET /app/tempora-key HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: !!\r\nSec-WebSocket-Version: 13\r\n\r\n',
    '\u0000\u0001garbage\r\n\r\n',
  ].map(
    (text) =>
      new Promise<void>((resolve) => {
        const socket = net.connect(node.port, '127.0.0.1', () => socket.end(text));
        socket.on('error', () => resolve());
        socket.on('close', () => resolve());
        socket.resume();
      }),
  );
  await Promise.all([...fuzzers, ...garbage]);

  await eventually(async () => node.app.realtime.localConnections() === 0);
  expect((await node.app.realtime.channels()).size).toBe(0); // nothing leaked in the hub

  const fresh = pusherClient(node);
  await connected(fresh);
  const { channel } = await subscribed(fresh, 'after-fuzz');
  const received = nextEvent(channel, 'ok');
  await pusherServer(node).trigger('after-fuzz', 'ok', { alive: true });
  expect(await received).toEqual({ alive: true });
  fresh.disconnect();
  await node.close();
}, 60_000);
