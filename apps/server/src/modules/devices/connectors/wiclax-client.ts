/**
 * Wiclax generic acquisition connector: Tempora connects to the device (which listens) and reads
 * its tag reports (`../protocols/wiclax.ts`). On every connection: CLOCK (drift), STARTREAD, and
 * — when reads of this device are stored already — `REWIND <from> <to>` from a minute before the
 * last stored read to now, so the reads made while the connection was down come again (the
 * protocol has no acknowledgement; a read sent twice is one passing). Reads are stored per
 * received chunk; `*` heartbeats keep the connection alive; CLOCK is asked every 30 s.
 */
import net from 'node:net';
import type { IncomingPassing } from '../../results/service.ts';
import { Backoff, LineFramer } from '../framing.ts';
import { formatWiclaxDateTime, parseWiclaxLine } from '../protocols/wiclax.ts';
import { lastReadTime } from '../repository.ts';
import { toIncoming } from '../sink.ts';
import type { Connector, ConnectorDeps } from './types.ts';

const CLOCK_MS = 30_000;
const IDLE_MS = 60_000;
const REWIND_MARGIN_MS = 60_000;

export class WiclaxClient implements Connector {
  readonly port = null;
  private socket: net.Socket | null = null;
  private stopped = false;
  private readonly backoff = new Backoff();
  private timer: NodeJS.Timeout | null = null;
  private clock: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private clockAskedAt = 0;

  constructor(private readonly deps: ConnectorDeps) {}

  private now() {
    return this.deps.now?.() ?? Date.now();
  }

  async start() {
    this.connect();
  }

  private connect() {
    if (this.stopped) return;
    const { config, status } = this.deps;
    const where = `${config.host}:${config.port}`;
    status.set('waiting', `connecting to ${where}`);
    const socket = net.connect({ host: config.host ?? '127.0.0.1', port: config.port ?? 0 });
    this.socket = socket;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 10_000);
    socket.setTimeout(IDLE_MS);
    const framer = new LineFramer(1024, true);
    socket.on('connect', () => {
      this.backoff.reset();
      status.set('connected', null, where);
      this.enqueue(async () => {
        this.askClock();
        this.send('STARTREAD');
        const last = await lastReadTime(this.deps.database, config.deviceId);
        if (last !== null) {
          // Device time = UTC − offset; the window covers what the connection may have missed.
          const from = last - config.clockOffsetMs - REWIND_MARGIN_MS;
          const to = this.now() - config.clockOffsetMs + REWIND_MARGIN_MS;
          this.send(`REWIND ${formatWiclaxDateTime(from)} ${formatWiclaxDateTime(to)}`);
        }
      });
      this.clock = setInterval(() => this.askClock(), CLOCK_MS);
    });
    socket.on('data', (chunk: Buffer) => {
      status.seen();
      const lines = framer.push(chunk);
      if (lines === null) {
        status.rejected++;
        socket.destroy(new Error('line too long'));
        return;
      }
      this.enqueue(() => this.handle(lines));
    });
    socket.on('timeout', () => socket.destroy(new Error('device silent')));
    socket.on('error', (err) => status.set('error', err.message));
    socket.on('close', () => {
      if (this.clock) clearInterval(this.clock);
      this.clock = null;
      if (this.socket === socket) this.socket = null;
      if (this.stopped) return;
      if (status.state !== 'error') status.set('waiting', 'connection closed');
      this.timer = setTimeout(() => this.connect(), this.backoff.next());
    });
  }

  private askClock() {
    this.clockAskedAt = this.now();
    this.send('CLOCK');
  }

  private send(line: string) {
    if (this.socket && !this.socket.destroyed) this.socket.write(`${line}\r`, 'latin1');
  }

  private enqueue(task: () => Promise<void>) {
    this.chain = this.chain.then(task).catch((err) => {
      this.deps.log.warn({ err, deviceId: this.deps.config.deviceId }, 'wiclax: handling failed');
      this.deps.status.set('error', `storing failed: ${(err as Error).message}`);
      this.socket?.destroy();
    });
  }

  private async handle(lines: string[]) {
    const { config, status } = this.deps;
    const reads: IncomingPassing[] = [];
    for (const line of lines) {
      const parsed = parseWiclaxLine(line);
      if (!parsed.ok) {
        status.rejected++;
        continue;
      }
      const m = parsed.message;
      if (m.kind === 'read') {
        if (m.read.battery !== undefined) status.battery = m.read.battery;
        const incoming = toIncoming(config, m.read, m.read.loop);
        if (incoming) reads.push(incoming);
        else status.rejected++;
      } else if (m.kind === 'clock') {
        // CLOCK answers to the second: drift finer than that is not measurable here.
        const at = (this.clockAskedAt + this.now()) / 2;
        status.driftMs = Math.round(m.deviceTimeMs + config.clockOffsetMs - at);
      }
    }
    if (reads.length) await this.deps.sink.store(config, reads, status);
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.clock) clearInterval(this.clock);
    await this.chain;
    const socket = this.socket;
    if (socket && !socket.destroyed) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.destroy();
      });
    }
    this.deps.status.set('disabled');
  }
}
