/**
 * Issue 27, first open after a restart: the Boston Marathon 2017 (26,410 runners, finished) in a
 * server process of its own, started on a DATA_DIR where it is already imported. Measured per
 * start: process start → `/api/health` answering, the first page of the overall table (what the
 * web table asks first, once subscribed: `fresh=1&offset=0&limit=100`) and then the whole table (brotli, as browsers ask),
 * and `/api/health`'s latency, asked every 10 ms from this process, from ready until the whole
 * table is in and the background warm-up is over (at least WINDOW_MS).
 *
 * Runs, in one run on one machine: the baseline, snapshots off (RESULTS_SNAPSHOTS=false: the
 * path before issue 27, the state loaded on the first request); snapshots on, first start (none
 * stored yet: the first start builds it in the background); then a restart with it stored.
 * `BENCH_BASELINE_ROOT=/work/main` adds a run of another checkout's server (before the change);
 * `BENCH_COLD_DATA_DIR` starts from a copy of a data directory where Boston is imported (event
 * `bench`, context `boston`, finished) instead of importing it (minutes on a loaded machine).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCsv } from '../src/lib/csv.ts';
import { importBoston } from '../src/modules/results/setup.ts';
import { benchApp, printTable, quantile } from './bench-setup.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const REPORT = '/api/results/bench/groups/boston-2017/reports/LIVE1';
/** Health is sampled at least this long after ready (the background warm-up included). */
const WINDOW_MS = Number(process.env.BENCH_COLD_WINDOW_MS ?? 15_000);

/** A data directory with Boston already imported (BENCH_COLD_DATA_DIR: a copy of it is used). */
async function importedDataDir(): Promise<string> {
  const prepared = process.env.BENCH_COLD_DATA_DIR;
  if (prepared) {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'tempora-bench-cold-'));
    fs.cpSync(prepared, copy, { recursive: true });
    return copy;
  }
  const { app, dataDir } = await benchApp();
  await app.database.query(`INSERT INTO contexts (db, event_id, name) VALUES ('boston', 'bench', 'Boston')`);
  const csv = await parseCsv(fs.readFileSync(path.join(root, 'fixtures/boston-2017.csv'), 'utf8'));
  await app.database.transaction((sql) => importBoston(sql, 'boston', csv));
  await app.database.query(`UPDATE events SET status = 'finished' WHERE id = 'bench'`);
  await app.database.housekeep();
  await app.close();
  return dataDir;
}
const dataDir = await importedDataDir();

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const value = await work();
  return [performance.now() - t, value];
}

interface Run {
  name: string;
  ready: number;
  firstPage: number;
  firstRows: number;
  whole: number;
  wholeRows: number;
  healthP50: number;
  healthMax: number;
  samples: number;
}

async function run(name: string, env: Record<string, string>, serverRoot = root): Promise<Run> {
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(serverRoot, 'apps/server/src/server.ts')],
    {
      cwd: serverRoot,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        SEED_DEMO: 'false',
        PUBLIC_URL: 'http://localhost:8080',
        REALTIME_SECRET: 'bench-only-realtime-secret',
        ...env,
      },
      stdio: 'ignore',
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {}
    await sleep(10);
  }
  const ready = performance.now() - started;
  // Health asked every 10 ms (one at a time) while the report is asked and the node warms up.
  const latencies: number[] = [];
  let sampling = true;
  const sampler = (async () => {
    const until = performance.now() + WINDOW_MS;
    while (sampling || performance.now() < until) {
      const [ms] = await timed(() => fetch(`${url}/api/health`).then((r) => r.arrayBuffer()));
      latencies.push(ms);
      await sleep(10);
    }
  })();
  const headers = { 'accept-encoding': 'br, gzip' };
  const [firstPage, head] = await timed(async () =>
    (await fetch(`${url}${REPORT}?fresh=1&offset=0&limit=100`, { headers })).json(),
  );
  const [whole, table] = await timed(async () => (await fetch(`${url}${REPORT}`, { headers })).json());
  sampling = false;
  await sampler;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  latencies.sort((a, b) => a - b);
  return {
    name,
    ready,
    firstPage,
    firstRows: (head as { rows: unknown[] }).rows.length,
    whole,
    wholeRows: (table as { rows: unknown[] }).rows.length,
    healthP50: quantile(latencies, 0.5),
    healthMax: latencies.at(-1) ?? Number.NaN,
    samples: latencies.length,
  };
}

const runs: Run[] = [];
const baselineRoot = process.env.BENCH_BASELINE_ROOT;
if (baselineRoot) runs.push(await run(`before (${baselineRoot})`, {}, baselineRoot));
runs.push(
  await run('baseline: snapshots off (state loaded on first request)', { RESULTS_SNAPSHOTS: 'false' }),
);
runs.push(await run('snapshots on, first start (none stored: built after start)', {}));
runs.push(await run('snapshots on, restart (stored)', {}));
runs.push(await run('snapshots on, restart again', {}));
fs.rmSync(dataDir, { recursive: true, force: true });

const ms = (v: number) => `${v.toFixed(0)} ms`;
printTable(
  [
    'Boston 2017 (26,410 runners, finished), restart',
    'start → health',
    'first 100 rows after health',
    'start → first rows',
    'whole table then',
    'health p50 / max meanwhile',
    'health samples',
  ],
  runs.map((r) => [
    `${r.name} (${r.firstRows}/${r.wholeRows} rows)`,
    ms(r.ready),
    ms(r.firstPage),
    ms(r.ready + r.firstPage),
    ms(r.whole),
    `${ms(r.healthP50)} / ${ms(r.healthMax)}`,
    r.samples,
  ]),
);
const base = runs.find((r) => r.name.startsWith('baseline'))!;
const best = runs.at(-1)!;
console.log(
  `first rows after a restart: ${ms(best.firstPage)} with the snapshot vs ${ms(base.firstPage)} without (${(base.firstPage / best.firstPage).toFixed(1)}× faster); health max ${ms(best.healthMax)} vs ${ms(base.healthMax)}. Target: first rows ≤ 1 s, health never waiting behind a report.`,
);
