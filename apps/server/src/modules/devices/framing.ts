import type net from 'node:net';
import type { DeviceStatus } from './status.ts';

/** Splits a byte stream into text lines (`\n`, `\r\n` or, for Wiclax, `\r`), bounded in length. */
export class LineFramer {
  private rest = '';
  constructor(
    private readonly maxLine = 4096,
    private readonly crIsBreak = false,
    /** Keep empty lines (RaceResult ends a fetched block with one). */
    private readonly keepEmpty = false,
  ) {}

  /** The complete lines of a chunk; null when a line is longer than allowed (garbage). */
  push(chunk: Buffer | string): string[] | null {
    const text = this.rest + (typeof chunk === 'string' ? chunk : chunk.toString('latin1'));
    const parts = text.split(this.crIsBreak ? /\r\n|\r|\n/ : /\r?\n/);
    this.rest = parts.pop() ?? '';
    if (this.rest.length > this.maxLine) return null;
    // With CR as a break, a CR LF split across chunks yields one empty line: dropped below.
    if (parts.some((l) => l.length > this.maxLine)) return null;
    return this.keepEmpty ? parts : parts.filter((l) => l.length > 0);
  }
}

/** Reconnection delays: 0.5 s doubling to 10 s, reset after a connection that worked. */
export class Backoff {
  private attempt = 0;
  constructor(
    private readonly minMs = 500,
    private readonly maxMs = 10_000,
  ) {}
  next(): number {
    return Math.min(this.maxMs, this.minMs * 2 ** this.attempt++);
  }
  reset() {
    this.attempt = 0;
  }
}

/**
 * A device connection's bytes, as lines, into `onLines` (every chunk marks the device seen). A
 * line over the framer's bound is garbage: counted, and the connection closed.
 */
export function readLines(
  socket: net.Socket,
  framer: LineFramer,
  status: DeviceStatus,
  onLines: (lines: string[]) => void,
) {
  socket.on('data', (chunk: Buffer) => {
    status.seen();
    const lines = framer.push(chunk);
    if (lines === null) {
      status.rejected++;
      socket.destroy(new Error('line too long'));
      return;
    }
    onLines(lines);
  });
}
