/**
 * Identity benchmark (issue 4 "a note with the measured sign-in latency and requests/s"): the
 * sign-in endpoint end to end (Argon2id verify at ARGON2_OPTIONS, refresh-token insert, ES256
 * signing) through `inject()` on an in-memory database, its latency p50/p99, and ES256 ID-token
 * verification per second (what every authenticated call pays) — each beside a baseline measured
 * in the same run: a bare HMAC-SHA256 over the same token bytes, and a bare Argon2id hash.
 * Run: npx tsx apps/server/bench/identity.bench.ts   (about 20 s)
 */
import crypto from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { ARGON2_OPTIONS } from '../src/identity/service.ts';

/** One line of the report. */
export interface Row {
  readonly case: string;
  readonly value: number;
  readonly unit: string;
  readonly baseline?: number;
  readonly target?: string;
  readonly note?: string;
}

const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

/** Calls `fn` for `ms` milliseconds with `concurrency` in flight; returns per-call latencies (ms). */
async function load(ms: number, concurrency: number, fn: () => Promise<unknown>) {
  const latencies: number[] = [];
  const end = performance.now() + ms;
  const worker = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      await fn();
      latencies.push(performance.now() - t);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies: latencies.sort((a, b) => a - b), seconds: (performance.now() - start) / 1000 };
}

/** Synchronous operations per second over `ms`. */
function perSecond(ms: number, fn: () => void): number {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    fn();
    n++;
  }
  return n / ((performance.now() - start) / 1000);
}

async function perSecondAsync(ms: number, fn: () => Promise<unknown>): Promise<number> {
  const { latencies, seconds } = await load(ms, 1, fn);
  return latencies.length / seconds;
}

/** Runs every case and returns the rows. */
export async function runIdentityBench(): Promise<Row[]> {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp',
    SEED_DEMO: 'false',
    NODE_ENV: 'test',
    AUTH_RATE_LIMIT: '100000',
  });
  const database = await openDatabase({ dataDir: 'memory://' });
  const app: FastifyInstance = await buildApp(config, { database, logger: false });
  const email = 'bench@example.org';
  const password = 'bench password 1';
  await app.inject({ method: 'POST', url: '/api/auth/sign-up', payload: { email, password, lng: 'en' } });
  await database.query('UPDATE users SET email_verified = true');
  const signIn = () => app.inject({ method: 'POST', url: '/api/auth/sign-in', payload: { email, password } });
  const rows: Row[] = [];

  // Baseline: one Argon2id hash with the same parameters, nothing else.
  await signIn(); // warm-up
  const bare = await load(2000, 1, () => hash(password, ARGON2_OPTIONS));
  const one = await load(2500, 1, signIn);
  rows.push({
    case: 'sign-in latency p50 (1 at a time)',
    value: quantile(one.latencies, 0.5),
    unit: 'ms',
    baseline: quantile(bare.latencies, 0.5),
    note: `Argon2id m=${ARGON2_OPTIONS.memoryCost} KiB t=${ARGON2_OPTIONS.timeCost} p=${ARGON2_OPTIONS.parallelism}; baseline: bare hash`,
  });
  rows.push({
    case: 'sign-in latency p99 (1 at a time)',
    value: quantile(one.latencies, 0.99),
    unit: 'ms',
    baseline: quantile(bare.latencies, 0.99),
  });
  const many = await load(3000, 16, signIn);
  rows.push({
    case: 'sign-in throughput (16 concurrent)',
    value: many.latencies.length / many.seconds,
    unit: 'req/s',
    baseline: bare.latencies.length / bare.seconds,
    note: `p99 ${quantile(many.latencies, 0.99).toFixed(0)} ms; libuv pool ${process.env.UV_THREADPOOL_SIZE ?? 4} threads; baseline: serial bare hashes/s`,
  });

  // Token verification: what every authenticated call pays, against a bare HMAC of the same bytes.
  const { idToken } = (await signIn()).json() as { idToken: string };
  const secret = crypto.randomBytes(32);
  const hmac = perSecond(1500, () => crypto.createHmac('sha256', secret).update(idToken).digest());
  const verify = await perSecondAsync(1000, () => app.identity.signer.verify(idToken));
  rows.push({
    case: 'ES256 ID-token verification',
    value: verify,
    unit: 'ops/s',
    baseline: hmac,
    note: 'baseline: bare HMAC-SHA256 of the token',
  });
  const authorization = `Bearer ${idToken}`;
  const authed = await perSecondAsync(1500, () =>
    app.inject({ url: '/api/permission/get', headers: { authorization } }),
  );
  const anonymous = await perSecondAsync(1500, () => app.inject({ url: '/api/permission/get' }));
  rows.push({
    case: 'GET permission/get with bearer token',
    value: authed,
    unit: 'req/s',
    baseline: anonymous,
    note: 'verify + user/memberships query; baseline: same call anonymous',
  });
  await app.close();
  await database.close();
  return rows;
}

function printTable(rows: readonly Row[]): void {
  console.log('| case | value | baseline | × baseline | target | note |');
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
  printTable(await runIdentityBench());
  process.exit(0);
}
