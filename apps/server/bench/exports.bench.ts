/**
 * Results out (issue 16): the Boston 2017 overall list (26,410 rows) exported as CSV, XLSX and a
 * printed PDF (also one section per category), timed to the last byte, with `/api/health` probed
 * every 25 ms meanwhile (product.md: the server never stalls, health within 100 ms). Baseline, in
 * the same run: the same rows as the JSON report (`limit` makes it a fresh, uncached encoding), and
 * for 45,000 rows the XLSX and PDF written on the main thread (before) and on a worker (after).
 * Run: npm run bench -- exports
 */

import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { PassThrough, type Readable } from 'node:stream';
import { parseCsv } from '../src/lib/csv.ts';
import { pdfListStream, xlsxStream } from '../src/modules/exports/offload.ts';
import { renderList } from '../src/modules/exports/pdf-list.ts';
import { createExportsService } from '../src/modules/exports/service.ts';
import { writeXlsx } from '../src/modules/exports/xlsx.ts';
import { importBoston } from '../src/modules/results/setup.ts';
import { benchApp, printTable, quantile } from './bench-setup.ts';

const REPORT = '/api/results/bench/groups/boston-2017/reports/LIVE1';
const EXPORT = '/api/exports/bench/groups/boston-2017/reports/LIVE1';

const { app } = await benchApp();
await app.database.query(`INSERT INTO contexts (db, event_id, name) VALUES ('boston', 'bench', 'Boston')`);
const csv = await parseCsv(
  fs.readFileSync(new URL('../../../fixtures/boston-2017.csv', import.meta.url), 'utf8'),
);
await app.database.transaction((sql) => importBoston(sql, 'boston', csv));
await app.database.query(`INSERT INTO export_settings (event_id, spectator_exports) VALUES ('bench', true)`);
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as AddressInfo).port;
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** GETs a path to its last byte: status, bytes, milliseconds. */
function get(path: string): Promise<{ status: number; bytes: number; ms: number; rows: string }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            bytes,
            ms: performance.now() - t0,
            rows: String(res.headers['x-export-rows'] ?? ''),
          }),
        );
      })
      .on('error', reject);
  });
}

/** Runs `work` while probing /api/health every 25 ms; returns the work's result and probe times. */
async function withProbe<T>(work: () => Promise<T>): Promise<{ result: T; health: number[] }> {
  const health: number[] = [];
  let done = false;
  const probing = (async () => {
    while (!done) {
      const r = await get('/api/health');
      if (r.status !== 200) throw new Error(`health answered ${r.status}`);
      health.push(r.ms);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  const result = await work();
  done = true;
  await probing;
  return { result, health: health.sort((a, b) => a - b) };
}

// Warm: the first read computes the table (ranks of 26,410 runners) and the fonts load once.
const warm = await get(REPORT);
if (warm.status !== 200) throw new Error(`report answered ${warm.status}`);
await get(`${EXPORT}?format=pdf&q=ZZZZZZ`);

const cases: [string, string][] = [
  ['baseline: JSON report, same rows (fresh encoding)', `${REPORT}?limit=100000`],
  ['CSV (;, UTF-8 BOM)', `${EXPORT}?format=csv&lng=fr`],
  ['XLSX (exceljs streaming writer, worker thread)', `${EXPORT}?format=xlsx&lng=fr`],
  ['PDF list (A4, auto orientation, worker thread)', `${EXPORT}?format=pdf&lng=fr`],
  ['PDF list, one section per category (worker thread)', `${EXPORT}?format=pdf&lng=fr&sections=category`],
];
const rows: (string | number)[][] = [];
const healthCells = (health: number[]) => [
  health.length,
  quantile(health, 0.5).toFixed(1),
  quantile(health, 0.99).toFixed(1),
  (health.at(-1) ?? Number.NaN).toFixed(1),
];
{
  const { health } = await withProbe(() => new Promise((resolve) => setTimeout(resolve, 3_000)));
  rows.push(['/api/health, server idle', '', '', '', '', '', ...healthCells(health)]);
}
let baselineMs = 0;
for (const [name, path] of cases) {
  const cpu = process.cpuUsage();
  const { result, health } = await withProbe(() => get(path));
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  if (result.status !== 200) throw new Error(`${path} answered ${result.status}`);
  if (!baselineMs) baselineMs = result.ms;
  rows.push([
    name,
    result.rows || '26410',
    (result.ms / 1000).toFixed(2),
    `${(result.ms / baselineMs).toFixed(1)}×`,
    (cpuMs / 1000).toFixed(2),
    (result.bytes / 1e6).toFixed(2),
    ...healthCells(health),
  ]);
}

// 45,000 rows (the 20 km de Bruxelles): Boston's list made text, its rows repeated with new
// bibs. Before (the former way, same run): the document written on the main thread; after: on
// a worker thread (offload.ts), as the route does.
const service = createExportsService({
  database: app.database,
  results: app.results,
  dataDir: app.config.dataDir,
});
const { text } = await service.exportTable('bench', 'boston-2017', 'LIVE1', { lng: 'fr', sections: 'none' });
const BIG = Number(process.env.BENCH_EXPORT_ROWS ?? 45_000);
const bigRows = Array.from({ length: BIG }, (_, k) => {
  const row = [...text.rows[k % text.rows.length]!];
  if (k >= text.rows.length) row[1] = `${row[1]}-${Math.floor(k / text.rows.length)}`;
  return row;
});
const big = { ...text, rows: bigRows };
const meta = {
  eventName: 'Bench',
  color: '#39aade',
  tagline: '',
  place: 'Boston',
  raceName: 'Boston 2017',
  date: '17 avril 2017',
  timeZone: 'America/New_York',
  lng: 'fr' as const,
};
/** Bytes of a readable stream, counted to its end. */
const drain = (stream: Readable) =>
  new Promise<number>((resolve, reject) => {
    let bytes = 0;
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    stream.on('end', () => resolve(bytes)).on('error', reject);
  });
const bigCases: [string, () => Promise<number>][] = [
  [
    'before: XLSX on the main thread',
    async () => {
      const out = new PassThrough();
      const counted = drain(out);
      await writeXlsx(big, out);
      return counted;
    },
  ],
  ['after: XLSX on a worker thread', () => drain(xlsxStream(big))],
  [
    'before: PDF list on the main thread',
    () => drain(renderList(big, [{ heading: null, rows: big.rows }], meta, 'auto').doc),
  ],
  [
    'after: PDF list on a worker thread',
    () => drain(pdfListStream(big, [{ heading: null, rows: big.rows }], meta, 'auto')),
  ],
];
for (const [name, work] of bigCases) {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const { result: bytes, health } = await withProbe(work);
  const t = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  rows.push([
    `${BIG} rows: ${name}`,
    BIG,
    (t / 1000).toFixed(2),
    '',
    ((used.user + used.system) / 1e6).toFixed(2),
    (bytes / 1e6).toFixed(2),
    ...healthCells(health),
  ]);
}

printTable(
  [
    'Boston 2017 overall',
    'rows',
    'time s',
    'vs JSON',
    'CPU s',
    'MB',
    'health probes',
    'health p50 ms',
    'p99 ms',
    'max ms',
  ],
  rows,
);
console.log('\nTarget: /api/health within 100 ms while any export is made (product.md "Imports").');
console.log(
  'CPU s: this whole process (server, worker threads and probe) during the case — steadier than wall time on a shared machine.',
);
agent.destroy();
await app.close();
