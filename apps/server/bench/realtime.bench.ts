/**
 * Realtime benchmark against product.md "Numbers we hold ourselves to": 10,000 concurrent
 * pusher-js-protocol connections on one node, a passing reaching 99 % of subscribers within
 * 500 ms. Measures, on one node (local adapter): connections held, server heap/RSS per
 * connection, and fan-out latency of one event to every subscriber of one channel (p50/p99 of
 * all deliveries); beside a bare `ws` broadcast loop measured in the same run as the baseline.
 * The load runs in a child process (realtime-load-client.ts) with its own file descriptors.
 * Run: npx tsx apps/server/bench/realtime.bench.ts   (BENCH_REALTIME_CONNECTIONS=… to resize)
 */
import { type ChildProcess, execSync, fork } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import Pusher from 'pusher-js';
import { WebSocketServer } from 'ws';
import { loadConfig } from '../src/config/config.ts';
import { errorsPlugin } from '../src/plugins/errors.ts';
import { realtimePlugin } from '../src/realtime/plugin.ts';
import { encodeMessage } from '../src/realtime/protocol.ts';

/** One line of the report. */
export interface Row {
  readonly case: string;
  readonly value: number;
  readonly unit: string;
  readonly baseline?: number;
  readonly target?: string;
  readonly note?: string;
}

const ROUNDS = 15;

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

function memory(): { heap: number; rss: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const { heapUsed, external, rss } = process.memoryUsage();
  return { heap: heapUsed + external, rss };
}

/** The child process and a way to wait for its next report of a type. */
function loadClient() {
  const child: ChildProcess = fork(new URL('./realtime-load-client.ts', import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  const wait = <T>(type: string) =>
    new Promise<T>((resolve) => {
      const onMessage = (message: { type: string }) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        resolve(message as T);
      };
      child.on('message', onMessage);
    });
  return {
    child,
    wait,
    ask<T>(command: object, type: string) {
      const answer = wait<T>(type);
      child.send(command);
      return answer;
    },
  };
}

/** Publishes ROUNDS events and returns every delivery latency (ms), and each round's p99. */
async function fanOut(
  client: ReturnType<typeof loadClient>,
  expected: number,
  publish: (frameData: string) => Promise<void> | void,
): Promise<{ all: number[]; roundP99: number[] }> {
  const all: number[] = [];
  const roundP99: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await client.ask({ cmd: 'arm', round, expected, timeoutMs: 10_000 }, 'armed');
    const done = client.wait<{ latencies: number[] }>('round');
    await publish(JSON.stringify({ t: performance.timeOrigin + performance.now(), r: round }));
    const { latencies } = await done;
    latencies.sort((a, b) => a - b);
    if (round > 0) all.push(...latencies); // round 0 warms up
    roundP99.push(quantile(latencies, 0.99));
    await new Promise((r) => setTimeout(r, 100));
  }
  return { all: all.sort((a, b) => a - b), roundP99: roundP99.sort((a, b) => a - b) };
}

