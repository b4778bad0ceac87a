import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import * as wsModule from 'ws';
import { WebSocket, WebSocketServer } from 'ws';
import { textFrame, writeFramed } from './ws-frame.ts';

/** ws's own framing (exported at runtime, not in its type declarations). */
const { Sender } = wsModule as unknown as {
  Sender: { frame(data: Buffer, options: Record<string, unknown>): Buffer[] };
};

describe('pre-framed WebSocket messages (issue 28)', () => {
  it('frames text exactly as ws does, at every length encoding', () => {
    for (const length of [0, 1, 125, 126, 65_535, 65_536, 70_000]) {
      const payload = Buffer.alloc(length, 'x');
      const parts = Sender.frame(payload, { fin: true, opcode: 1, mask: false, readOnly: true, rsv1: false });
      expect(textFrame(payload).equals(Buffer.concat(parts))).toBe(true);
    }
  });

  let server: WebSocketServer | null = null;
  afterEach(async () => {
    const open = server;
    server = null;
    if (open) await new Promise((r) => open.close(r));
  });

  it('writes framed messages in order with ws.send, and falls back while ws is busy', async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
    await new Promise((r) => server!.once('listening', r));
    const port = (server.address() as AddressInfo).port;
    const serverSide = new Promise<WebSocket>((resolve) => server!.once('connection', resolve));
    const client = new WebSocket(`ws://127.0.0.1:${port}`);
    const received: string[] = [];
    const all = new Promise<void>((resolve) =>
      client.on('message', (data) => {
        received.push(data.toString());
        if (received.length === 5) resolve();
      }),
    );
    const ws = await serverSide;
    const big = 'y'.repeat(70_000);
    ws.send('one');
    expect(writeFramed(ws, textFrame(Buffer.from('two')))).toBe(true);
    ws.send('three');
    expect(writeFramed(ws, textFrame(Buffer.from(big)))).toBe(true);
    // ws in the middle of something (a compression, a blob read): not written, the caller sends.
    const sender = (ws as unknown as { _sender: { _state: number } })._sender;
    sender._state = 1;
    expect(writeFramed(ws, textFrame(Buffer.from('never')))).toBe(false);
    sender._state = 0;
    ws.send('five');
    await all;
    expect(received).toEqual(['one', 'two', 'three', big, 'five']);
    client.close();
  });
});
