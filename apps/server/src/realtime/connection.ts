import type { FastifyBaseLogger } from 'fastify';
import { WebSocket } from 'ws';
import type { NodeConnection, RealtimeNode } from './node.ts';
import {
  CLIENT_EVENTS_PER_SECOND,
  type ClientMessage,
  codes,
  encodeMessage,
  errorMessage,
  MAX_FRAME_BYTES,
  parseClientMessage,
} from './protocol.ts';
import { writeFramed } from './ws-frame.ts';

/** A slow consumer holding more than this in its send buffer is closed (4100: back off, retry). */
const MAX_BUFFERED_BYTES = 1024 * 1024;
const PONG = Buffer.from(encodeMessage('pusher:pong', {}));
const PING = Buffer.from(encodeMessage('pusher:ping', {}));

/**
 * One client WebSocket speaking protocol 7. Messages are handled one after the other (a
 * subscription waits for the adapter), so an unsubscribe never overtakes its subscribe.
 */
export class Connection implements NodeConnection {
  readonly channels = new Map<string, string | null>();
  userId: string | null = null;
  /** Last time anything arrived (the protocol's activity). */
  lastSeen = Date.now();
  /** When the server sent `pusher:ping` without an answer yet (0: none pending). */
  pingSentAt = 0;
  private queue: Promise<void> = Promise.resolve();
  private tokens = CLIENT_EVENTS_PER_SECOND;
  private tokensAt = Date.now();
  private closed = false;

  constructor(
    readonly id: string,
    private readonly ws: WebSocket,
    private readonly node: RealtimeNode,
    private readonly log: FastifyBaseLogger,
  ) {
    ws.on('message', (raw, isBinary) => this.receive(raw as Buffer, isBinary));
    ws.on('pong', () => this.touch());
    ws.on('error', () => {});
  }

  send(frame: Buffer): void {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.close(codes.overCapacity, 'Slow consumer');
      return;
    }
    this.ws.send(frame, { binary: false });
  }

  sendFramed(frame: Buffer, payload: Buffer): void {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.close(codes.overCapacity, 'Slow consumer');
      return;
    }
    if (!writeFramed(this.ws, frame)) this.ws.send(payload, { binary: false });
  }

  sendText(frame: string): void {
    this.send(Buffer.from(frame));
  }

  /** Sends the protocol's ping; the sweeper closes with 4201 if no pong follows. */
  ping(): void {
    this.pingSentAt = Date.now();
    this.send(PING);
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.ws.close(code, reason);
  }

  /** Drops the socket without the closing handshake (shutdown deadline, dead peers). */
  terminate(): void {
    this.closed = true;
    this.ws.terminate();
  }

  /** Leaves every channel once pending messages are handled (called when the socket closes). */
  finish(): Promise<void> {
    this.closed = true;
    return this.enqueue(() => this.node.leaveAll(this));
  }

  takeClientEventToken(): boolean {
    const now = Date.now();
    this.tokens = Math.min(
      CLIENT_EVENTS_PER_SECOND,
      this.tokens + ((now - this.tokensAt) / 1000) * CLIENT_EVENTS_PER_SECOND,
    );
    this.tokensAt = now;
    if (this.tokens < 1) return false;
    this.tokens--;
    return true;
  }

  private touch(): void {
    this.lastSeen = Date.now();
    this.pingSentAt = 0;
  }

  private receive(raw: Buffer, isBinary: boolean): void {
    this.touch();
    if (raw.length > MAX_FRAME_BYTES) {
      // Pusher refuses an oversized message with an error and keeps the connection.
      this.sendText(errorMessage(null, `Message too large: ${raw.length} bytes, limit ${MAX_FRAME_BYTES}`));
      return;
    }
    if (isBinary) {
      this.sendText(errorMessage(null, 'Binary messages are not supported'));
      return;
    }
    const parsed = parseClientMessage(raw.toString('utf8'));
    if ('error' in parsed) this.sendText(errorMessage(null, parsed.error));
    else this.enqueue(() => this.handle(parsed.message));
  }

  private handle(message: ClientMessage): Promise<void> | void {
    switch (message.event) {
      case 'pusher:ping':
        return this.send(PONG);
      case 'pusher:pong':
        return;
      case 'pusher:subscribe':
        return this.node.subscribe(this, message.data);
      case 'pusher:unsubscribe':
        return this.node.unsubscribe(this, message.channel);
      case 'pusher:signin':
        return this.node.signin(this, message.data);
      default:
        return this.node.clientEvent(this, message.event, message.channel, message.data);
    }
  }

  private enqueue(task: () => Promise<void> | void): Promise<void> {
    this.queue = this.queue.then(task).catch((error: unknown) => {
      this.log.warn({ err: error, socketId: this.id }, 'realtime message failed');
      this.sendText(errorMessage(null, 'Internal error, try again'));
    });
    return this.queue;
  }
}
