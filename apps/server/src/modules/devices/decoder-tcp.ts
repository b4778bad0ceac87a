/**
 * Decoder TCP listener: timing decoders push chip reads over a line protocol (Wiclax style), the
 * TCP twin of `POST /api/ingest/passings` (same device keys, same `service.ingest(db, reads,
 * 'decoder', { deviceId })`, so a read stored either way is the same passing).
 *
 * Protocol — one message per line, `\n` or `\r\n`, UTF-8, at most 512 bytes a line (longer:
 * `ERR;<n>;line too long`, then the server closes). Spaces at either end of a line are ignored.
 *  1. The client's first line: `AUTH;<device key>[;<UTC offset ±hh:mm>]`. The server answers
 *     `OK;<point key>` (`OK;*` when the device has no timing point of its own) or `ERR;0;<reason>`
 *     and closes (malformed AUTH, any other first line, unknown key, no AUTH within 5 s). The
 *     offset names the zone of the decoder clock's dates (default +00:00).
 *  2. Reads: `<chip>;<dd-mm-yyyy hh:mm:ss[.ccc]>;<loop>[;<lap>[;<battery>[;<rewind>]]]`. The
 *     fraction has 1–3 digits (`.1` = 100 ms). The timing point is the device's when it has one
 *     (`<loop>` is then ignored and may be empty), else `<loop>` is the point key. Read lines are
 *     numbered from 1 in the order received; every line but blank ones and `PING` is a read line,
 *     good or bad.
 *  3. `ACK;<n>` once the reads are durable (`service.ingest` resolved): every read line up to n
 *     is settled (cumulative, as in TCP) — stored, unless it got its own `ERR;<m>;<reason>`. A
 *     bad line gets `ERR;<n>;<reason>`, is not stored, and the connection stays open. When
 *     storing fails, every good line of that batch gets `ERR;<n>;storage failed` instead of the
 *     ACK, so the decoder resends them; the connection stays open.
 *  4. `PING` → `PONG`, any time after AUTH.
 * Reasons never contain `;`: a decoder may split answers on it.
 *
 * Decisions:
 * - A batch is the complete lines of one received chunk (at most MAX_INGEST_BATCH reads per
 *   `ingest` call). A connection's work runs on one promise chain: AUTH, batches and answers
 *   strictly in the order received, so ACKs only grow. A batch's answers — ERRs, PONGs, then its
 *   ACK — are written in line order once it is stored; a PONG thus also says the server keeps up.
 * - Rewinds (a decoder re-sending its memory) need nothing here: `ingest` derives a read's id
 *   from chip@point@time, so a read sent twice is a duplicate. Lap, battery and the rewind flag
 *   are neither validated nor stored: a read must never be lost over a field we do not use.
 * - As over HTTP, a chip no participant carries is stored all the same: the start list may
 *   catch up later (a late chip swap): a context's state matches chips to runners when rebuilt.
 * - A batch that fails part-way is answered as failed as a whole: resending stored reads is
 *   harmless (above), losing one is not.
 * - Slots (issue 13: 256 idle sockets locked real decoders out): at most 8 connections per source
 *   address; connections not yet authenticated may hold 75 % of the 256 slots, the rest is kept
 *   for decoders with a known key, and a newcomer past that closes the oldest stranger (so idle
 *   strangers never lock a decoder out); AUTH within 5 s; after AUTH, 120 s of silence closes the
 *   connection (`ERR;0;idle timeout`): a decoder with nothing to send sends `PING`.
 * - With 4 batches waiting, the socket stops reading (TCP pushes back on the decoder) until the
 *   queue drains; answers wait for the socket's `drain`. Refused connections past the limit
 *   (256) get `ERR;0;too many connections`, not a silent reset, so the decoder's log says why.
 */
import net from 'node:net';
import { MAX_INGEST_BATCH } from '@tempora/contracts';
import type { Database } from '../../db/database.ts';
import * as repo from '../results/port.ts';
import { hashKey, type Results } from '../results/port.ts';
import { type DecoderRead, parseAuthLine, parseReadLine } from './decoder-lines.ts';

