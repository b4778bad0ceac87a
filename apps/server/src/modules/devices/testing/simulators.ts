/**
 * Device simulators for tests and benchmarks, written from the vendors' public protocol notes
 * (see ../protocols/*.ts): each plays the device's side over a real socket. They can drop the
 * connection in the middle of a burst, run a skewed clock and send garbage.
 */
import net from 'node:net';

const p2 = (n: number) => String(n).padStart(2, '0');
const p3 = (n: number) => String(n).padStart(3, '0');
function parts(ms: number) {
  const d = new Date(ms);
  return {
    date: `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`,
    time: `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.${p3(d.getUTCMilliseconds())}`,
    dmy: `${p2(d.getUTCDate())}-${p2(d.getUTCMonth() + 1)}-${d.getUTCFullYear()}`,
    yymmdd: `${String(d.getUTCFullYear()).slice(2)}${p2(d.getUTCMonth() + 1)}${p2(d.getUTCDate())}`,
  };
}

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as net.AddressInfo).port;
}

function lines(socket: net.Socket, sep: RegExp, onLine: (line: string) => void) {
  let rest = '';
  socket.on('data', (chunk: Buffer) => {
    const all = (rest + chunk.toString('latin1')).split(sep);
    rest = all.pop() ?? '';
    for (const l of all) if (l) onLine(l);
  });
}

/**
 * A RaceResult decoder: listens (as on TCP 3601), keeps a passing file, answers GETPROTOCOL,
 * SETPROTOCOL, GETSTATUS, PASSINGS, `<from>:<count>` and SETPUSHPASSINGS, and pushes `#P;…`.
 */
export class RaceResultDecoderSim {
  readonly records: string[] = [];
  file = 17;
  /** Added to the real clock: the decoder's clock runs this far ahead. */
  skewMs = 0;
  battery = 87;
  private server = net.createServer((s) => this.accept(s));
  private socket: net.Socket | null = null;
  private push = false;
  /** Destroys the connection after this many more passing records are written (mid-burst). */
  dropAfterRecords: number | null = null;
  commands: string[] = [];
  port = 0;

  async start() {
    this.port = await listen(this.server);
    return this;
  }

  private accept(socket: net.Socket) {
    this.socket?.destroy();
    this.socket = socket;
    this.push = false;
    socket.on('error', () => undefined);
    lines(socket, /\r\n/, (l) => this.command(socket, l));
  }

  private write(socket: net.Socket, line: string, isRecord = false) {
    if (socket.destroyed) return;
    socket.write(`${line}\r\n`, 'latin1');
    if (isRecord && this.dropAfterRecords !== null && --this.dropAfterRecords <= 0) {
      this.dropAfterRecords = null;
      socket.destroy();
    }
  }

  private command(socket: net.Socket, line: string) {
    this.commands.push(line);
    const f = line.split(';');
    if (f[0] === 'GETPROTOCOL') this.write(socket, 'GETPROTOCOL;1.0;3.2;3.2');
    else if (f[0] === 'SETPROTOCOL') this.write(socket, `SETPROTOCOL;${f[1]}`);
    else if (f[0] === 'GETSTATUS') {
      const t = parts(Date.now() + this.skewMs);
      const fields = [t.date, t.time, '1', '1', '1', '0', '0', '0', '1', String(this.battery)];
      while (fields.length < 25) fields.push('0');
      this.write(socket, `GETSTATUS;${fields.join(';')}`);
    } else if (f[0] === 'PASSINGS') this.write(socket, `PASSINGS;${this.records.length};${this.file}`);
    else if (f[0] === 'SETPUSHPASSINGS') {
      this.push = f[1] === '1';
      this.write(socket, line);
    } else if (/^\d+:\d+$/.test(line)) {
      const [from, count] = line.split(':').map(Number) as [number, number];
      const slice = this.records.slice(from - 1, from - 1 + count);
      if (slice.length < count) this.write(socket, `ONLY ${slice.length}`);
      for (const r of slice) this.write(socket, r, true);
      this.write(socket, '');
    } else this.write(socket, `${f[0]};ERROR`);
  }

