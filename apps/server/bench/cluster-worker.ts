/**
 * Load worker of the race-day spike (cluster.bench.ts), run as a child process with its own
 * event loop and file descriptors. Two roles, driven over IPC:
 *   - `ws`: many raw `ws` connections speaking Pusher protocol 7 (pusher-js per connection is too
 *     heavy for thousands in one process), each subscribed to the channel of one view of a mix
 *     (issue 28), answering the protocol's pings and reconnecting as pusher-js does when a node
 *     closes or dies. `raw` workers (the thousands, niced) count bytes and frames per view and
 *     parse nothing; a `full` worker (a few hundred) parses every frame and times passing →
 *     visible per view: a read's time of day is when the driver posted it, and a new leader's bib
 *     (`marker`) is timed from its post to its first appearance on a table or the scroller (the
 *     map: the first `changed` after it).
 *   - `http`: closed-loop readers of report pages and tracking cards through nginx.
 * Not meant to be run alone.
 */
import http from 'node:http';
import { WebSocket } from 'ws';

/** One spectator's view (issue 28): its name in the tables and the channel it subscribes to. */
interface View {
  view: string;
  channel: string;
}

type Command =
  | {
      cmd: 'ws';
      url: string;
      count: number;
      /** Client i subscribes to views[(offset + i) % length] (issue 28: a mix of views). */
      views: View[];
      offset: number;
      batch: number;
      /**
       * `raw`: count bytes and frames only (no JSON parse: the thousands); `full`: parse every
       * frame and time what it shows (the sample).
       */
      mode: 'raw' | 'full';
    }
  | { cmd: 'http'; port: number; readers: number; paths: { kind: string; path: string }[] }
  | { cmd: 'marker'; bib: string; at: number }
  | { cmd: 'stats'; reset?: boolean }
  | { cmd: 'stop' };

const now = () => Date.now();
const reply = (message: object) => process.send?.(message);

/** Latencies in 1 ms buckets up to 60 s (a few hundred KB whatever the count). */
class Histogram {
  buckets = new Uint32Array(60_001);
  count = 0;
  add(ms: number) {
    this.buckets[Math.max(0, Math.min(60_000, Math.round(ms)))]!++;
    this.count++;
  }
  toJSON() {
    const sparse: [number, number][] = [];
    this.buckets.forEach((n, ms) => {
      if (n) sparse.push([ms, n]);
    });
    return sparse;
  }
}

let stopping = false;

// ---- realtime clients ----
interface ViewStats {
  connected: number;
  frames: number;
  bytes: number;
  /** Sum over each second of the clients connected: bytes / clientSeconds = per client per second. */
  clientSeconds: number;
  reloads: number;
  latency: Histogram;
}
const byView = new Map<string, ViewStats>();
const viewStats = (view: string) => {
  let v = byView.get(view);
  if (!v) {
    v = { connected: 0, frames: 0, bytes: 0, clientSeconds: 0, reloads: 0, latency: new Histogram() };
    byView.set(view, v);
  }
  return v;
};
// Client-seconds over the time really elapsed (a niced worker's timer fires late on a busy machine).
let lastTick = now();
setInterval(() => {
  const at = now();
  for (const v of byView.values()) v.clientSeconds += (v.connected * (at - lastTick)) / 1000;
  lastTick = at;
}, 1_000).unref();

const sockets = new Set<WebSocket>();
let connected = 0;
let everConnected = 0;
let closes = 0;
let connectFailures = 0;
let reconnects = 0;
/** When each client lost its connection (ms epoch), and how long until subscribed again. */
const reconnectMs: number[] = [];
const lostAt: number[] = [];
let lastResubscribedAt = 0;
/** New leaders posted by the driver (bib → when posted): the sampled clients time their arrival. */
const markers = new Map<string, number>();

const PONG = JSON.stringify({ event: 'pusher:pong', data: {} });

interface Bundle {
  patches?: { reload?: boolean }[];
  passings?: { timeOfDay: number }[];
}

/** A sampled client: parses every frame, as pusher-js does, and times what its view shows. */
function fullReader(view: string) {
  const seen = new Set<string>();
  const stats = viewStats(view);
  return (text: string) => {
    const frame = JSON.parse(text) as { event: string; data?: string };
    if (frame.event === 'pusher:ping') return PONG;
    const at = now();
    if (frame.event === 'results' && typeof frame.data === 'string') {
      const bundle = JSON.parse(frame.data) as Bundle;
      // A read's time of day is when the driver posted it: arrival − it = passing → visible.
      for (const p of bundle.passings ?? []) stats.latency.add(at - p.timeOfDay);
      for (const p of bundle.patches ?? []) if (p.reload) stats.reloads++;
      // Tables and the scroller show new leaders: time each one's first appearance.
      for (const [bib, postedAt] of markers) {
        if (!seen.has(bib) && frame.data.includes(`"${bib}"`)) {
          seen.add(bib);
          if (!bundle.passings?.length) stats.latency.add(at - postedAt);
        }
      }
    } else if (frame.event === 'changed') {
      // The map refetches on `changed`: the first one after a new leader was posted.
      for (const [bib, postedAt] of markers) {
        if (!seen.has(bib) && postedAt < at) {
          seen.add(bib);
          stats.latency.add(at - postedAt);
        }
      }
    }
    return null;
  };
}

