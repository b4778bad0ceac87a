import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, memoryDatabase } from '../../../test/helpers.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';
import { F } from '../results/report-builder.ts';
import * as repo from '../results/repository.ts';
import { createResultsService, hashKey } from '../results/service.ts';
import { parseAuthLine, parseReadLine } from './decoder-lines.ts';
import { type DecoderListener, type DecoderListenerOptions, startDecoderListener } from './decoder-tcp.ts';

const LIVE1 = '/api/results/demo-city-run/groups/city-10k/reports/LIVE1';
const FINISH_KEY = 'tdk_tcp_finish_mat_123456';
const LOOP_KEY = 'tdk_tcp_any_loop_key_123456';

/** A time as a decoder whose clock runs `offsetMinutes` east of UTC writes it. */
function wiclax(ms: number, offsetMinutes = 0): string {
  const d = new Date(ms + offsetMinutes * 60_000);
  const p = (v: number, n = 2) => String(v).padStart(n, '0');
  return (
    `${p(d.getUTCDate())}-${p(d.getUTCMonth() + 1)}-${d.getUTCFullYear()} ` +
    `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}`
  );
}

/** A decoder on a real socket, reading the server's answers line by line. */
class Decoder {
  private text = '';
  private readonly lines: string[] = [];
  private wake: () => void = () => undefined;
  private isClosed = false;
  readonly closed: Promise<void>;

  private constructor(readonly socket: net.Socket) {
    socket.setEncoding('utf8');
    socket.setNoDelay(true);
    socket.on('data', (chunk: string) => {
      this.text += chunk;
      const parts = this.text.split('\n');
      this.text = parts.pop()!;
      this.lines.push(...parts);
      this.wake();
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.isClosed = true;
        this.wake();
        resolve();
      }),
    );
  }

  static connect(port: number): Promise<Decoder> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new Decoder(socket)));
      socket.once('error', reject);
    });
  }

  send(text: string) {
    this.socket.write(text);
  }

  /** The next answer line (throws once the server closed without one). */
  async next(): Promise<string> {
    while (!this.lines.length) {
      if (this.isClosed) throw new Error('closed');
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
    return this.lines.shift()!;
  }

  /** Answers up to and including the first one that is `last`. */
  async until(last: string): Promise<string[]> {
    const seen: string[] = [];
    for (let line = await this.next(); ; line = await this.next()) {
      seen.push(line);
      if (line === last) return seen;
    }
  }

  close() {
    this.socket.destroy();
  }
}

