/**
 * What a spectator's phone receives (issue 28): reads posted at ~50/s over HTTP to the demo's
 * 2,400-runner marathon, mid-race, while two WebSocket clients are open — one on the overall
 * table (LIVE1), one on the tracking card of a runner who gets no read. Measured twice in the same
 * run on the same stream of reads: `before`, both clients on the context's one channel
 * `results-{db}` (what every client did before issue 28), and `after`, each on its view's channel
 * (`liveChannels.reportTop` for a table at its top, `liveChannels.runner` for a card). Bytes are
 * the WebSocket frames' payloads as received; the table client keeps its table as the web client
 * does (patches applied, a fresh fetch on a gap), and the latency is from posting a read to its
 * row's patch reaching the table client, for the rows the client shows (the first 50). A third
 * run, `scrolled`, has the table client scrolled to rank ~1000 (rows 1000–1012 on a phone): it
 * holds the rank window covering them (`liveChannels.reportWindow`, `-w33`), keeps that window
 * live from its patches and fetches it alone by `offset`/`limit` on a gap (issue 28).
 * Run: npm run bench -- spectator-bytes   (BENCH_SPECTATOR_S=… seconds per mode, default 20;
 * BENCH_SPECTATOR_RATE=… reads per second, default 50)
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  applyReportPatch,
  applyWindowPatch,
  liveChannels,
  mergeWindow,
  type ReportPatch,
  type ReportTable,
  TOP_WINDOW_ROWS,
  unbundleResults,
  windowsCovering,
} from '@tempora/contracts';
import WebSocket from 'ws';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';
import * as repo from '../src/modules/results/repository.ts';
import { hashKey } from '../src/modules/results/service.ts';
import { DEMO_MARATHON, demoReads } from '../src/seed/demo-field.ts';
import { printTable, quantile } from './bench-setup.ts';

const SECONDS = Number(process.env.BENCH_SPECTATOR_S ?? 20);
const RATE = Number(process.env.BENCH_SPECTATOR_RATE ?? 50);
/** Reads go in batches, as a decoder's connector flushes them. */
const BATCHES_PER_S = 5;
const DB = DEMO_MARATHON.db;
const GROUP = DEMO_MARATHON.raceId;
const REPORT = 'LIVE1';
const KEY = 'tdk_spectator_bytes_bench_01';

const config = loadConfig({
  PUBLIC_URL: 'http://localhost:8080',
  REALTIME_SECRET: 'bench-only-realtime-secret',
  ...process.env,
  DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'tempora-bench-')),
  LOG_LEVEL: 'silent',
  SEED_DEMO: 'true',
  DEMO_REPLAY: 'false',
  SEED_BOSTON: 'false',
});
const app = await buildApp(config, { logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as AddressInfo).port;
await repo.insertDevice(app.database, { db: DB, name: 'bench', keyHash: hashKey(KEY), pointKey: null });
const gun = (
  await app.database.query<{ gun: number }>('SELECT gun_time_ms::float8 AS gun FROM races WHERE id = $1', [
    GROUP,
  ])
)[0]!.gun;

// Mid-race: every runner on course, the leaders past half-way.
const all = demoReads(DEMO_MARATHON);
const perMode = SECONDS * RATE;
const from = Math.floor(all.length * 0.3);
const slices = [0, 1, 2].map((m) => all.slice(from + m * perMode, from + (m + 1) * perMode));
/** The scrolled table's screen: ranks 1000–1012 (a phone's dozen rows), in rank window 33. */
const SCROLLED = [999, 1011] as const;
const [SCROLLED_WINDOW] = windowsCovering(...SCROLLED);
const SCROLLED_FROM = SCROLLED_WINDOW! * TOP_WINDOW_ROWS;
const bibOf = (chip: string) => String(Number(chip.slice(1)));
const read = new Set(slices.flat().map((r) => bibOf(r.chip)));
let idleBib = '';
for (let bib = DEMO_MARATHON.firstBib; !idleBib; bib++) if (!read.has(String(bib))) idleBib = String(bib);

interface Client {
  bytes: number;
  frames: number;
  close(): void;
  onEvent?: (event: string, data: string) => void;
}

async function subscribe(channel: string): Promise<Client> {
  const ws = new WebSocket(
    `ws://127.0.0.1:${port}/app/${config.REALTIME_KEY}?protocol=7&client=js&version=8.6.0`,
  );
  const client: Client = { bytes: 0, frames: 0, close: () => ws.close() };
  let subscribed: () => void;
  const ready = new Promise<void>((resolve) => {
    subscribed = resolve;
  });
  let counting = false;
  ws.on('message', (raw: Buffer) => {
    const text = raw.toString();
    const message = JSON.parse(text) as { event: string; channel?: string; data?: string };
    if (message.event === 'pusher:connection_established')
      ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel } }));
    else if (message.event === 'pusher_internal:subscription_succeeded') {
      counting = true;
      subscribed();
    } else if (counting) {
      client.bytes += raw.length;
      client.frames++;
      client.onEvent?.(message.event, message.data ?? '');
    }
  });
  await ready;
  return client;
}

async function fetchTable(page = ''): Promise<ReportTable> {
  const res = await app.inject(`/api/results/contexts/${DB}/reports/${REPORT}?fresh=1${page}`);
  return res.json() as ReportTable;
}

/** The rows a client shows: the top window, or the scrolled table's window. */
const shownRows = (mode: string, rows: unknown[][]) =>
  mode === 'scrolled'
    ? rows.slice(SCROLLED_FROM, SCROLLED_FROM + TOP_WINDOW_ROWS)
    : rows.slice(0, TOP_WINDOW_ROWS);