/** Longest line accepted, in bytes, without its line break. */
export const MAX_LINE_BYTES = 512;
const AUTH_TIMEOUT_MS = 5_000;
const MAX_CONNECTIONS = 256;
/** Connections one source address may hold (issue 13: idle sockets locked decoders out). */
const MAX_PER_ADDRESS = 8;
/** Share of the slots only authenticated decoders may use: strangers never take them all. */
const RESERVED_SHARE = 0.25;
/** Silence after AUTH before the server closes (decoders send reads or `PING` to stay). */
const IDLE_TIMEOUT_MS = 120_000;
/** Batches waiting on one connection before it stops reading. */
const MAX_QUEUED = 4;
/** How long a peer may keep a connection we ended half open. */
const LINGER_MS = 5_000;

/** Where the listener reports (Fastify's `app.log` fits). */
export interface DecoderLog {
  warn(obj: unknown, msg: string): void;
  info?(obj: unknown, msg: string): void;
}

export interface DecoderListenerOptions {
  host: string;
  /** 0 picks a free port (tests); the chosen one is `DecoderListener.port`. */
  port: number;
  database: Database;
  service: Pick<Results, 'ingest'>;
  log: DecoderLog;
  /** Open connections at most (default 256). */
  maxConnections?: number;
  /** How long a client may take to authenticate (default 5 s). */
  authTimeoutMs?: number;
  /** Connections per source address (default 8). */
  maxPerAddress?: number;
  /** Share of `maxConnections` kept for authenticated decoders (default 0.25). */
  reservedShare?: number;
  /** Silence after AUTH before the server closes, in ms (default 120 s; PING keeps alive). */
  idleTimeoutMs?: number;
}

/** A listening decoder server. */
export interface DecoderListener {
  readonly port: number;
  /** Stops accepting, lets every connection's batches settle and answer, ends the sockets. */
  close(): Promise<void>;
}

type Device = { id: string; db: string; pointKey: string | null };
type Item = { n: number; read: DecoderRead } | { n: number; reason: string } | { pong: true };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** One decoder's connection: line framing, AUTH, then batches on one promise chain. */
class DecoderConnection {
  private pending: Buffer = Buffer.alloc(0);
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;
  private device: Device | null = null;
  private offsetMinutes = 0;
  private lastRead = 0;
  /** Input is dropped (line too long, refused, shutting down). */
  private discarding = false;
  /** Our side is ended: nothing more is written. */
  private ended = false;
  private readonly authTimer: NodeJS.Timeout;
  readonly closed: Promise<void>;

