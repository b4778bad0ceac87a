import net from 'node:net';
import { listenPortRefusal } from '../network-rules.ts';
import type { ConnectorDeps } from './types.ts';

/** Connections one listening connector accepts at once. */
const MAX_CLIENTS = 16;

/**
 * A TCP listener for protocols where the vendor's software connects to Tempora (MYLAPS,
 * ChronoTrack): one port per device; the device is `connected` while a client is.
 */
export class DeviceListener {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private readonly sessions = new Set<{ closed: Promise<void>; drain(): Promise<void> }>();
  port = 0;

  constructor(
    private readonly deps: ConnectorDeps,
    private readonly session: (socket: net.Socket) => { closed: Promise<void>; drain(): Promise<void> },
  ) {}

  async start() {
    const { config, status, rules } = this.deps;
    // Checked at registration; again here for a device stored before the operator changed the range.
    const refused = config.listenPort === null ? 'no port' : listenPortRefusal(rules, config.listenPort);
    if (refused) {
      status.set('error', `not listening: ${refused}`);
      return;
    }
    const server = net.createServer((socket) => {
      if (this.sockets.size >= MAX_CLIENTS) {
        socket.destroy();
        return;
      }
      this.sockets.add(socket);
      status.set('connected', null, `${socket.remoteAddress}:${socket.remotePort}`);
      const s = this.session(socket);
      this.sessions.add(s);
      socket.once('close', () => {
        this.sockets.delete(socket);
        this.sessions.delete(s);
        if (this.sockets.size === 0 && this.server) status.set('waiting', 'no client connected');
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => {
      server.once('error', (err) => {
        status.set('error', `cannot listen on ${config.listenPort}: ${err.message}`);
        this.server = null;
        resolve();
      });
      server.listen(config.listenPort ?? 0, rules.listenHost, () => {
        this.port = (server.address() as net.AddressInfo).port;
        status.set('waiting', `listening on port ${this.port}`);
        resolve();
      });
    });
  }

  async stop() {
    const server = this.server;
    this.server = null;
    // close() stops accepting but waits for open connections: those end below.
    const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    // Let every session answer what it stored, then close.
    await Promise.all([...this.sessions].map((s) => s.drain()));
    for (const socket of this.sockets) socket.destroy();
    await Promise.all([...this.sessions].map((s) => s.closed));
    await closed;
    this.deps.status.set('disabled');
  }
}
