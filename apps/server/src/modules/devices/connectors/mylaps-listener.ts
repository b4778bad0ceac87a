/**
 * MYLAPS Timing & Scoring connector: Tempora listens, the MYLAPS software connects and pushes
 * (`../protocols/mylaps.ts`). Its hello `<location>@Pong@$` is answered
 * `Tempora@AckPong@Version2.1@$`, which negotiates protocol V2. Frames are handled in order on one chain per connection; a Passing
 * frame is answered `Tempora@AckPassing@<n>@$` only once its reads are stored (a failure leaves
 * it unanswered and closes the connection: MYLAPS re-sends what was not acknowledged). A passing
 * that cannot be read (garbage) is counted and acknowledged with its frame — re-sending it would
 * not make it readable. The frame's location maps to a timing point through the device's point
 * map (else the device's point, else the location as a key).
 */
import type net from 'node:net';
import type { IncomingPassing } from '../../results/port.ts';
import { toIncoming, WALL_CLOCK } from '../ingest.ts';
import { dayMs, timeOfDayMs } from '../protocols/common.ts';
import { mylapsFrame, parseMylapsFrame, parseMylapsPassing, splitMylapsFrames } from '../protocols/mylaps.ts';
import { DeviceListener } from './listener.ts';
import { OrderedQueue } from './ordered-queue.ts';
import type { Connector, ConnectorDeps } from './types.ts';

const US = 'Tempora';
/** The protocol version offered in the answer to the hello (MYLAPS T&S TCP/IP V2 documentation). */
const MYLAPS_VERSION = 'Version2.1';
const MAX_PENDING = 1024 * 1024;
const PING_MS = 15_000;

/** Legacy `Store` passing: `KV8658316:13:57.417 3 0F  1000025030870` (chip, time, …, date YYMMDD, checksum). */
function legacyPassing(text: string): { chip: string; deviceTimeMs: number } | null {
  if (text.length < 30) return null;
  const chip = text.slice(0, 7);
  const tod = timeOfDayMs(text.slice(7, 19));
  const d = /^(\d{2})(\d{2})(\d{2})$/.exec(text.slice(text.length - 8, text.length - 2));
  const day = d ? dayMs(2000 + Number(d[1]), Number(d[2]), Number(d[3])) : null;
  return tod === null || day === null || !/^\w{7}$/.test(chip) ? null : { chip, deviceTimeMs: day + tod };
}

export class MylapsListener implements Connector {
  private readonly listener: DeviceListener;

  constructor(private readonly deps: ConnectorDeps) {
    this.listener = new DeviceListener(deps, (socket) => this.session(socket));
  }

  get port() {
    return this.listener.port;
  }

  start() {
    return this.listener.start();
  }

  stop() {
    return this.listener.stop();
  }

  private session(socket: net.Socket) {
    const { config, status, sink, log } = this.deps;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 10_000);
    let rest = '';
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const send = (...parts: string[]) => {
      if (!socket.destroyed) socket.write(`${mylapsFrame(...parts)}\r\n`, 'latin1');
    };
    const ping = setInterval(() => send(US, 'Ping'), PING_MS);
    void closed.then(() => clearInterval(ping));
    socket.on('error', (err) => log.info({ err, deviceId: config.deviceId }, 'mylaps connection error'));

    // The frames of a step are stored together (one transaction), then each
    // Passing/Store/Marker frame is acknowledged with its number, in order.
    const handle = async (frames: string[]) => {
      const reads: IncomingPassing[] = [];
      const acks: [string, string][] = [];
      for (const text of frames) {
        const parsed = parseMylapsFrame(text);
        if (!parsed.ok) {
          status.rejected++;
          continue;
        }
        const { location, fn, data } = parsed.frame;
        if (fn === 'Ping') send(US, 'AckPing');
        // The hello: answering the version makes Timing & Scoring speak V2 (many passings per
        // frame, several frames in flight); a bare AckPong keeps it on V1.
        else if (fn === 'Pong') send(US, 'AckPong', MYLAPS_VERSION);
        else if (fn === 'AckGetInfo') {
          const bat = /(?:^|\|)bat=([\d.]+)/.exec(data.join('@'));
          if (bat) status.battery = Number(bat[1]);
        } else if (fn === 'Passing' || fn === 'Store' || fn === 'Marker') {
          const n = data.length ? data[data.length - 1]! : '';
          if (fn !== 'Marker') {
            for (const item of data.slice(0, -1)) {
              const read = fn === 'Passing' ? parseMylapsPassing(item) : null;
              const legacy = fn === 'Store' ? legacyPassing(item) : null;
              const vendor = read?.ok ? read.read : legacy ? { ...legacy, pointKey: null } : null;
              const incoming = vendor ? toIncoming(config, vendor, location, WALL_CLOCK) : null;
              if (incoming) reads.push(incoming);
              else status.rejected++;
            }
          }
          if (/^\d+$/.test(n)) acks.push([`Ack${fn}`, n]);
        }
      }
      // No clock query in this protocol: the sink estimates the drift from the reads' times.
      if (reads.length) await sink.store(config, reads, status);
      for (const [fn, n] of acks) send(US, fn, n);
    };

    // The frames of a chunk are stored in order behind the earlier ones: one store, then their acks.
    const queue = new OrderedQueue<string>(
      (frames) => handle(frames),
      (err) => {
        log.warn(
          { err, deviceId: config.deviceId },
          'mylaps: storing failed, connection closed unacknowledged',
        );
        status.set('error', `storing failed: ${(err as Error).message}`);
        socket.destroy();
      },
      // Never joined: each chunk's frames are stored and acknowledged on their own. Joined, the
      // acks of a chunk waited for the later ones' store, and the bench measured it slower
      // (three runs out of three, −15 to −30 %), where the line protocols gained or held.
      1,
    );

    socket.on('data', (chunk: Buffer) => {
      status.seen();
      const { frames, rest: left } = splitMylapsFrames(rest + chunk.toString('latin1'));
      rest = left;
      if (rest.length > MAX_PENDING) {
        status.rejected++;
        socket.destroy(new Error('frame too long'));
        return;
      }
      queue.push(frames);
    });
    return { closed, drain: () => queue.drained() };
  }
}
