/**
 * Participant import benchmark (product.md: "45,000 participants (the 20 km de Bruxelles) from
 * CSV or XLSX without the server stalling (`/api/health` within 100 ms meanwhile)").
 * A real server listening on a port, PGlite on disk. Each case: upload the file, check every row
 * (preview), import the valid rows — over HTTP as the console does — while a separate process
 * GETs `/api/health` every 20 ms and records its latency. Baseline in the same run: the same rows
 * INSERTed straight into the database (one multi-row statement per 5,000, no file, no checks),
 * and the files read on the main thread as uploads were before they moved to a worker thread.
 * Run: npx tsx apps/server/bench/import.bench.ts (or `npm run bench -- import`)
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { ImportOutcome, ImportPreview, UploadInfo } from '@tempora/contracts';
import ExcelJS from 'exceljs';
import { readSheets } from '../src/lib/tabular/read.ts';
import { insertParticipants } from '../src/modules/results/repository.ts';
import { randomKey } from '../src/modules/results/service.ts';
import { createRace } from '../src/modules/results/setup.ts';
import { createTestUser } from '../test/identity-helpers.ts';
import { benchApp, printTable, quantile } from './bench-setup.ts';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 45_000);
const HEADER = ['Dossard', 'Prénom', 'Nom', 'Sexe', 'Date de naissance', 'Club', 'Nationalité', 'E-mail'];
const FIRST = ['Élodie', 'Jean', 'Sofie', 'Luc', 'Ana', 'Marc', 'Inès', 'Noah', 'Zoé', 'Hugo', 'Lena', 'Tom'];
const CLUBS = ['AC Liège', 'Namur Running', 'Brussels Road Runners', 'RCB', ''];

/** Row k of a file; `tag` keeps the files' people distinct (the same person twice is refused). */
function row(k: number, tag: string): string[] {
  return [
    String(k + 1),
    FIRST[k % FIRST.length]!,
    `${tag}-Coureur-${k}`,
    k % 2 ? 'H' : 'F',
    `${String(1 + (k % 28)).padStart(2, '0')}/${String(1 + (k % 12)).padStart(2, '0')}/${1950 + (k % 55)}`,
    CLUBS[k % CLUBS.length]!,
    'BEL',
    `${tag}${k}@example.be`,
  ];
}

const { app } = await benchApp();
const ORG = '00000000-0000-4000-8000-0000000000be';
await app.database.query(`INSERT INTO contexts (db, event_id, name) VALUES ('bench', 'bench', 'Bench')`);
const race = (id: string) => ({
  id,
  name: id,
  date: '2026-05-31',
  distanceM: 20_000,
  startType: 'mass' as const,
  gunTimeMs: Date.UTC(2026, 4, 31, 8),
  points: [{ key: 'finish', name: 'Finish', distanceM: 20_000 }],
});
for (const id of ['raw', 'csv', 'xlsx'])
  await app.database.transaction((sql) => createRace(sql, 'bench', race(id)));
const { authorization } = await createTestUser(app, {
  memberships: [{ organisationId: ORG, role: 'staff' }],
});
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;
const base = `http://127.0.0.1:${port}/api/console/events/bench`;

const fileRows = (tag: string) => Array.from({ length: ROWS }, (_, k) => row(k, tag));
const rows = fileRows('raw');
const csv = Buffer.from(
  [HEADER, ...fileRows('csv')]
    .map((r) => r.map((c) => (c.includes(';') ? `"${c}"` : c)).join(';'))
    .join('\n'),
);
const book = new ExcelJS.Workbook();
const sheet = book.addWorksheet('Inscriptions');
sheet.addRow(HEADER);
for (const r of fileRows('xlsx')) sheet.addRow(r);
const xlsx = Buffer.from(await book.xlsx.writeBuffer());