describe('decoder line parsing', () => {
  it('parses reads with and without milliseconds, in the decoder clock zone', () => {
    expect(parseReadLine('C00101;14-03-2026 09:30:05.123;finish;2;87;0', 0, null)).toEqual({
      ok: true,
      read: { chip: 'C00101', pointKey: 'finish', timeMs: Date.UTC(2026, 2, 14, 9, 30, 5, 123) },
    });
    const plain = parseReadLine('C00101;14-03-2026 09:30:05;5k', 0, null);
    expect(plain.ok && plain.read.timeMs).toBe(Date.UTC(2026, 2, 14, 9, 30, 5));
    const tenth = parseReadLine('C00101;14-03-2026 09:30:05.1;5k', 0, null);
    expect(tenth.ok && tenth.read.timeMs).toBe(Date.UTC(2026, 2, 14, 9, 30, 5, 100));
    // 09:30 at +02:00 is 07:30 UTC; the device's own point wins over the loop.
    const zoned = parseReadLine('C00101;14-03-2026 09:30:05.120;loop-3', 120, 'finish');
    expect(zoned).toEqual({
      ok: true,
      read: { chip: 'C00101', pointKey: 'finish', timeMs: Date.UTC(2026, 2, 14, 7, 30, 5, 120) },
    });
    expect(parseReadLine('C00101;29-02-2028 23:59:59.999;;1', 0, 'start').ok).toBe(true);
  });

  it('refuses impossible dates, missing fields, overlong chips and malformed AUTH', () => {
    const reasons = [
      'C00101;31-02-2026 09:30:05.000;finish',
      'C00101;29-02-2026 09:30:05;finish',
      'C00101;14-13-2026 09:30:05;finish',
      'C00101;14-03-2026 24:00:00;finish',
      'C00101;14-03-2026 09:30:05.1234;finish',
      'C00101;2026-03-14T09:30:05Z;finish',
      'C00101;14-03-2026 09:30:05',
      'C00101;14-03-2026 09:30:05;',
      `${'C'.repeat(65)};14-03-2026 09:30:05;finish`,
      'C 101;14-03-2026 09:30:05;finish',
      'a;14-03-2026 09:30:05;finish;1;2;3;4',
    ].map((line) => parseReadLine(line, 0, null));
    for (const r of reasons) expect(r.ok).toBe(false);
    expect(reasons.map((r) => (r.ok ? '' : r.reason.split(',')[0]))).toEqual([
      'bad time',
      'bad time',
      'bad time',
      'bad time',
      'bad time',
      'bad time',
      'expected 3 to 6 fields: chip',
      'point missing: this device has none',
      'bad chip',
      'bad chip',
      'expected 3 to 6 fields: chip',
    ]);
    expect(parseAuthLine('AUTH;abc;+02:00')).toEqual({ ok: true, key: 'abc', offsetMinutes: 120 });
    expect(parseAuthLine('AUTH;abc;-03:30')).toEqual({ ok: true, key: 'abc', offsetMinutes: -210 });
    expect(parseAuthLine('AUTH;abc')).toEqual({ ok: true, key: 'abc', offsetMinutes: 0 });
    for (const bad of ['AUTH', 'AUTH;', 'auth;abc', 'AUTH;abc;2:00', 'AUTH;abc;+15:00', 'AUTH;a b', 'PING'])
      expect(parseAuthLine(bad).ok).toBe(false);
  });
});

