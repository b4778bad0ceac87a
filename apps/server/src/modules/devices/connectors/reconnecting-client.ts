/**
 * The outbound side shared by every connector where Tempora connects to the device (RaceResult
 * decoder, Wiclax acquisition): one TCP connection at a time, kept alive, closed when the device
 * stays silent, opened again with back-off (0.5 s doubling to 10 s, reset once connected). The
 * received bytes are split into lines and handed to the protocol in order, lines received while
 * the previous ones are stored coming together (`OrderedQueue`); a failure to store marks the
 * device in error and closes the connection, so the protocol's resume (a fetch by number, a
 * REWIND) recovers what was not stored. The device status follows: waiting / connected / error
 * with the reason.
 */
import net from 'node:net';
import { resolveAllowed } from '../../../lib/egress/policy.ts';
import { Backoff, type LineFramer, readLines } from '../framing.ts';
import { OrderedQueue } from './ordered-queue.ts';
import type { ConnectorDeps } from './types.ts';

export interface ReconnectingClientOptions {
  /** The protocol's name in logs ("raceresult"). */
  name: string;
  host: string;
  port: number;
  /** Closes the connection after this long without a byte from the device. */
  idleMs: number;
  /** A new framer per connection (line length bound, separators). */
  framer: () => LineFramer;
  /** What ends a line sent to the device. */
  eol: '\r' | '\r\n';
  /** On every connection, before any line is handled (send the greeting, ask the clock). */
  onConnect(): void;
  /** Received lines, in order (those of several chunks together while storing was busy). */
  onLines(lines: string[]): Promise<void>;
  /** After a connection closed (stop timers of the connection). */
  onClose?(): void;
}

export class ReconnectingClient {
  private socket: net.Socket | null = null;
  private stopped = false;
  private readonly backoff = new Backoff();
  private timer: NodeJS.Timeout | null = null;
  private readonly queue: OrderedQueue<string>;

  constructor(
    private readonly deps: Pick<ConnectorDeps, 'status' | 'log' | 'config' | 'rules'>,
    private readonly options: ReconnectingClientOptions,
  ) {
    this.queue = new OrderedQueue(
      (lines) => options.onLines(lines),
      (err) => {
        deps.log.warn({ err, deviceId: deps.config.deviceId }, `${options.name}: handling failed`);
        deps.status.set('error', `storing failed: ${(err as Error).message}`);
        this.socket?.destroy();
      },
    );
  }

  /** Starts connecting (resolves at once; the status says how it goes). */
  start() {
    this.connect();
  }

  /** Writes a line to the device when connected (dropped otherwise: every protocol asks again on connect). */
  send(line: string) {
    if (this.socket && !this.socket.destroyed) this.socket.write(`${line}${this.options.eol}`, 'latin1');
  }

  /** Runs work in order with the received lines (an async step at connection time). */
  task(task: () => Promise<void>) {
    this.queue.task(task);
  }

  /**
   * Resolves the device's host and checks the address under the egress policy (issue 25: DNS
   * rebinding, an address closed since registration), then connects to that very address. A
   * refused address is an error status and a later retry; no packet leaves for it.
   */
  private connect() {
    if (this.stopped) return;
    const { status, rules, log, config } = this.deps;
    const { host, port } = this.options;
    status.set('waiting', `connecting to ${host}:${port}`);
    resolveAllowed(host, rules.egress).then(
      (target) => this.open(target.address),
      (err: Error) => {
        if (this.stopped) return;
        log.warn({ deviceId: config.deviceId, host }, `${this.options.name}: refused: ${err.message}`);
        status.set('error', `refused: ${err.message}`);
        this.timer = setTimeout(() => this.connect(), this.backoff.next());
      },
    );
  }

  private open(address: string) {
    if (this.stopped) return;
    const { status } = this.deps;
    const { host, port, idleMs } = this.options;
    const where = `${host}:${port}`;
    const socket = net.connect({ host: address, port });
    this.socket = socket;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 10_000);
    socket.setTimeout(idleMs);
    const framer = this.options.framer();
    socket.on('connect', () => {
      this.backoff.reset();
      status.set('connected', null, where);
      this.options.onConnect();
    });
    readLines(socket, framer, status, (lines) => this.queue.push(lines));
    socket.on('timeout', () => socket.destroy(new Error('device silent')));
    socket.on('error', (err) => status.set('error', err.message));
    socket.on('close', () => {
      this.options.onClose?.();
      if (this.socket === socket) this.socket = null;
      if (this.stopped) return;
      if (status.state !== 'error') status.set('waiting', 'connection closed');
      this.timer = setTimeout(() => this.connect(), this.backoff.next());
    });
  }

  /** Stops reconnecting, lets what was received be stored, then closes the connection. */
  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.queue.drained();
    const socket = this.socket;
    if (socket && !socket.destroyed) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.destroy();
      });
    }
    this.options.onClose?.();
    this.deps.status.set('disabled');
  }
}
