import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';
import * as repo from '../results/repository.ts';
import { hashKey } from '../results/service.ts';
import { type DecoderListenerOptions, startDecoderListener } from './decoder-tcp.ts';

// Issue 13: 256 idle connections (no AUTH, or silent after AUTH) locked real decoders out.

const KEY = 'tdk_slots_finish_mat_123456';

/** A raw TCP client collecting answer lines. */
function client(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  const lines: string[] = [];
  let buffer = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => {
    buffer += d;
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts);
  });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const ready = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const line = async (text: string, timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    while (!lines.includes(text)) {
      if (Date.now() > deadline) throw new Error(`no '${text}' (got ${JSON.stringify(lines)})`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { socket, lines, closed, ready, line, send: (t: string) => socket.write(t) };
}

let app: FastifyInstance;
const clients: ReturnType<typeof client>[] = [];
const open = async (port: number) => {
  const c = client(port);
  clients.push(c);
  await c.ready;
  return c;
};
beforeAll(async () => {
  app = await buildTestApp();
  await repo.insertDevice(app.database, {
    db: DEMO_DB,
    name: 'mat',
    keyHash: hashKey(KEY),
    pointKey: 'finish',
  });
});
afterAll(async () => {
  for (const c of clients) c.socket.destroy();
  await app.close();
});

const options = (overrides: Partial<DecoderListenerOptions>): DecoderListenerOptions => ({
  host: '127.0.0.1',
  port: 0,
  database: app.database,
  service: app.results,
  log: app.log,
  ...overrides,
});

describe('decoder listener slots', () => {
  it('limits connections per source address', async () => {
    const listener = await startDecoderListener(options({ maxPerAddress: 2 }));
    try {
      await open(listener.port);
      await open(listener.port);
      const third = await open(listener.port);
      await third.line('ERR;0;too many connections from this address');
      await third.closed;
    } finally {
      await listener.close();
    }
  });

  it('strangers never hold the reserved slots: the oldest makes room, a decoder with a key gets in', async () => {
    const listener = await startDecoderListener(
      options({ maxConnections: 4, reservedShare: 0.5, maxPerAddress: 100 }),
    );
    try {
      const a = await open(listener.port);
      await open(listener.port);
      await new Promise((r) => setTimeout(r, 50));
      await open(listener.port);
      await a.line('ERR;0;too many connections');
      await a.closed;
      const decoder = await open(listener.port);
      decoder.send(`AUTH;${KEY}\n`);
      await decoder.line('OK;finish');
    } finally {
      await listener.close();
    }
  });

  it('closes an authenticated decoder that stays silent; PING keeps it alive', async () => {
    const listener = await startDecoderListener(options({ idleTimeoutMs: 400, maxPerAddress: 100 }));
    try {
      const decoder = await open(listener.port);
      decoder.send(`AUTH;${KEY}\n`);
      await decoder.line('OK;finish');
      for (let k = 0; k < 6; k++) {
        await new Promise((r) => setTimeout(r, 150));
        decoder.send('PING\n');
      }
      expect(decoder.lines.filter((l) => l === 'PONG').length).toBeGreaterThanOrEqual(5);
      expect(decoder.lines).not.toContain('ERR;0;idle timeout');
      await decoder.line('ERR;0;idle timeout', 3000);
      await decoder.closed;
    } finally {
      await listener.close();
    }
  });
});