function client(url: string, target: View, full: boolean): Promise<void> {
  let firstDone: (() => void) | null = null;
  const first = new Promise<void>((resolve) => {
    firstDone = resolve;
  });
  let lost = 0;
  const stats = viewStats(target.view);
  const read = full ? fullReader(target.view) : null;
  const open = () => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    let subscribed = false;
    sockets.add(ws);
    ws.on('error', () => undefined);
    ws.on('message', (raw: Buffer) => {
      if (!subscribed) {
        if (raw.includes('pusher:connection_established')) {
          ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel: target.channel } }));
        } else if (raw.includes('pusher_internal:subscription_succeeded')) {
          subscribed = true;
          connected++;
          stats.connected++;
          everConnected++;
          if (lost) {
            const at = now();
            reconnectMs.push(at - lost);
            lastResubscribedAt = at;
            lost = 0;
          }
          firstDone?.();
          firstDone = null;
        }
        return;
      }
      stats.frames++;
      stats.bytes += raw.length;
      if (read) {
        const answer = read(raw.toString());
        if (answer) ws.send(answer);
      } else if (raw.length < 64 && raw.includes('pusher:ping')) ws.send(PONG);
    });
    ws.on('close', () => {
      sockets.delete(ws);
      if (subscribed) {
        connected--;
        stats.connected--;
      } else connectFailures++;
      closes++;
      if (firstDone) {
        // Never subscribed at all: give up on this one (counted), as the bench asked for so many.
        firstDone();
        firstDone = null;
        if (!subscribed) return;
      }
      if (stopping) return;
      if (!lost) {
        lost = now();
        lostAt.push(lost);
      }
      reconnects++;
      // pusher-js: reconnect at once after an abnormal closure, after ~1 s for 4100-4199;
      // a little jitter so thousands of clients do not arrive in the same millisecond.
      setTimeout(open, 200 + Math.random() * 800);
    });
  };
  open();
  return first;
}

async function startClients(command: Extract<Command, { cmd: 'ws' }>) {
  const started = now();
  const { views, offset } = command;
  for (let i = 0; i < command.count; i += command.batch) {
    const n = Math.min(command.batch, command.count - i);
    await Promise.all(
      Array.from({ length: n }, (_, k) =>
        client(command.url, views[(offset + i + k) % views.length]!, command.mode === 'full'),
      ),
    );
  }
  reply({ type: 'ws-ready', connected, failed: command.count - connected, ms: now() - started });
}

// ---- HTTP readers ----
const readLatency = new Map<string, Histogram>();
const statuses: Record<string, number> = {};
let httpErrors = 0;

function get(agent: http.Agent, port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(
      { host: '127.0.0.1', port, path, agent, headers: { 'accept-encoding': 'gzip' }, timeout: 30_000 },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

async function startReaders(command: Extract<Command, { cmd: 'http' }>) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: command.readers });
  reply({ type: 'http-ready' });
  await Promise.all(
    Array.from({ length: command.readers }, async () => {
      while (!stopping) {
        const target = command.paths[Math.floor(Math.random() * command.paths.length)]!;
        const t0 = now();
        const status = await get(agent, command.port, target.path);
        const ms = now() - t0;
        const h = readLatency.get(target.kind) ?? new Histogram();
        readLatency.set(target.kind, h);
        h.add(ms);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status !== 200 && status !== 304) {
          httpErrors++;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    }),
  );
  agent.destroy();
}

function stats(reset: boolean) {
  const out = {
    type: 'stats',
    connected,
    everConnected,
    closes,
    connectFailures,
    reconnects,
    views: Object.fromEntries(
      [...byView].map(([view, v]) => [
        view,
        {
          connected: v.connected,
          frames: v.frames,
          bytes: v.bytes,
          clientSeconds: v.clientSeconds,
          reloads: v.reloads,
          latency: v.latency.toJSON(),
        },
      ]),
    ),
    reconnectMs: [...reconnectMs],
    lostAt: [...lostAt],
    lastResubscribedAt,
    reads: Object.fromEntries([...readLatency].map(([k, h]) => [k, h.toJSON()])),
    statuses: { ...statuses },
    httpErrors,
  };
  if (reset) {
    closes = reconnects = httpErrors = connectFailures = 0;
    for (const v of byView.values()) {
      v.frames = v.bytes = v.clientSeconds = v.reloads = 0;
      v.latency = new Histogram();
    }
    readLatency.clear();
    for (const k of Object.keys(statuses)) delete statuses[k];
    reconnectMs.length = 0;
    lostAt.length = 0;
  }
  return out;
}

process.on('message', (command: Command) => {
  if (command.cmd === 'ws') void startClients(command);
  else if (command.cmd === 'http') void startReaders(command);
  else if (command.cmd === 'marker') markers.set(command.bib, command.at);
  else if (command.cmd === 'stats') reply(stats(command.reset ?? false));
  else if (command.cmd === 'stop') {
    stopping = true;
    for (const ws of sockets) ws.terminate();
    reply({ type: 'stopped' });
    setTimeout(() => process.exit(0), 100);
  }
});
process.on('disconnect', () => process.exit(0));
