/**
 * Load worker of the race-day spike (cluster.bench.ts), run as a child process with its own
 * event loop and file descriptors. Two roles, driven over IPC:
 *   - `ws`: many raw `ws` connections speaking Pusher protocol 7 (pusher-js per connection is too
 *     heavy for thousands in one process), each subscribed to a results channel (one of a mix of views), answering the
 *     protocol's pings and reconnecting as pusher-js does when a node closes or dies. One client
 *     in `sampleEvery` parses `passing` events: latency = arrival − the read's time of day (the
 *     driver posts each read with the wall-clock time it sends it).
 *   - `http`: closed-loop readers of report pages and tracking cards through nginx.
 * Not meant to be run alone.
 */
import http from 'node:http';
import { WebSocket } from 'ws';

type Command =
  | {
      cmd: 'ws';
      url: string;
      count: number;
      /** Client i subscribes to channels[i % length] (issue 28: a mix of views). */
      channels: string[];
      batch: number;
      sampleEvery: number;
    }
  | { cmd: 'http'; port: number; readers: number; paths: { kind: string; path: string }[] }
  | { cmd: 'stats'; reset?: boolean }
  | { cmd: 'stop' };

const now = () => performance.timeOrigin + performance.now();
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
const sockets = new Set<WebSocket>();
let connected = 0;
let everConnected = 0;
let frames = 0;
let frameBytes = 0;
let passingEvents = 0;
let patches = 0;
let reloads = 0;
let closes = 0;
let connectFailures = 0;
let reconnects = 0;
let passingLatency = new Histogram();
/** When each client lost its connection (ms epoch), and how long until subscribed again. */
const reconnectMs: number[] = [];
const lostAt: number[] = [];
let lastResubscribedAt = 0;

const PONG = JSON.stringify({ event: 'pusher:pong', data: {} });
const TIME_OF_DAY = /timeOfDay\\":(\d+)/;
/** Occurrences of `needle` in `text`. */
function count(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}

function client(url: string, channel: string, sampled: boolean): Promise<void> {
  let firstDone: (() => void) | null = null;
  const first = new Promise<void>((resolve) => {
    firstDone = resolve;
  });
  let lost = 0;
  const open = () => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    let subscribed = false;
    sockets.add(ws);
    ws.on('error', () => undefined);
    ws.on('message', (raw: Buffer) => {
      frames++;
      frameBytes += raw.length;
      if (!subscribed) {
        if (raw.includes('pusher:connection_established')) {
          ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel } }));
        } else if (raw.includes('pusher_internal:subscription_succeeded')) {
          subscribed = true;
          connected++;
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
      // Frames start with {"event":"<name>": the 10th byte tells the common ones apart cheaply.
      const text = raw.toString();
      if (text.includes('"event":"results"')) {
        // One bundle per change (issue 20): its reads and patches, counted inside.
        const reads = count(text, 'pointKey\\":');
        passingEvents += reads;
        if (reads && sampled) {
          const m = TIME_OF_DAY.exec(text);
          if (m) passingLatency.add(now() - Number(m[1]));
        }
        patches += count(text, 'report\\":');
        reloads += count(text, 'reload\\":true');
      } else if (text.includes('"event":"passing"')) {
        passingEvents++;
        if (sampled) {
          const m = TIME_OF_DAY.exec(text);
          if (m) passingLatency.add(now() - Number(m[1]));
        }
      } else if (text.includes('"event":"report-patch"')) {
        patches++;
        if (text.includes('reload\\":true')) reloads++;
      } else if (raw.includes('"event":"pusher:ping"')) ws.send(PONG);
    });
    ws.on('close', () => {
      sockets.delete(ws);
      if (subscribed) connected--;
      else connectFailures++;
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
  for (let i = 0; i < command.count; i += command.batch) {
    const n = Math.min(command.batch, command.count - i);
    await Promise.all(
      Array.from({ length: n }, (_, k) =>
        client(
          command.url,
          command.channels[(i + k) % command.channels.length]!,
          (i + k) % command.sampleEvery === 0,
        ),
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
    frames,
    frameBytes,
    passingEvents,
    patches,
    reloads,
    closes,
    connectFailures,
    reconnects,
    passingLatency: passingLatency.toJSON(),
    reconnectMs: [...reconnectMs],
    lostAt: [...lostAt],
    lastResubscribedAt,
    reads: Object.fromEntries([...readLatency].map(([k, h]) => [k, h.toJSON()])),
    statuses: { ...statuses },
    httpErrors,
  };
  if (reset) {
    frames = frameBytes = passingEvents = patches = reloads = closes = reconnects = httpErrors = 0;
    connectFailures = 0;
    passingLatency = new Histogram();
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
  else if (command.cmd === 'stats') reply(stats(command.reset ?? false));
  else if (command.cmd === 'stop') {
    stopping = true;
    for (const ws of sockets) ws.terminate();
    reply({ type: 'stopped' });
    setTimeout(() => process.exit(0), 100);
  }
});
process.on('disconnect', () => process.exit(0));