/** Runs every case and returns the rows (also used by the root bench script). */
export async function runRealtimeBench(): Promise<Row[]> {
  const fdLimit = Number(execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim()) || 1024;
  const wanted = Number(process.env.BENCH_REALTIME_CONNECTIONS ?? 10_000);
  const count = Math.min(wanted, fdLimit - 200);
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    REALTIME_MAX_CONNECTIONS: String(count + 10),
    DATA_DIR: '/tmp',
  });
  const rows: Row[] = [];

  // Realtime node: protocol 7, one channel, `count` subscribers + one pusher-js sanity client.
  const app = Fastify({ logger: false });
  app.decorate('config', config);
  await app.register(errorsPlugin);
  await app.register(realtimePlugin);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const client = loadClient();
  const before = memory();
  const url = `ws://127.0.0.1:${port}/app/${config.REALTIME_KEY}?protocol=7&client=js&version=8.6.0`;
  const held = await client.ask<{ count: number; failed: number; ms: number }>(
    { cmd: 'connect', url, count, channel: 'bench', batch: 250 },
    'connected',
  );
  const after = memory();
  const sanity = new Pusher(config.REALTIME_KEY, {
    cluster: 'eu',
    wsHost: '127.0.0.1',
    wsPort: port,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
  });
  let sanityTicks = 0;
  sanity.subscribe('bench').bind('tick', () => sanityTicks++);
  await new Promise<void>((resolve) => sanity.connection.bind('connected', () => setTimeout(resolve, 200)));
  const realtime = await fanOut(client, held.count, (data) => app.realtime.publish(['bench'], 'tick', data));
  sanity.disconnect();
  await client.ask({ cmd: 'close' }, 'closed');
  await app.close();

  // Baseline: a bare ws server writing the same frame to every socket in a loop.
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
  await new Promise((r) => wss.once('listening', r));
  const basePort = (wss.address() as AddressInfo).port;
  const baseBefore = memory();
  const baseHeld = await client.ask<{ count: number; ms: number }>(
    { cmd: 'connect', url: `ws://127.0.0.1:${basePort}/`, count, batch: 250 },
    'connected',
  );
  const baseAfter = memory();
  const baseline = await fanOut(client, baseHeld.count, (data) => {
    const frame = Buffer.from(encodeMessage('tick', data, 'bench'));
    for (const ws of wss.clients) ws.send(frame, { binary: false });
  });
  await client.ask({ cmd: 'close' }, 'closed');
  wss.close();
  client.child.kill();

  const perConn = (a: { heap: number; rss: number }, b: { heap: number; rss: number }, n: number) => ({
    heap: (b.heap - a.heap) / n / 1024,
    rss: (b.rss - a.rss) / n / 1024,
  });
  const mem = perConn(before, after, held.count);
  const baseMem = perConn(baseBefore, baseAfter, baseHeld.count);
  const note = `fd limit ${fdLimit}; asked ${wanted}`;
  rows.push({
    case: 'connections held (subscribed)',
    value: held.count,
    unit: 'conn',
    baseline: baseHeld.count,
    target: '≥ 10000',
    note,
  });
  rows.push({
    case: 'connect + subscribe, all',
    value: held.ms,
    unit: 'ms',
    baseline: baseHeld.ms,
    note: 'batches of 250',
  });
  const gc = 'gc' in globalThis ? 'after gc' : 'no --expose-gc: upper bound';
  rows.push({
    case: 'heap + external per connection',
    value: mem.heap,
    unit: 'KiB',
    baseline: baseMem.heap,
    note: gc,
  });
  // The baseline reuses memory the first phase freed, so only the realtime RSS is meaningful.
  rows.push({ case: 'RSS per connection', value: mem.rss, unit: 'KiB', note: 'fresh process, first phase' });
  for (const [name, q] of [
    ['p50', 0.5],
    ['p99', 0.99],
    ['max', 1],
  ] as const) {
    rows.push({
      case: `fan-out latency ${name} (${held.count} subscribers)`,
      value: quantile(realtime.all, q),
      unit: 'ms',
      baseline: quantile(baseline.all, q),
      target: name === 'p99' ? '≤ 500' : undefined,
      note: name === 'p50' ? `${ROUNDS - 1} events, all deliveries` : undefined,
    });
  }
  rows.push({
    case: 'time to 99 % of subscribers (median event)',
    value: quantile(realtime.roundP99, 0.5),
    unit: 'ms',
    baseline: quantile(baseline.roundP99, 0.5),
    target: '≤ 500',
  });
  rows.push({
    case: 'pusher-js sanity client ticks',
    value: sanityTicks,
    unit: 'events',
    target: `${ROUNDS}`,
  });
  return rows;
}

function printTable(rows: readonly Row[]): void {
  console.log('| case | value | bare ws baseline | × baseline | target | note |');
  console.log('|---|---:|---:|---:|---|---|');
  for (const r of rows) {
    const ratio = r.baseline ? (r.value / r.baseline).toFixed(2) : '';
    const fmt = (v: number | undefined) =>
      v === undefined ? '' : `${v.toFixed(v >= 100 ? 0 : 2)} ${r.unit}`;
    console.log(
      `| ${r.case} | ${fmt(r.value)} | ${fmt(r.baseline)} | ${ratio} | ${r.target ?? ''} | ${r.note ?? ''} |`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable(await runRealtimeBench());
  process.exit(0);
}
