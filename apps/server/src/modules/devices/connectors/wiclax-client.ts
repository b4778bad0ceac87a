/**
 * Wiclax generic acquisition connector: Tempora connects to the device (which listens) and reads
 * its tag reports (`../protocols/wiclax.ts`). On every connection: CLOCK (drift), STARTREAD, and
 * `REWIND <from> <to>`: on the first connection (nothing stored from this device) over the
 * device's whole memory, so the reads made before Tempora connected come too; later from a minute
 * before the last stored read to now, so the reads made while the connection was down come again
 * (the protocol has no acknowledgement; a read sent twice is one passing). Reads are stored in order,
 * those received while storing together; `*` heartbeats keep the connection alive; CLOCK is
 * asked every 30 s. The connection and its back-off are `ReconnectingClient`'s.
 */
import type { IncomingPassing } from '../../results/port.ts';
import { LineFramer } from '../framing.ts';
import { deviceClockOf, toIncoming, utcOfDeviceClock, WALL_CLOCK } from '../ingest.ts';
import { formatWiclaxDateTime, parseWiclaxLine } from '../protocols/wiclax.ts';
import { lastReadTime } from '../repository.ts';
import { ReconnectingClient } from './reconnecting-client.ts';
import type { Connector, ConnectorDeps } from './types.ts';

const CLOCK_MS = 30_000;
const IDLE_MS = 60_000;
const REWIND_MARGIN_MS = 60_000;
/** The start of a device's memory as REWIND names it (01-01-2000 00:00:00). */
const MEMORY_START_MS = Date.UTC(2000, 0, 1);

export class WiclaxClient implements Connector {
  readonly port = null;
  private readonly client: ReconnectingClient;
  private clock: NodeJS.Timeout | null = null;
  private clockAskedAt = 0;

  constructor(private readonly deps: ConnectorDeps) {
    this.client = new ReconnectingClient(deps, {
      name: 'wiclax',
      host: deps.config.host ?? '127.0.0.1',
      port: deps.config.port ?? 0,
      idleMs: IDLE_MS,
      framer: () => new LineFramer(1024, true),
      eol: '\r',
      onConnect: () => this.greet(),
      onLines: (lines) => this.handle(lines),
      onClose: () => {
        if (this.clock) clearInterval(this.clock);
        this.clock = null;
      },
    });
  }

  private now() {
    return this.deps.now?.() ?? Date.now();
  }

  async start() {
    this.client.start();
  }

  /** On every connection: the clock, STARTREAD, and a REWIND over what the connection may have missed. */
  private greet() {
    const { config, database } = this.deps;
    this.client.task(async () => {
      this.askClock();
      this.send('STARTREAD');
      const last = await lastReadTime(database, config.deviceId);
      // In the device clock (its zone, less its offset). Nothing stored from this device yet: its whole memory (the
      // reads made before Tempora first connected); else from shortly before the last stored
      // read, which covers what the connection may have missed. A read sent again is one passing.
      // The window in the device's clock (its zone and offset).
      const from = last === null ? MEMORY_START_MS : deviceClockOf(last, config) - REWIND_MARGIN_MS;
      const to = deviceClockOf(this.now(), config) + REWIND_MARGIN_MS;
      this.send(`REWIND ${formatWiclaxDateTime(from)} ${formatWiclaxDateTime(to)}`);
    });
    this.clock = setInterval(() => this.askClock(), CLOCK_MS);
  }

  private askClock() {
    this.clockAskedAt = this.now();
    this.send('CLOCK');
  }

  private send(line: string) {
    this.client.send(line);
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
        const incoming = toIncoming(config, m.read, m.read.loop, WALL_CLOCK);
        if (incoming) reads.push(incoming);
        else status.rejected++;
      } else if (m.kind === 'clock') {
        // CLOCK answers to the second: drift finer than that is not measurable here.
        const at = (this.clockAskedAt + this.now()) / 2;
        status.clockDrift(Math.round(utcOfDeviceClock(m.deviceTimeMs, config) - at));
      }
    }
    if (reads.length) await this.deps.sink.store(config, reads, status);
  }

  async stop() {
    await this.client.stop();
  }
}