  constructor(
    private readonly socket: net.Socket,
    private readonly options: DecoderListenerOptions,
    private readonly onAuthenticated: () => void = () => undefined,
  ) {
    socket.setNoDelay(true);
    // Field networks drop decoders without a FIN; keepalive finds the dead connections.
    socket.setKeepAlive(true, 30_000);
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    this.authTimer = setTimeout(
      () =>
        this.enqueue(async () => {
          if (!this.device && !this.ended) this.refuse('no AUTH within time');
        }),
      options.authTimeoutMs ?? AUTH_TIMEOUT_MS,
    );
    void this.closed.then(() => clearTimeout(this.authTimer));
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (err) =>
      options.log.info?.({ err, remote: socket.remoteAddress }, 'decoder connection error'),
    );
  }

  /** Splits a chunk into lines; its complete lines become one batch on the chain. */
  private receive(chunk: Buffer) {
    if (this.discarding) return;
    const buffer = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const lines: (string | null)[] = [];
    let start = 0;
    let tooLong = false;
    for (let nl = buffer.indexOf(0x0a); nl !== -1; nl = buffer.indexOf(0x0a, start)) {
      const end = nl > start && buffer[nl - 1] === 0x0d ? nl - 1 : nl;
      if (end - start > MAX_LINE_BYTES) {
        tooLong = true;
        break;
      }
      lines.push(decode(buffer.subarray(start, end)));
      start = nl + 1;
    }
    // The rest waits for its line break; one byte more than the limit may be its `\r`.
    this.pending = Buffer.from(buffer.subarray(start));
    if (this.pending.length > MAX_LINE_BYTES + 1) tooLong = true;
    if (lines.length) this.enqueue(() => this.handle(lines));
    if (tooLong) {
      this.discarding = true;
      this.enqueue(async () => {
        this.send(`ERR;${this.device ? this.lastRead + 1 : 0};line too long`);
        this.end();
      });
    }
  }

  private enqueue(task: () => Promise<void>) {
    if (++this.queued >= MAX_QUEUED) this.socket.pause();
    this.tail = this.tail.then(task).then(
      () => this.dequeued(),
      (err) => {
        this.options.log.warn({ err }, 'decoder connection failed');
        this.dequeued();
        this.socket.destroy();
      },
    );
  }

  private dequeued() {
    if (--this.queued < MAX_QUEUED && this.socket.isPaused()) this.socket.resume();
  }

  private async handle(lines: (string | null)[]) {
    const items: Item[] = [];
    for (const raw of lines) {
      if (this.ended) return;
      const line = raw?.trim() ?? null;
      if (line === '') continue;
      if (!this.device) {
        if (!(await this.authenticate(line))) return;
      } else if (line === 'PING') items.push({ pong: true });
      else {
        const n = ++this.lastRead;
        const parsed =
          line === null
            ? ({ ok: false, reason: 'invalid UTF-8' } as const)
            : parseReadLine(line, this.offsetMinutes, this.device.pointKey);
        items.push(parsed.ok ? { n, read: parsed.read } : { n, reason: parsed.reason });
      }
    }
    await this.settle(items);
  }

  private async authenticate(line: string | null): Promise<boolean> {
    const auth = line === null ? ({ ok: false, reason: 'invalid UTF-8' } as const) : parseAuthLine(line);
    if (!auth.ok) return this.refuse(auth.reason);
    let device: Device | null;
    try {
      device = await repo.findDeviceByKeyHash(this.options.database, hashKey(auth.key));
    } catch (err) {
      this.options.log.warn({ err }, 'decoder: device lookup failed');
      return this.refuse('server error, retry');
    }
    if (!device) return this.refuse('unknown device key');
    this.device = device;
    this.offsetMinutes = auth.offsetMinutes;
    clearTimeout(this.authTimer);
    this.onAuthenticated();
    // Any traffic either way (reads, PING/PONG, ACKs) resets the idle timer.
    this.socket.setTimeout(this.options.idleTimeoutMs ?? IDLE_TIMEOUT_MS, () =>
      this.enqueue(async () => {
        if (!this.ended) this.refuse('idle timeout');
      }),
    );
    this.send(`OK;${device.pointKey ?? '*'}`);
    this.options.log.info?.({ deviceId: device.id, remote: this.socket.remoteAddress }, 'decoder connected');
    return true;
  }

  /** Stores a batch's good reads, then answers its lines in order. */
  private async settle(items: Item[]) {
    const good = items.filter((i): i is { n: number; read: DecoderRead } => 'read' in i);
    const stored = good.length === 0 || (await this.store(good.map((i) => i.read)));
    let last = 0;
    for (const item of items) {
      if ('pong' in item) this.send('PONG');
      else {
        last = item.n;
        if ('reason' in item) this.send(`ERR;${item.n};${item.reason}`);
        else if (!stored) this.send(`ERR;${item.n};storage failed`);
      }
    }
    if (last && stored) this.send(`ACK;${last}`);
    if (this.socket.writableNeedDrain)
      await new Promise<void>((resolve) => {
        this.socket.once('drain', resolve);
        void this.closed.then(resolve);
      });
  }

  private async store(reads: DecoderRead[]): Promise<boolean> {
    const device = this.device!;
    try {
      for (let k = 0; k < reads.length; k += MAX_INGEST_BATCH)
        await this.options.service.ingest(device.db, reads.slice(k, k + MAX_INGEST_BATCH), 'decoder', {
          deviceId: device.id,
        });
      return true;
    } catch (err) {
      this.options.log.warn(
        { err, deviceId: device.id, reads: reads.length },
        'decoder: storing reads failed',
      );
      return false;
    }
  }

  private refuse(reason: string): false {
    this.options.log.warn({ remote: this.socket.remoteAddress, reason }, 'decoder refused');
    this.send(`ERR;0;${reason}`);
    this.end();
    return false;
  }

  private send(line: string) {
    if (!this.ended && this.socket.writable) this.socket.write(`${line}\n`);
  }

  /** Ends our side; a peer that never closes its own is cut after LINGER_MS. */
  private end() {
    this.discarding = true;
    this.ended = true;
    // Keep reading (and dropping) so the peer's FIN is seen and the socket closes.
    if (this.socket.isPaused()) this.socket.resume();
    this.socket.end();
    setTimeout(() => this.socket.destroy(), LINGER_MS).unref();
  }

  /** Closes a connection that has not authenticated, to make room (listener's slot policy). */
  evict(reason: string) {
    this.enqueue(async () => {
      if (!this.device && !this.ended) this.refuse(reason);
    });
  }

  /** Lets the batches already received settle and answer, then closes. */
  async shutdown() {
    this.discarding = true;
    clearTimeout(this.authTimer);
    await this.tail;
    if (!this.ended) this.end();
    this.socket.destroySoon();
    await this.closed;
  }
}

