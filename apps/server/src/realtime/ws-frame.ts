import type { WebSocket } from 'ws';

/**
 * A whole unmasked, final WebSocket text frame (RFC 6455 §5.2: FIN + opcode 1, the payload length
 * in 7, 7+16 or 7+64 bits, then the payload) in one buffer. Issue 28: the hub frames an event
 * once per channel and every subscriber's socket gets the same bytes in one write, instead of
 * `ws` building a header and writing two buffers per socket.
 */
export function textFrame(payload: Buffer): Buffer {
  const length = payload.length;
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81;
  if (length < 126) frame[1] = length;
  else if (length < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
  payload.copy(frame, headerLength);
  return frame;
}

/** The parts of `ws`'s WebSocket (8.x) a direct write relies on; absent in another version. */
interface WsInternals {
  _socket?: { write(chunk: Buffer): boolean } | null;
  _sender?: { _state?: number; _queue?: unknown[]; _firstFragment?: boolean } | null;
}

/**
 * Writes an already framed message straight to the socket when `ws` would do exactly that: its
 * sender idle (no compression or blob read in progress, nothing queued: ordering is kept) and
 * between messages. False when it cannot: the caller sends the payload through `ws.send`.
 */
export function writeFramed(ws: WebSocket, frame: Buffer): boolean {
  const { _socket: socket, _sender: sender } = ws as unknown as WsInternals;
  if (!socket || !sender || sender._state !== 0 || sender._queue?.length || sender._firstFragment !== true)
    return false;
  socket.write(frame);
  return true;
}
