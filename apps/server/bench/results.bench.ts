/**
 * Results reads (product.md: a full 26,000-row report at ≥ 50 % of nginx's throughput serving
 * the same pre-compressed bytes; p99 ≤ 50 ms at 64 concurrent connections). nginx is not on this
 * machine: the baseline is Node's bare http server sending the same gzip bytes from memory, which
 * is the ceiling for a Node process (nginx would be faster still). Boston 2017 (26,410 rows).
 * Run: npx tsx apps/server/bench/results.bench.ts   (BENCH_SECONDS=… to lengthen)
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { importBoston } from '../src/modules/results/setup.ts';
import { benchApp, printTable, quantile } from './bench-setup.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const CONCURRENCY = 64;
const PATH = '/api/results/bench/groups/boston-2017/reports/LIVE1';

const { app } = await benchApp();
await app.database.query(`INSERT INTO contexts (db, event_id, name) VALUES ('boston', 'bench', 'Boston')`);
const csv = fs.readFileSync(new URL('../../../fixtures/boston-2017.csv', import.meta.url), 'utf8');
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

async function load(port: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  await get(port, agent); // warm: builds and encodes the table once
  const latencies: number[] = [];
  let bytes = 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const res = await get(port, agent);
        if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
        latencies.push(performance.now() - t0);
        bytes = res.bytes;
      }
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / SECONDS,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    bytes,
  };
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
printTable(
  ['case', 'req/s', 'vs baseline', 'p50 ms', 'p99 ms', 'gzip bytes', 'target'],
  [
    [
      'GET full Boston report (26,410 rows), 64 connections',
      Math.round(ours.rps),
      `${(ours.rps / bare.rps).toFixed(2)}×`,
      ours.p50.toFixed(1),
      ours.p99.toFixed(1),
      ours.bytes,
      '≥ 0.5× · p99 ≤ 50 ms',
    ],
    [
      'baseline: bare node http, same gzip bytes from memory',
      Math.round(bare.rps),
      '1.00×',
      bare.p50.toFixed(1),
      bare.p99.toFixed(1),
      body.length,
      '',
    ],
  ],
);
console.log(
  `\nFirst request after import (compute ranks + encode): ${firstMs.toFixed(0)} ms, ${first.bytes} bytes gzip.`,
);
baseline.close();
await app.close();