  /** A transponder read at `timeMs` (real time; the decoder stamps it with its skewed clock). */
  add(chip: string, timeMs: number, loop = '1') {
    const no = this.records.length + 1;
    const t = parts(timeMs + this.skewMs);
    const record = [
      no,
      chip,
      t.date,
      t.time,
      '0',
      '12',
      '1F',
      '',
      '0',
      '1',
      loop,
      '0',
      '',
      '',
      '',
      '',
      'Sim',
      this.file,
      '',
      'D-5000',
    ].join(';');
    this.records.push(record);
    if (this.push && this.socket && !this.socket.destroyed) this.write(this.socket, `#P;${record}`, true);
  }

  /** Raw bytes to the connected client (garbage tests). */
  raw(text: string) {
    this.socket?.write(text, 'latin1');
  }

  async stop() {
    this.socket?.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A Wiclax device: listens, sends tag reports, answers CLOCK, STARTREAD and REWIND. */
export class WiclaxDeviceSim {
  readonly reads: { chip: string; ms: number; loop: string }[] = [];
  skewMs = 0;
  private server = net.createServer((s) => this.accept(s));
  private socket: net.Socket | null = null;
  commands: string[] = [];
  port = 0;

  async start() {
    this.port = await listen(this.server);
    return this;
  }

  private accept(socket: net.Socket) {
    this.socket?.destroy();
    this.socket = socket;
    socket.on('error', () => undefined);
    lines(socket, /\r\n|\r|\n/, (l) => this.command(socket, l));
  }

  private line(r: { chip: string; ms: number; loop: string }, rewind: boolean) {
    const t = parts(r.ms + this.skewMs);
    return `${r.chip};${t.dmy} ${t.time};${r.loop};;65;${rewind ? 1 : 0}\r`;
  }

  private command(socket: net.Socket, line: string) {
    this.commands.push(line);
    if (line === 'CLOCK') {
      const t = parts(Date.now() + this.skewMs);
      socket.write(`CLOCK ${t.dmy} ${t.time.slice(0, 8)}\r`);
    } else if (line === 'STARTREAD' || line === 'STOPREAD') socket.write('READOK\r');
    else if (line.startsWith('REWIND ')) {
      const m =
        /^REWIND (\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2}):(\d{2}) (\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2}):(\d{2})$/.exec(
          line,
        );
      if (!m) return;
      const n = m.slice(1).map(Number);
      const from = Date.UTC(n[2]!, n[1]! - 1, n[0]!, n[3]!, n[4]!, n[5]!);
      const to = Date.UTC(n[8]!, n[7]! - 1, n[6]!, n[9]!, n[10]!, n[11]!);
      for (const r of this.reads) {
        const device = r.ms + this.skewMs;
        if (device >= from && device <= to + 999) socket.write(this.line(r, true));
      }
    }
  }

  /** A read; sent live when connected (`live` false: kept in memory only, as while cut off). */
  read(chip: string, ms: number, loop = '', live = true) {
    const r = { chip, ms, loop };
    this.reads.push(r);
    if (live && this.socket && !this.socket.destroyed) this.socket.write(this.line(r, false));
  }

  raw(text: string) {
    this.socket?.write(text, 'latin1');
  }

  drop() {
    this.socket?.destroy();
  }

