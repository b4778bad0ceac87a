/**
 * RaceResult decoder connector: Tempora connects to the decoder (TCP 3601) and speaks the
 * decoder protocol (`../protocols/raceresult.ts`). On every connection: GETPROTOCOL,
 * SETPROTOCOL;3.2, GETSTATUS (clock → drift, battery), STARTOPERATION when asked, then PASSINGS
 * (count and file). Passings are fetched by number from the one after the last stored one
 * (`<from>:<count>`, 250 at a time); once caught up, push mode (SETPUSHPASSINGS;1;0) delivers
 * new ones as `#P;…`. A pushed passing that does not follow the last stored number (a gap) makes
 * it fetch again. The resume point (file, passing number) is saved only after the reads are
 * stored, so a crash or a dropped connection re-fetches rather than loses; a re-fetched read is
 * the same passing (chip@point@time).
 */
import type { IncomingPassing } from '../../results/port.ts';
import { LineFramer } from '../framing.ts';
import { toIncoming, utcOfDeviceClock, WALL_CLOCK } from '../ingest.ts';
import { parseRrPassing, parseRrStatus, RR_PORT, RR_PROTOCOL } from '../protocols/raceresult.ts';
import { saveCursor } from '../repository.ts';
import { ReconnectingClient } from './reconnecting-client.ts';
import type { Connector, ConnectorDeps } from './types.ts';

const FETCH = 250;
const POLL_MS = 5_000;
const IDLE_MS = 20_000;

export class RaceResultClient implements Connector {
  readonly port = null;
  private readonly client: ReconnectingClient;
  private poll: NodeJS.Timeout | null = null;
  private file: number | null;
  private cursor: number;
  private fetching: { records: string[][] } | null = null;
  private pushing = false;
  private pushed: IncomingPassing[] = [];
  private pushedUpTo = 0;
  private statusAskedAt = 0;

  constructor(private readonly deps: ConnectorDeps) {
    this.file = deps.config.cursorFile;
    this.cursor = deps.config.cursorPassing;
    this.client = new ReconnectingClient(deps, {
      name: 'raceresult',
      host: deps.config.host ?? '127.0.0.1',
      port: deps.config.port ?? RR_PORT,
      idleMs: IDLE_MS,
      framer: () => new LineFramer(4096, false, true),
      eol: '\r\n',
      onConnect: () => this.greet(),
      onLines: (lines) => this.handle(lines),
      onClose: () => {
        if (this.poll) clearInterval(this.poll);
        this.poll = null;
      },
    });
  }

  private now() {
    return this.deps.now?.() ?? Date.now();
  }

  async start() {
    this.client.start();
  }

  /** On every connection: protocol, clock and battery, the passing count (which starts the fetch). */
  private greet() {
    this.fetching = null;
    this.pushing = false;
    this.send('GETPROTOCOL');
    this.send(`SETPROTOCOL;${RR_PROTOCOL}`);
    this.askStatus();
    this.send('PASSINGS');
    this.poll = setInterval(() => {
      this.askStatus();
      if (!this.fetching) this.send('PASSINGS');
    }, POLL_MS);
  }

  private askStatus() {
    this.statusAskedAt = this.now();
    this.send('GETSTATUS');
  }

  private send(line: string) {
    this.client.send(line);
  }

  private async handle(lines: string[]) {
    for (const line of lines) {
      // An empty line closes a fetched block.
      if (line === '') {
        if (this.fetching) await this.endFetch();
      } else await this.line(line);
    }
    if (this.pushed.length) await this.flushPushed();
  }

  private async line(line: string) {
    const fields = line.split(';');
    const head = fields[0]!;
    const { status, config } = this.deps;
    if (/^\d+$/.test(head) && this.fetching) {
      this.fetching.records.push(fields);
      return;
    }
    if (head === '#P') {
      const parsed = parseRrPassing(fields.slice(1), this.now(), config.clockOffsetMs);
      if (!parsed.ok) {
        status.rejected++;
        return;
      }
      const p = parsed.passing;
      if (p.battery !== undefined) status.battery = p.battery;
      if (!this.pushing || this.fetching) return; // fetched again anyway
      if (p.passingNo !== this.cursor + this.pushed.length + 1) {
        // A gap (or a repeat): fetch from the last stored number instead.
        this.send('PASSINGS');
        return;
      }
      const incoming = toIncoming(config, p, p.loopId, WALL_CLOCK);
      if (!incoming) status.rejected++;
      this.pushed.push(incoming ?? { chip: '', pointKey: '', timeMs: 0 });
      this.pushedUpTo = p.passingNo;
      return;
    }
    if (head === 'GETSTATUS') {
      const s = parseRrStatus(fields.slice(1));
      if (s.deviceTimeMs !== null) {
        // Half the round trip is the best guess of when the decoder read its clock.
        const at = (this.statusAskedAt + this.now()) / 2;
        status.clockDrift(Math.round(utcOfDeviceClock(s.deviceTimeMs, config) - at));
      }
      if (s.battery !== null) status.battery = s.battery;
      return;
    }
    if (head === 'PASSINGS') {
      const count = Number(fields[1]);
      const file = fields[2] !== undefined && fields[2] !== '' ? Number(fields[2]) : null;
      if (!Number.isFinite(count)) return;
      if (file !== this.file) {
        // A new passing file (timing mode restarted): its numbers start again at 1.
        this.file = file;
        this.cursor = 0;
        await saveCursor(this.deps.database, config.deviceId, this.file, 0);
      }
      if (count > this.cursor && !this.fetching) this.fetch(count);
      else if (count <= this.cursor && !this.pushing) {
        this.pushing = true;
        this.send('SETPUSHPASSINGS;1;0');
      }
      return;
    }
    if (head.startsWith('ONLY ')) return;
    // GETPROTOCOL, SETPROTOCOL, SETPUSHPASSINGS, STARTOPERATION answers: nothing to do.
  }

  private fetch(count: number) {
    this.pushing = false;
    this.fetching = { records: [] };
    this.send(`${this.cursor + 1}:${Math.min(FETCH, count - this.cursor)}`);
  }

  /** A fetched block is complete: store its reads in order, then save the resume point. */
  private async endFetch() {
    const block = this.fetching!;
    this.fetching = null;
    const { config, status } = this.deps;
    const reads: IncomingPassing[] = [];
    let last = this.cursor;
    for (const fields of block.records) {
      const parsed = parseRrPassing(fields, this.now(), config.clockOffsetMs);
      if (!parsed.ok) {
        status.rejected++;
        continue;
      }
      const p = parsed.passing;
      if (p.passingNo !== last + 1) break; // out of order: the rest is fetched again
      last = p.passingNo;
      if (p.battery !== undefined) status.battery = p.battery;
      const incoming = toIncoming(config, p, p.loopId, WALL_CLOCK);
      if (incoming) reads.push(incoming);
      else status.rejected++;
    }
    if (reads.length) await this.deps.sink.store(config, reads, status);
    if (last > this.cursor) {
      this.cursor = last;
      await saveCursor(this.deps.database, config.deviceId, this.file, last);
    }
    this.send('PASSINGS');
  }

  private async flushPushed() {
    const { config, status } = this.deps;
    const reads = this.pushed.filter((r) => r.pointKey !== '');
    const upTo = this.pushedUpTo;
    this.pushed = [];
    if (reads.length) await this.deps.sink.store(config, reads, status);
    this.cursor = upTo;
    await saveCursor(this.deps.database, config.deviceId, this.file, upTo);
  }

  async stop() {
    await this.client.stop();
  }
}