describe('decoder TCP listener on the demo race', () => {
  let app: FastifyInstance;
  let listener: DecoderListener;
  let gun: number;
  const open: Decoder[] = [];

  async function connect(port = listener.port) {
    const decoder = await Decoder.connect(port);
    open.push(decoder);
    return decoder;
  }

  async function decoderPassings(): Promise<number> {
    const rows = await app.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM passings WHERE db = $1 AND source = 'decoder'",
      [DEMO_DB],
    );
    return rows[0]!.n;
  }

  function options(overrides: Partial<DecoderListenerOptions> = {}): DecoderListenerOptions {
    return {
      host: '127.0.0.1',
      port: 0,
      database: app.database,
      service: app.results,
      log: app.log,
      // Every test connection comes from 127.0.0.1 (the per-address limit: decoder-slots.test.ts).
      maxPerAddress: 100,
      ...overrides,
    };
  }

  beforeAll(async () => {
    app = await buildTestApp();
    await repo.insertDevice(app.database, {
      db: DEMO_DB,
      name: 'finish mat',
      keyHash: hashKey(FINISH_KEY),
      pointKey: 'finish',
    });
    await repo.insertDevice(app.database, {
      db: DEMO_DB,
      name: 'roaming box',
      keyHash: hashKey(LOOP_KEY),
      pointKey: null,
    });
    const rows = await app.database.query<{ gun: number }>(
      "SELECT gun_time_ms::float8 AS gun FROM races WHERE id = 'city-10k'",
    );
    gun = rows[0]!.gun;
    listener = await startDecoderListener(options());
  });
  afterAll(async () => {
    for (const d of open) d.close();
    await listener?.close();
    await app?.close();
  });

  it('authenticates a decoder, acknowledges its reads and ranks the runners in LIVE1', async () => {
    const decoder = await connect();
    decoder.send(`AUTH;${FINISH_KEY};+02:00\r\n`);
    expect(await decoder.next()).toBe('OK;finish');
    const reads = [
      ['C00103', 40],
      ['C00101', 35],
      ['C00102', 38],
    ] as const;
    // The clock is at +02:00: local dates, and a loop the device's own point overrides.
    decoder.send(
      reads.map(([chip, min]) => `${chip};${wiclax(gun + min * 60_000, 120)};1;1;90;0\r\n`).join(''),
    );
    expect(await decoder.next()).toBe('ACK;3');
    decoder.send('PING\n');
    expect(await decoder.next()).toBe('PONG');
    const live = (await app.inject(LIVE1)).json() as { rows: unknown[][] };
    expect(live.rows.slice(0, 3).map((r) => [r[F.bib], r[F.rank], r[F.time]])).toEqual([
      ['101', '1', 35 * 60_000],
      ['102', '2', 38 * 60_000],
      ['103', '3', 40 * 60_000],
    ]);
    const stored = await app.database.query<{ point: string; device: string | null }>(
      "SELECT point_key AS point, device_id::text AS device FROM passings WHERE db = $1 AND source = 'decoder'",
      [DEMO_DB],
    );
    expect(stored).toHaveLength(3);
    expect(new Set(stored.map((s) => s.point))).toEqual(new Set(['finish']));
    expect(stored.every((s) => s.device !== null)).toBe(true);
  });

  it('refuses an unknown key and reads without AUTH, and closes the socket', async () => {
    const before = await decoderPassings();
    const stranger = await connect();
    stranger.send('AUTH;tdk_not_a_device_key_000\n');
    expect(await stranger.next()).toBe('ERR;0;unknown device key');
    await stranger.closed;
    const rude = await connect();
    rude.send(`C00110;${wiclax(gun + 41 * 60_000)};finish\n`);
    expect(await rude.next()).toBe('ERR;0;AUTH required');
    await rude.closed;
    expect(await decoderPassings()).toBe(before);
  });

  it('answers a bad line with ERR, acknowledges the whole batch and stores only good reads', async () => {
    const before = await decoderPassings();
    const decoder = await connect();
    decoder.send(`AUTH;${LOOP_KEY}\n`);
    expect(await decoder.next()).toBe('OK;*');
    decoder.send(
      [
        `C00104;${wiclax(gun + 20 * 60_000)};5k`,
        'C00105;31-02-2026 10:00:00.000;5k',
        '',
        `C00106;${wiclax(gun + 21 * 60_000)};5k;1;87;0`,
        `C00107;${wiclax(gun + 22 * 60_000)};`,
        '',
      ].join('\n'),
    );
    const answers = await decoder.until('ACK;4');
    expect(answers.filter((a) => a.startsWith('ERR'))).toEqual([
      'ERR;2;bad time, expected a real dd-mm-yyyy hh:mm:ss.ccc',
      'ERR;4;point missing: this device has none, the loop names it',
    ]);
    expect(await decoderPassings()).toBe(before + 2);
    // The connection stays open: the next read is number 5.
    decoder.send(`C00108;${wiclax(gun + 23 * 60_000)};7k5\n`);
    expect(await decoder.next()).toBe('ACK;5');
    expect(await decoderPassings()).toBe(before + 3);
  });

  it('stores nothing new when a decoder rewinds its memory', async () => {
    const memory = ['C00111', 'C00112', 'C00113']
      .map((chip, k) => `${chip};${wiclax(gun + (30 + k) * 60_000 + 7)};2k5;1;80;0\n`)
      .join('');
    const first = await connect();
    first.send(`AUTH;${LOOP_KEY}\n${memory}`);
    expect(await first.until('ACK;3')).toEqual(['OK;*', 'ACK;3']);
    const after = await decoderPassings();
    // A new connection re-sending the same reads, flagged as a rewind.
    const rewind = await connect();
    rewind.send(`AUTH;${LOOP_KEY}\n${memory.replaceAll(';0\n', ';1\n')}`);
    expect(await rewind.until('ACK;3')).toEqual(['OK;*', 'ACK;3']);
    expect(await decoderPassings()).toBe(after);
  });

  it('reassembles lines split across TCP chunks, the AUTH line included', async () => {
    const before = await decoderPassings();
    const decoder = await connect();
    const text = `AUTH;${FINISH_KEY}\nC00120;${wiclax(gun + 45 * 60_000)};x\nC00121;${wiclax(gun + 46 * 60_000)};x\n`;
    const cuts = [0, 5, 30, 52, 70, text.length];
    for (let k = 1; k < cuts.length; k++) {
      decoder.send(text.slice(cuts[k - 1], cuts[k]));
      await sleep(30);
    }
    // Each chunk completing a line is a batch of its own: ACK;1 then ACK;2, unless TCP merged them.
    const [ok, ...acks] = await decoder.until('ACK;2');
    expect(ok).toBe('OK;finish');
    expect(acks.every((a) => /^ACK;[12]$/.test(a))).toBe(true);
    expect(await decoderPassings()).toBe(before + 2);
  });

  it('closes on a line too long, and on no AUTH in time', async () => {
    const decoder = await connect();
    decoder.send(`AUTH;${FINISH_KEY}\nC00130;${'9'.repeat(600)}\n`);
    expect(await decoder.until('ERR;1;line too long')).toEqual(['OK;finish', 'ERR;1;line too long']);
    await decoder.closed;
    const quick = await startDecoderListener(options({ authTimeoutMs: 50 }));
    try {
      const silent = await connect(quick.port);
      expect(await silent.next()).toBe('ERR;0;no AUTH within time');
      await silent.closed;
    } finally {
      await quick.close();
    }
  });

  it('answers storage failed for every read when storing fails, keeping the connection', async () => {
    // A real results service over a database that is closed: every ingest throws.
    const broken = await memoryDatabase();
    await broken.close();
    const warnings: string[] = [];
    const failing = await startDecoderListener(
      options({
        service: createResultsService({ database: broken, publisher: app.realtime }),
        log: { warn: (_o, message) => warnings.push(message) },
      }),
    );
    try {
      const decoder = await connect(failing.port);
      decoder.send(`AUTH;${FINISH_KEY}\n`);
      expect(await decoder.next()).toBe('OK;finish');
      decoder.send(
        `C00140;${wiclax(gun + 50 * 60_000)};x\nbad\nC00141;${wiclax(gun + 51 * 60_000)};x\nPING\n`,
      );
      expect([
        await decoder.next(),
        await decoder.next(),
        await decoder.next(),
        await decoder.next(),
      ]).toEqual([
        'ERR;1;storage failed',
        'ERR;2;expected 3 to 6 fields: chip, time, loop, lap, battery, rewind',
        'ERR;3;storage failed',
        'PONG',
      ]);
      expect(warnings).toContain('decoder: storing reads failed');
    } finally {
      await failing.close();
    }
  });

  it('refuses connections past its limit with a reason', async () => {
    const small = await startDecoderListener(options({ maxConnections: 1 }));
    try {
      const first = await connect(small.port);
      first.send(`AUTH;${FINISH_KEY}\n`);
      expect(await first.next()).toBe('OK;finish');
      const second = await connect(small.port);
      expect(await second.next()).toBe('ERR;0;too many connections');
      await second.closed;
    } finally {
      await small.close();
    }
  });
});

describe('decoder listener in the app', () => {
  it('opens on DECODER_TCP_PORT when the app listens and closes with it', async () => {
    // A free port: taken, then given back.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const app = await buildTestApp({ DECODER_TCP_PORT: String(port), DECODER_TCP_HOST: '127.0.0.1' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write('AUTH;tdk_unknown_key_000000\n'));
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toBe('ERR;0;unknown device key\n');
    await app.close();
    await expect(
      new Promise((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => resolve('connected'));
        socket.on('error', reject);
      }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});