async function run(mode: 'before' | 'after' | 'scrolled', reads: typeof all) {
  const tableChannel =
    mode === 'before'
      ? liveChannels.all(DB)
      : liveChannels.reportWindow(DB, GROUP, REPORT, mode === 'scrolled' ? SCROLLED_WINDOW! : 0);
  const cardChannel = mode === 'before' ? liveChannels.all(DB) : liveChannels.runner(DB, idleBib);
  const table = await subscribe(tableChannel);
  const card = await subscribe(cardChannel);
  let held = await fetchTable();
  // The version the client holds its window at (the web client's per-window versions).
  let windowAt = held.version;
  let refetches = 0;
  const postedAt = new Map<string, number>();
  const latencies: number[] = [];
  table.onEvent = (event, data) => {
    if (event !== 'results') return;
    const now = performance.now();
    for (const [name, value] of unbundleResults(JSON.parse(data))) {
      if (name !== 'report-patch') continue;
      const patch = value as ReportPatch;
      if (patch.report !== REPORT || patch.group !== GROUP) continue;
      if (!('reload' in patch) && patch.version <= (mode === 'before' ? held.version : windowAt)) continue;
      const next =
        mode === 'before' ? applyReportPatch(held, patch) : applyWindowPatch(held, patch, windowAt);
      if (!next) {
        refetches++;
        // A window's catch-up fetches its rows only (`offset`/`limit`), the firehose the table.
        if (mode === 'scrolled')
          void fetchTable(`&offset=${SCROLLED_FROM}&limit=${TOP_WINDOW_ROWS}`).then((page) => {
            if (page.version <= windowAt) return;
            held = { ...mergeWindow(held, SCROLLED_FROM, TOP_WINDOW_ROWS, page.rows), version: page.version };
            windowAt = page.version;
          });
        else
          void fetchTable().then((t) => {
            if (t.version > held.version) {
              held = t;
              windowAt = t.version;
            }
          });
        continue;
      }
      held = next;
      if (!('reload' in patch)) windowAt = patch.version;
      // The rows the client shows: the latency of the reads that changed them.
      const shown = new Set(shownRows(mode, held.rows).map((r) => String(r[held.keyField])));
      const keys = [
        ...('upserts' in patch ? patch.upserts.map((r) => String(r[held.keyField])) : []),
        ...('edits' in patch ? (patch.edits ?? []).map((e) => String(e[0])) : []),
      ];
      for (const key of keys) {
        const at = postedAt.get(key);
        if (at !== undefined && shown.has(key)) {
          latencies.push(now - at);
          postedAt.delete(key);
        }
      }
    }
  };
  const batch = Math.max(1, Math.round(RATE / BATCHES_PER_S));
  const started = performance.now();
  for (let k = 0; k < reads.length; k += batch) {
    const due = started + (k / RATE) * 1000;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const part = reads.slice(k, k + batch);
    const at = performance.now();
    for (const r of part) postedAt.set(bibOf(r.chip), at);
    const res = await app.inject({
      method: 'POST',
      url: '/api/ingest/passings',
      headers: { 'x-device-key': KEY, 'content-type': 'application/json' },
      payload: JSON.stringify({
        passings: part.map((r) => ({ id: r.id, chip: r.chip, point: r.pointKey, time: gun + r.offsetMs })),
      }),
    });
    if (res.statusCode >= 300)
      throw new Error(`ingest answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
  }
  await app.results.settle(DB);
  await new Promise((r) => setTimeout(r, 500));
  const seconds = (performance.now() - started) / 1000;
  table.close();
  card.close();
  const sorted = latencies.sort((a, b) => a - b);
  // The table as kept live against the server's: its shown rows must be the same.
  const server = await fetchTable();
  const same = JSON.stringify(shownRows(mode, server.rows)) === JSON.stringify(shownRows(mode, held.rows));
  return {
    mode,
    readsPerS: reads.length / seconds,
    table: { kibPerS: table.bytes / 1024 / seconds, framesPerS: table.frames / seconds },
    card: { kibPerS: card.bytes / 1024 / seconds, framesPerS: card.frames / seconds },
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: sorted.at(-1) ?? Number.NaN,
    rows: sorted.length,
    refetches,
    same,
  };
}

const results = [
  await run('before', slices[0]!),
  await run('after', slices[1]!),
  await run('scrolled', slices[2]!),
];
await app.close();

console.log(
  `${DEMO_MARATHON.runners} runners, ${SECONDS} s per mode, reads posted in ${BATCHES_PER_S} batches a second; idle card: bib ${idleBib}\n`,
);
printTable(
  [
    'channels',
    'reads/s',
    'overall table KiB/s',
    'frames/s',
    'idle card KiB/s',
    'frames/s',
    'shown row latency p50 / p99 / max (ms)',
    'rows timed',
    'refetches',
    'shown rows as the server',
  ],
  results.map((r) => [
    r.mode === 'before'
      ? 'before: results-{db}'
      : r.mode === 'after'
        ? 'after: views (…-top, …-runner-{bib})'
        : `scrolled to rank ~1000 (…-w${SCROLLED_WINDOW}, …-runner-{bib})`,
    r.readsPerS.toFixed(1),
    r.table.kibPerS.toFixed(2),
    r.table.framesPerS.toFixed(1),
    r.card.kibPerS.toFixed(3),
    r.card.framesPerS.toFixed(2),
    `${r.p50.toFixed(0)} / ${r.p99.toFixed(0)} / ${r.max.toFixed(0)}`,
    r.rows,
    r.refetches,
    r.same ? 'yes' : 'NO',
  ]),
);
process.exit(results.every((r) => r.same) ? 0 : 1);