/** Pings /api/health every 20 ms from another process until stopped; resolves with latencies (ms). */
function healthProbe() {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const http=require('node:http');const out=[];let on=true;
       process.stdin.on('data',()=>{on=false});
       (async()=>{while(on){const t=performance.now();await new Promise(r=>http.get({host:'127.0.0.1',port:${port},path:'/api/health'},res=>{res.resume();res.on('end',r)}).on('error',r));out.push(performance.now()-t);if(out.length===1)process.stdout.write('ready\\n');await new Promise(r=>setTimeout(r,20));}
       process.stdout.write(JSON.stringify(out),()=>process.exit(0));})();`,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let text = '';
  child.stdout.on('data', (d) => {
    text += d;
  });
  const done = new Promise<number[]>((resolve) =>
    child.on('close', () => resolve(JSON.parse(text.replace(/^ready\n/, '') || '[]'))),
  );
  const ready = new Promise<void>((resolve) => {
    const check = () => (text.startsWith('ready\n') ? resolve() : setTimeout(check, 5));
    check();
  });
  return {
    /** Resolves once the first probe has been answered (the child process is running). */
    ready,
    stop: () => {
      child.stdin.write('x');
      return done;
    },
  };
}

async function call<T>(method: string, path: string, body: unknown, type = 'application/json'): Promise<T> {
  const res = await fetch(`${base}/${path}`, {
    method,
    headers: { authorization, 'content-type': type },
    body: type === 'application/json' ? JSON.stringify(body) : (body as Buffer),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

const table: (string | number)[][] = [];
const ms = (t: number) => Math.round(t);
function latencyCells(lat: number[]) {
  const sorted = [...lat].sort((a, b) => a - b);
  return [
    sorted.length,
    quantile(sorted, 0.5).toFixed(1),
    quantile(sorted, 0.99).toFixed(1),
    (sorted.at(-1) ?? 0).toFixed(1),
  ];
}

// Idle health latency, for comparison.
{
  const probe = healthProbe();
  await probe.ready;
  await new Promise((r) => setTimeout(r, 2_000));
  table.push(['/api/health, server idle', '', '', '', '', ...latencyCells(await probe.stop())]);
}

// Baseline: the same rows straight into the database.
{
  const probe = healthProbe();
  await probe.ready;
  const t0 = performance.now();
  await app.database.transaction((sql) =>
    insertParticipants(
      sql,
      rows.map((r, k) => ({
        raceId: 'raw',
        bib: r[0]!,
        firstName: r[1]!,
        lastName: r[2]!,
        gender: k % 2 ? 'M' : 'F',
        nationality: 'BEL',
        club: r[5]!,
        email: r[7]!,
        status: 'registered' as const,
        trackingKey: randomKey(),
      })),
    ),
  );
  const t = performance.now() - t0;
  table.push([
    `baseline: raw multi-row INSERT of ${ROWS} rows`,
    '',
    '',
    ms(t),
    ms(t),
    ...latencyCells(await probe.stop()),
  ]);
}

// Before (the former way, same run): the file read on the main thread, as the upload did.
for (const [format, bytes] of [
  ['CSV', csv],
  ['XLSX', xlsx],
] as const) {
  const probe = healthProbe();
  await probe.ready;
  const t0 = performance.now();
  const read = await readSheets(bytes, `bench.${format.toLowerCase()}`);
  const t = performance.now() - t0;
  if (read.sheets[0]!.rows.length !== ROWS) throw new Error(`${format}: ${read.sheets[0]!.rows.length} rows`);
  table.push([
    `before: ${format} read on the main thread`,
    ms(t),
    '',
    '',
    ms(t),
    ...latencyCells(await probe.stop()),
  ]);
}

for (const [format, bytes, type] of [
  ['CSV', csv, 'text/csv'],
  ['XLSX', xlsx, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
] as const) {
  const raceId = format.toLowerCase();
  // Each step probed on its own: the upload reads the file (on a worker thread), the preview
  // checks every row, the import inserts them.
  let probe = healthProbe();
  await probe.ready;
  const t0 = performance.now();
  const info = await call<UploadInfo>('POST', `imports?fileName=bench.${raceId}`, bytes, type);
  const t1 = performance.now();
  const uploadLatency = await probe.stop();
  probe = healthProbe();
  await probe.ready;
  const mapping = info.sheets[0]!.guess;
  const preview = await call<ImportPreview>('POST', `imports/${info.id}/preview`, { raceId, mapping });
  const t2 = performance.now();
  const previewLatency = await probe.stop();
  probe = healthProbe();
  await probe.ready;
  const out = await call<ImportOutcome>('POST', `imports/${info.id}/commit`, {
    raceId,
    mapping,
    mode: 'valid',
  });
  const t3 = performance.now();
  const commitLatency = await probe.stop();
  // The results module reloads the context after an import (its live state: every runner of the
  // event's races); measured apart, it is not part of the import's own work.
  probe = healthProbe();
  await probe.ready;
  const t4 = performance.now();
  await app.results.state('bench');
  const t5 = performance.now();
  const reloadLatency = await probe.stop();
  if (preview.valid !== ROWS || out.imported !== ROWS) throw new Error(`${format}: ${JSON.stringify(out)}`);
  const name = `${format} import of ${ROWS} rows (${(bytes.length / 1e6).toFixed(1)} MB)`;
  table.push([`${name}: upload, read on a worker`, ms(t1 - t0), '', '', '', ...latencyCells(uploadLatency)]);
  table.push([`${name}: preview`, '', ms(t2 - t1), '', '', ...latencyCells(previewLatency)]);
  table.push([`${name}: import`, '', '', ms(t3 - t2), '', ...latencyCells(commitLatency)]);
  table.push([
    `${name}: then the live results reload (results module)`,
    '',
    '',
    '',
    ms(t5 - t4),
    ...latencyCells(reloadLatency),
  ]);
  table.push([
    `${name}: whole (upload, preview, import)`,
    ms(t1 - t0),
    ms(t2 - t1),
    ms(t3 - t2),
    ms(t3 - t0),
    ...latencyCells([...uploadLatency, ...previewLatency, ...commitLatency]),
  ]);
}

printTable(
  [
    'case',
    'upload+read ms',
    'preview ms',
    'import ms',
    'total ms',
    'health probes',
    'health p50 ms',
    'health p99 ms',
    'health max ms',
  ],
  table,
);
await app.close();