  async stop() {
    this.socket?.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * MYLAPS Timing & Scoring software: connects to Tempora and pushes Passing frames numbered
 * 1, 2, …; a frame stays pending until its AckPassing, and pending frames are sent again after
 * a reconnection.
 */
export class MylapsSim {
  private socket: net.Socket | null = null;
  private next = 1;
  readonly pending = new Map<number, string>();
  readonly acked: number[] = [];
  received: string[] = [];
  private waiters: (() => void)[] = [];

  constructor(
    private readonly port: number,
    readonly location = 'Finish',
  ) {}

  async connect() {
    const socket = net.connect({ port: this.port, host: '127.0.0.1' });
    this.socket = socket;
    socket.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('error', reject);
    });
    let rest = '';
    socket.on('data', (chunk: Buffer) => {
      const all = (rest + chunk.toString('latin1')).split('$');
      rest = all.pop() ?? '';
      for (const f of all) {
        const frame = f.replace(/^[\r\n]+/, '');
        this.received.push(frame);
        const [, fn, n] = frame.split('@');
        if (fn === 'AckPassing' && n) {
          this.pending.delete(Number(n));
          this.acked.push(Number(n));
        }
      }
      for (const w of this.waiters.splice(0)) w();
    });
    for (const frame of this.pending.values()) socket.write(frame);
    return this;
  }

  /** Sends one Passing frame of these reads; returns its number. */
  passing(reads: { chip: string; ms: number }[], dropMidFrame = false): number {
    const n = this.next++;
    const items = reads.map((r) => {
      const t = parts(r.ms);
      return `t=${t.time}|c=${r.chip}|ct=UH|d=${t.yymmdd}|l=1|dv=1|re=0|an=00000001|g=0|b=0|n=0`;
    });
    const frame = `${this.location}@Passing@${items.join('@')}@${n}@$\r\n`;
    this.pending.set(n, frame);
    if (dropMidFrame) {
      this.socket?.write(frame.slice(0, Math.floor(frame.length / 2)));
      this.socket?.destroy();
    } else this.socket?.write(frame);
    return n;
  }

  send(text: string) {
    this.socket?.write(text);
  }

  /** Resolves once no frame is pending (or after `ms`). */
  async settled(ms = 5_000) {
    const until = Date.now() + ms;
    while (this.pending.size && Date.now() < until)
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
  }

  drop() {
    this.socket?.destroy();
  }

  close() {
    this.socket?.end();
  }
}

/**
 * A ChronoTrack client (SimpleClient): greets with CTP01, answers getlocations, and once told
 * `start` streams all its reads from the first, or told `start~<location>~<seq>` from that one.
 */
export class ChronoTrackSim {
  private socket: net.Socket | null = null;
  readonly reads: { chip: string; ms: number }[] = [];
  received: string[] = [];
  started = false;
  /** Reads streamed in this connection (from its `start`). */
  sessionLines = 0;

  constructor(
    private readonly port: number,
    readonly location = 'FINISH',
  ) {}

  line(k: number) {
    const r = this.reads[k]!;
    const d = new Date(r.ms).toISOString().replace('Z', '').slice(0, 22);
    return `CT01_33~${k + 1}~${this.location}~${r.chip}~${d}~1~ED932A~1\r\n`;
  }

  async connect() {
    const socket = net.connect({ port: this.port, host: '127.0.0.1' });
    this.socket = socket;
    this.started = false;
    socket.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('error', reject);
    });
    lines(socket, /\r\n/, (l) => {
      this.received.push(l);
      if (l === 'getlocations') socket.write(`ack~getlocations~${this.location}\r\n`);
      // `start` streams the whole session; `start~<loc>[~<seq>]` that location from that read.
      const start = /^start(?:~([^~]+)(?:~(\d+))?)?$/.exec(l);
      if (start) {
        if (start[1] !== undefined && start[1] !== this.location) return;
        this.started = true;
        const from = start[2] === undefined ? 1 : Number(start[2]);
        this.sessionLines = 0;
        for (let k = from - 1; k < this.reads.length; k++) {
          socket.write(this.line(k));
          this.sessionLines++;
        }
      }
    });
    socket.write('SimpleClient~0.6.0~CTP01\r\n');
    return this;
  }

  read(chip: string, ms: number) {
    this.reads.push({ chip, ms });
    if (this.started && this.socket && !this.socket.destroyed) {
      this.socket.write(this.line(this.reads.length - 1));
      this.sessionLines++;
    }
  }

  send(text: string) {
    this.socket?.write(text);
  }

  drop() {
    this.socket?.destroy();
  }
}
