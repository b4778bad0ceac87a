/**
 * ChronoTrack connector: Tempora listens, the ChronoTrack client connects and streams reads
 * (`../protocols/chronotrack.ts`). The greeting `<name>~<version>~CTP01` is answered
 * `Tempora~<version>~<settings count>` and the settings (gun times, new locations, push stream, ISO
 * times), then `getlocations`; once the client names its locations, `start` — per location from
 * the read after the last stored one (`start~<location>~<seq>`) when reads of it are stored, so a
 * reconnection resumes instead of replaying the session. Reads are stored in order, those received while storing together; a location maps to a point through the
 * point map. A `guntime` read is kept on the device status (the timekeeper sets the gun in start
 * control); `newlocation` makes us ask for the locations again. Ping every 15 s.
 */
import type net from 'node:net';
import type { IncomingPassing } from '../../results/port.ts';
import { LineFramer, readLines } from '../framing.ts';
import { toIncoming, WALL_CLOCK } from '../ingest.ts';
import {
  CT_PROTOCOL,
  CT_SERVER_NAME,
  CT_SERVER_VERSION,
  CT_SETTINGS,
  parseChronoRead,
  startCommands,
} from '../protocols/chronotrack.ts';
import { saveLocationCursors } from '../repository.ts';
import { DeviceListener } from './listener.ts';
import { OrderedQueue } from './ordered-queue.ts';
import type { Connector, ConnectorDeps } from './types.ts';

const PING_MS = 15_000;

export class ChronoTrackListener implements Connector {
  private readonly listener: DeviceListener;
  /** The last gun time a client sent (UTC ms), for start control. */
  lastGunTimeMs: number | null = null;
  /** Per client location, the sequence number of the last stored read (saved, kept across restarts). */
  private readonly cursors: Record<string, number>;

  constructor(private readonly deps: ConnectorDeps) {
    this.cursors = { ...(deps.config.cursorLocations ?? {}) };
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
    const { config, status, sink, log, database } = this.deps;
    const now = () => this.deps.now?.() ?? Date.now();
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 10_000);
    const framer = new LineFramer(1024);
    let greeted = false;
    let started = false;
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const send = (line: string) => {
      if (!socket.destroyed) socket.write(`${line}\r\n`, 'latin1');
    };
    const ping = setInterval(() => send('ping'), PING_MS);
    void closed.then(() => clearInterval(ping));
    socket.on('error', (err) => log.info({ err, deviceId: config.deviceId }, 'chronotrack connection error'));

    const handle = async (lines: string[]) => {
      const reads: IncomingPassing[] = [];
      const seen = new Map<string, number>();
      for (const line of lines) {
        const f = line.split('~');
        if (!greeted) {
          if (f.length === 3 && f[2] === CT_PROTOCOL) {
            greeted = true;
            // `<name>~<version>~<settings count>`, then the settings, one `key=value` a line.
            send(`${CT_SERVER_NAME}~${CT_SERVER_VERSION}~${CT_SETTINGS.length}`);
            for (const setting of CT_SETTINGS) send(setting);
            send('getlocations');
          } else {
            status.rejected++;
            send(`error~unsupported protocol, expected <name>~<version>~${CT_PROTOCOL}`);
            socket.end();
            return;
          }
          continue;
        }
        if (f[0] === 'ack' && f[1] === 'getlocations') {
          if (!started) for (const command of startCommands(f.slice(2), this.cursors)) send(command);
          started = true;
          continue;
        }
        if (f[0] === 'ack' || f[0] === 'ping') {
          if (f[0] === 'ping') send('ack~ping');
          continue;
        }
        const parsed = parseChronoRead(line, now(), config.clockOffsetMs);
        if (!parsed.ok) {
          status.rejected++;
          continue;
        }
        const r = parsed.read;
        if ((seen.get(r.location) ?? 0) < r.seq) seen.set(r.location, r.seq);
        if (r.kind === 'guntime') this.lastGunTimeMs = r.deviceTimeMs + config.clockOffsetMs;
        else if (r.kind === 'newlocation') send('getlocations');
        else {
          const incoming = toIncoming(config, r, r.location, WALL_CLOCK);
          if (incoming) reads.push(incoming);
          else status.rejected++;
        }
      }
      // No clock query in this protocol: the sink estimates the drift from the reads' times.
      if (reads.length) await sink.store(config, reads, status);
      // Stored: the resume point moves on (a crash before this re-fetches, never loses).
      const moved: Record<string, number> = {};
      for (const [location, seq] of seen)
        if ((this.cursors[location] ?? 0) < seq) moved[location] = this.cursors[location] = seq;
      if (Object.keys(moved).length) await saveLocationCursors(database, config.deviceId, moved);
    };

    // Lines received while earlier ones are stored come together (one store).
    const queue = new OrderedQueue<string>(
      (lines) => handle(lines),
      (err) => {
        log.warn({ err, deviceId: config.deviceId }, 'chronotrack: storing failed, connection closed');
        status.set('error', `storing failed: ${(err as Error).message}`);
        socket.destroy();
      },
    );

    readLines(socket, framer, status, (lines) => queue.push(lines));
    return { closed, drain: () => queue.drained() };
  }
}
