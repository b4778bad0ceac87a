/**
 * Issue 20: a node started during a race must answer its first request within 1 s. The node loads
 * the live events' results before `/api/ready` says yes (a load balancer sends it nothing before),
 * so the first spectator's request finds them in memory. Measured on Boston 2017 (26,410 runners)
 * in a server process of its own: start → ready, and the first full report after ready, for the
 * event live (warmed up) and, as the baseline in the same run, finished (loaded on first request).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCsv } from '../src/lib/csv.ts';
import { importBoston } from '../src/modules/results/setup.ts';
import { benchApp, printTable } from './bench-setup.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const REPORT = '/api/results/bench/groups/boston-2017/reports/LIVE1';

const { app, dataDir } = await benchApp();
await app.database.query(`INSERT INTO contexts (db, event_id, name) VALUES ('boston', 'bench', 'Boston')`);
const csv = await parseCsv(fs.readFileSync(path.join(root, 'fixtures/boston-2017.csv'), 'utf8'));
await app.database.transaction((sql) => importBoston(sql, 'boston', csv));
await app.close();

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function run(status: 'live' | 'finished') {
  // The server is stopped: set the event's status directly in its database.
  const { openDatabase } = await import('../src/db/database.ts');
  const db = await openDatabase({ url: process.env.DATABASE_URL, dataDir: path.join(dataDir, 'pglite') });
  await db.query('UPDATE events SET status = $1 WHERE id = $2', [status, 'bench']);
  await db.close();
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'apps/server/src/server.ts')],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        SEED_DEMO: 'false',
        PUBLIC_URL: 'http://localhost:8080',
        REALTIME_SECRET: 'bench-only-realtime-secret',
      },
      stdio: 'ignore',
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    try {
      if ((await fetch(`${url}/api/ready`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 20));
  }
  const ready = performance.now() - started;
  const t0 = performance.now();
  const res = await fetch(`${url}${REPORT}`);
  const rows = ((await res.json()) as { rows: unknown[] }).rows.length;
  const first = performance.now() - t0;
  const t1 = performance.now();
  await (await fetch(`${url}${REPORT}?limit=100`)).json();
  const second = performance.now() - t1;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  return { status, ready, first, second, rows };
}

const baseline = await run('finished');
const warmed = await run('live');
fs.rmSync(dataDir, { recursive: true, force: true });
const ms = (v: number) => `${v.toFixed(0)} ms`;
printTable(
  [
    'node start (Boston 2017, 26,410 runners)',
    'start → ready',
    'first full report after ready',
    'then a page of 100',
    'target',
  ],
  [
    [
      `event live: loaded before ready (${warmed.rows} rows)`,
      ms(warmed.ready),
      ms(warmed.first),
      ms(warmed.second),
      'first request ≤ 1 s',
    ],
    [
      `baseline: event finished, loaded on first request`,
      ms(baseline.ready),
      ms(baseline.first),
      ms(baseline.second),
      '',
    ],
  ],
);
console.log(
  `first request: ${ms(warmed.first)} warmed vs ${ms(baseline.first)} cold (${(baseline.first / warmed.first).toFixed(1)}× faster)`,
);