function decode(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** Starts the decoder listener (protocol in this module's doc comment). */
export async function startDecoderListener(options: DecoderListenerOptions): Promise<DecoderListener> {
  const max = options.maxConnections ?? MAX_CONNECTIONS;
  const connections = new Set<DecoderConnection>();
  const sockets = new Set<net.Socket>();
  const perAddressMax = options.maxPerAddress ?? MAX_PER_ADDRESS;
  // Strangers (not yet authenticated) may hold the unreserved slots only (issue 13); past that,
  // the oldest stranger makes room for the newcomer, so idle sockets never lock a decoder out.
  const strangersMax = Math.max(1, Math.floor(max * (1 - (options.reservedShare ?? RESERVED_SHARE))));
  const perAddress = new Map<string, number>();
  const strangers = new Set<DecoderConnection>();
  const turnAway = (socket: net.Socket, reason: string) => {
    socket.on('error', () => undefined);
    socket.end(`ERR;0;${reason}\n`);
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
  const evictOldestStranger = () => {
    const oldest = strangers.values().next().value;
    if (!oldest) return false;
    strangers.delete(oldest);
    oldest.evict('too many connections');
    return true;
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    const address = socket.remoteAddress ?? '?';
    if ((perAddress.get(address) ?? 0) >= perAddressMax)
      return turnAway(socket, 'too many connections from this address');
    if (strangers.size >= strangersMax) evictOldestStranger();
    else if (connections.size >= max && !evictOldestStranger())
      return turnAway(socket, 'too many connections');
    perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
    const connection: DecoderConnection = new DecoderConnection(socket, options, () =>
      strangers.delete(connection),
    );
    connections.add(connection);
    strangers.add(connection);
    void connection.closed.then(() => {
      connections.delete(connection);
      strangers.delete(connection);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => options.log.warn({ err }, 'decoder listener error'));
  const { port } = server.address() as net.AddressInfo;
  options.log.info?.({ host: options.host, port }, 'decoder listener started');
  let closing: Promise<void> | undefined;
  return {
    port,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        await Promise.all([...connections].map((c) => c.shutdown()));
        for (const socket of sockets) socket.destroy();
        await closed;
      })();
      return closing;
    },
  };
}
