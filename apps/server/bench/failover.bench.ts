/**
 * Failover of a context's publisher (issue 20, one publisher per context): two server processes on
 * PostgreSQL and Redis ingest reads of one context, both; a spectator's patches (pusher-js on node
 * B, the overall table's channel) must chain from a fresh read on node B. Then the publisher (node A, which stored the first read)
 * is killed with SIGKILL while reads keep coming to node B: the time until B's first publication,
 * the subscriber's refetches after the takeover and whether every acknowledged read is in B's
 * table are printed. `npm run bench -- failover` (needs PostgreSQL and Redis: TEST_DATABASE_URL,
 * TEST_REDIS_URL; `FAILOVER_LEASE_MS`, default the server's 3000; `FAILOVER_LOG_LEVEL=info`: the
 * servers' logs and the kill's time).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  applyReportPatch,
  liveChannels,
  RESULTS_EVENT,
  type ReportPatch,
  type ReportTable,
  unbundleResults,
} from '@tempora/contracts';
import { Redis } from 'ioredis';
import pg from 'pg';
import Pusher from 'pusher-js';
import { openDatabase } from '../src/db/database.ts';
import { F } from '../src/modules/results/report-builder.ts';
import * as repo from '../src/modules/results/repository.ts';
import { hashKey } from '../src/modules/results/service.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const name = `tempora_pk_${crypto.randomBytes(4).toString('hex')}`;
const prefix = `${name}:`;
const KEY = 'tdk_pubkill_key_000000001';
const LEASE = Number(process.env.FAILOVER_LEASE_MS ?? 3000);

async function start(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/server.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'pk-')),
      NODE_ENV: 'development',
      LOG_LEVEL: process.env.FAILOVER_LOG_LEVEL ?? 'silent',
      DATABASE_URL: dbUrl,
      REDIS_URL: redisUrl,
      REALTIME_REDIS_PREFIX: prefix,
      RATE_LIMIT_REDIS_PREFIX: `${prefix}rate:`,
      RESULTS_LEASE_REDIS_PREFIX: `${prefix}lease:`,
      RESULTS_LEASE_MS: String(LEASE),
      DEMO_REPLAY: 'false',
      SEED_BOSTON: 'false',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/ready`)).ok) return child;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
}

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
await admin.end();
const u = new URL(adminUrl);
u.pathname = `/${name}`;
const dbUrl = u.toString();
const A = Number(process.env.FAILOVER_PORT ?? 18730);
const B = A + 1;
const children: ChildProcess[] = [];
try {
  children.push(await start(A));
  children.push(await start(B));
  const database = await openDatabase({ url: dbUrl, dataDir: 'unused' });
  await repo.insertDevice(database, {
    db: 'demo-city-run-10k',
    name: 'finish',
    keyHash: hashKey(KEY),
    pointKey: 'finish',
  });
  const [{ gun }] = (await database.query<{ gun: number }>(
    "SELECT gun_time_ms::float8 AS gun FROM races WHERE id = 'city-10k'",
  )) as [{ gun: number }];
  const heard: { at: number; patches: ReportPatch[] }[] = [];
  // A spectator on node B, on the overall table's channel (issue 28: only channels someone
  // occupies get a context's changes; this bench read the old all-in-one channel off Redis).
  const spectator = new Pusher('tempora-key', {
    cluster: 'eu',
    wsHost: '127.0.0.1',
    wsPort: B,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
  });
  const channel = spectator.subscribe(liveChannels.report('demo-city-run-10k', 'city-10k', 'LIVE1'));
  channel.bind(RESULTS_EVENT, (data: unknown) => {
    const patches = unbundleResults(data as Parameters<typeof unbundleResults>[0])
      .filter(([k]) => k === 'report-patch')
      .map(([, p]) => p as ReportPatch)
      .filter((p) => p.group === 'city-10k' && p.report === 'LIVE1');
    heard.push({ at: Date.now(), patches });
  });
  await new Promise((resolve) => channel.bind('pusher:subscription_succeeded', resolve));
  const sub = new Redis(redisUrl);
  const LIVE1 = '/api/results/demo-city-run/groups/city-10k/reports/LIVE1';
  const read = async (port: number, q = '') =>
    (await (await fetch(`http://127.0.0.1:${port}${LIVE1}${q}`)).json()) as ReportTable;
  let acked = 0;
  let bib = 101;
  const post = async (port: number) => {
    const k = bib++;
    const res = await fetch(`http://127.0.0.1:${port}/api/ingest/passings`, {
      method: 'POST',
      headers: { 'x-device-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({
        passings: [{ bib: String(k), time: gun + 30 * 60_000 + ((k * 7919) % 3600) * 1000 }],
      }),
    });
    if (res.ok) acked += ((await res.json()) as { accepted: number }).accepted;
  };
  await post(A);
  await new Promise((r) => setTimeout(r, 500));
  const start0 = await read(B, '?fresh=1');
  const from0 = heard.length;
  for (let k = 0; k < 30; k++) {
    await post(k % 2 ? B : A);
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 600));
  // Chain before the kill.
  let t = start0;
  let gaps = 0;
  for (const p of heard.slice(from0).flatMap((h) => h.patches)) {
    if (!('reload' in p) && p.version <= t.version) continue;
    const n = applyReportPatch(t, p);
    if (!n) {
      gaps++;
      t = await read(B, `?minVersion=${p.version}`);
    } else t = n;
  }
  const beforeKill = await read(B, `?fresh=1`);
  console.log(
    `before kill: ${heard.length - from0} events, gaps ${gaps}, folded = fresh read: ${JSON.stringify(t.rows) === JSON.stringify(beforeKill.rows)}`,
  );
  // Which node holds the lease? A took it with the first read.
  const leaseBefore = await sub.duplicate().get(`${prefix}lease:demo-city-run-10k`);
  const killedAt = Date.now();
  if (process.env.FAILOVER_LOG_LEVEL) console.log(`killed at ${killedAt}`);
  children[0]!.kill('SIGKILL');
  const from1 = heard.length;
  for (let k = 0; k < 40; k++) {
    await post(B);
    await new Promise((r) => setTimeout(r, 150));
  }
  await new Promise((r) => setTimeout(r, 1000));
  const first = heard.slice(from1)[0];
  const [{ n, max }] = (await database.query<{ n: number; max: number }>(
    "SELECT count(*)::int AS n, max(seq)::int AS max FROM passings WHERE db = 'demo-city-run-10k'",
  )) as [{ n: number; max: number }];
  const final = await read(B, `?minVersion=${max}`);
  const finishers = final.rows.filter((r) => r[F.time]).length;
  let t2 = beforeKill;
  let gaps2 = 0;
  for (const p of heard.slice(from1).flatMap((h) => h.patches)) {
    if (!('reload' in p) && p.version <= t2.version) continue;
    const nx = applyReportPatch(t2, p);
    if (!nx) {
      gaps2++;
      t2 = await read(B, `?minVersion=${p.version}`);
    } else t2 = nx;
  }
  const leaseAfter = await sub.duplicate().get(`${prefix}lease:demo-city-run-10k`);
  console.log(
    `lease ${LEASE} ms; SIGKILL → first publication by B: ${first ? first.at - killedAt : 'none'} ms; acked ${acked}, stored ${n}, finishers in B's table ${finishers}; refetches after takeover ${gaps2}; folded = final: ${JSON.stringify(t2.rows) === JSON.stringify(final.rows)}; lease holder changed: ${leaseBefore !== leaseAfter}`,
  );
  spectator.disconnect();
  await sub.quit();
  await database.close();
} finally {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 2000));
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await c.end();
  const r = new Redis(redisUrl);
  const keys = await r.keys(`${prefix}*`);
  if (keys.length) await r.del(...keys);
  await r.quit();
}
