/**
 * Results reads (product.md: a full 26,000-row report at ≥ 50 % of nginx's throughput serving
 * the same pre-compressed bytes; p99 ≤ 50 ms at 64 concurrent connections). nginx is not on this
 * machine: the baseline is Node's bare http server sending the same gzip bytes from memory, which
 * is the ceiling for a Node process (nginx would be faster still). Boston 2017 (26,410 rows).
 * Run: npx tsx apps/server/bench/results.bench.ts   (BENCH_SECONDS=… to lengthen)
 */

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseCsv } from '../src/lib/csv.ts';
import { importBoston } from '../src/modules/results/setup.ts';
import { benchApp, printTable } from './bench-setup.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const CONCURRENCY = 64;
const PATH = '/api/results/bench/groups/boston-2017/reports/LIVE1';

const { app } = await benchApp();
await app.database.query(`INSERT INTO contexts (db, event_id, name) VALUES ('boston', 'bench', 'Boston')`);
const csv = await parseCsv(
  fs.readFileSync(new URL('../../../fixtures/boston-2017.csv', import.meta.url), 'utf8'),
);
await app.database.transaction((sql) => importBoston(sql, 'boston', csv));
await app.listen({ port: 0, host: '127.0.0.1' });
const appPort = (app.server.address() as AddressInfo).port;

function get(port: number, agent: http.Agent): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: PATH, agent, headers: { 'accept-encoding': 'gzip' } },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      },
    );
    req.on('error', reject);
  });
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  bytes: number;
  statuses: Record<string, number>;
}

/**
 * Closed-loop load from a separate process (`http-load-client.mjs`): on this 2-core machine the
 * client gets its own core instead of sharing the measured server's event loop.
 */
async function load(port: number, path = PATH, headers: Record<string, string> = {}): Promise<Load> {
  const client = new URL('./http-load-client.mjs', import.meta.url);
  const child = spawn(
    process.execPath,
    [
      fileURLToPath(client),
      String(port),
      path,
      String(SECONDS),
      String(CONCURRENCY),
      JSON.stringify(headers),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`load client exited with ${code}`);
  const result = JSON.parse(out) as Load;
  if (Object.keys(result.statuses).some((s) => s !== '200' && s !== '304'))
    throw new Error(`unexpected statuses ${JSON.stringify(result.statuses)}`);
  return result;
}

// The first request computes the table (full ranks) and encodes it: timed alone.
const t0 = performance.now();
const first = await get(appPort, new http.Agent());
const firstMs = performance.now() - t0;

const body = await new Promise<Buffer>((resolve) => {
  http.get(
    { host: '127.0.0.1', port: appPort, path: PATH, headers: { 'accept-encoding': 'gzip' } },
    (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks)));
    },
  );
});
const baseline = http.createServer((_req, res) => {
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-encoding': 'gzip',
    'content-length': body.length,
  });
  res.end(body);
});
await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve));
const basePort = (baseline.address() as AddressInfo).port;

const ours = await load(appPort);
const bare = await load(basePort);
// What a live page does after its first load: revalidate (304), or take one page of rows.
const etag = String((await fetch(`http://127.0.0.1:${appPort}${PATH}`)).headers.get('etag'));
const revalidate = await load(appPort, PATH, { 'if-none-match': etag });
const page = await load(appPort, `${PATH}?offset=0&limit=100`);
const row = (name: string, r: Load, target = '') => [
  name,
  Math.round(r.rps),
  `${(r.rps / bare.rps).toFixed(2)}×`,
  r.p50.toFixed(1),
  r.p99.toFixed(1),
  r.bytes,
  target,
];
printTable(
  ['case', 'req/s', 'vs baseline', 'p50 ms', 'p99 ms', 'body bytes', 'target'],
  [
    row('GET full Boston report (26,410 rows, gzip), 64 connections', ours, '≥ 0.5× · p99 ≤ 50 ms'),
    row('baseline: bare node http, same gzip bytes from memory', bare),
    row('same report revalidated (If-None-Match → 304)', revalidate),
    row('one page of it (limit=100, gzip)', page),
  ],
);
console.log(
  `\nLittle's law: at 64 connections a closed loop waits 64 / throughput per request on average, ` +
    `${((64 / bare.rps) * 1000).toFixed(0)} ms even for the baseline's ${Math.round(bare.rps)} req/s of ` +
    `${(body.length / 1e6).toFixed(1)} MB: p99 ≤ 50 ms needs ≥ 1,280 full reports/s.`,
);
console.log(
  `\nFirst request after import (compute ranks + encode): ${firstMs.toFixed(0)} ms, ${first.bytes} bytes gzip.`,
);
baseline.close();
await app.close();
