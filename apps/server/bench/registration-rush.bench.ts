/**
 * Registration rush (issue 38, product.md targets: "20,000 runners trying for 5,000 places within
 * 60 s on one node get exactly 5,000 places, no add-on or code sold past its stock, each payment
 * counted once, entry step p99 ≤ 1 s and /api/health p99 ≤ 100 ms meanwhile").
 *
 * Each mode starts real server processes (the compiled bundle `apps/server/dist/server.mjs`, as
 * `npm start` runs it, built first when older than the sources; NODE_ENV production) and a local Mollie stub (HTTPS, test/mollie-stub.ts), then 20,000 signed-in
 * runners arrive over 60 s (front-loaded: half in the first 15 s), each POSTing an order for the
 * one race (10 % also ask for the T-shirt size of stock 500, 5 % give the code of 300 uses; a
 * runner refused the T-shirt or the code tries again without it). A runner who holds a place pays
 * with Mollie; the webhook is delivered to a random node, 10 % twice at once to both nodes, 10 %
 * only after a second (through sockets of their own: Mollie's, not the runners'). `/api/health` is
 * asked of every node every 50 ms meanwhile, from a process of its own. At the end the database is
 * read: confirmed entries, places, stock and code uses taken, payments per order, confirmations
 * mailed. Besides the entry step (the order's POST) the table gives the whole way to the payment
 * page's address (POST order + POST pay), the load average, and the CPU seconds the nodes and
 * this client spent (what the code costs, whatever the load of the shared machine).
 *
 * Modes: `pglite` (one node, the embedded database) and `postgres` (two nodes on PostgreSQL and
 * Redis: BENCH_DATABASE_URL or TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test's
 * server; a fresh database is created). BENCH_RUSH_MODES=pglite,postgres; BENCH_RUSH_RUNNERS,
 * BENCH_RUSH_PLACES, BENCH_RUSH_SECONDS to scale; BENCH_RUSH_PROFILE=dir for the nodes' CPU profiles;
 * BENCH_RUSH_NO_PAY=1 to measure the entry step alone (holders do not pay).
 * Run: npm run bench -- registration-rush
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { importJWK, type JWK, SignJWT } from 'jose';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';
import { ID_TOKEN_AUDIENCE } from '../src/identity/keys.ts';
import { createRace } from '../src/modules/results/setup.ts';
import { startMollieStub } from '../test/mollie-stub.ts';
import { serverArgs } from '../test/server-entry.ts';
import { printTable, quantile } from './bench-setup.ts';

const RUNNERS = Number(process.env.BENCH_RUSH_RUNNERS ?? 20_000);
const PLACES = Number(process.env.BENCH_RUSH_PLACES ?? 5_000);
const SHIRTS = Math.round(PLACES / 10);
const USES = Math.round((PLACES * 3) / 50);
const SECONDS = Number(process.env.BENCH_RUSH_SECONDS ?? 60);
/** How long the runners' tokens live: longer than any run (the signer's are 15 minutes). */
const TOKEN_HOURS = 12;
/** BENCH_RUSH_NO_PAY=1: the runners who hold a place do not pay (the entry step's cost alone). */
const NO_PAY = process.env.BENCH_RUSH_NO_PAY === '1';
const MODES = (process.env.BENCH_RUSH_MODES ?? 'pglite,postgres').split(',');
const ADMIN_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const root = path.resolve(import.meta.dirname, '../../..');
const ORG = '00000000-0000-4000-8000-0000000000be';
const EVENT = 'rush';
const RACE = 'rush-10k';

process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
/**
 * A kept-alive socket reset by the server between two requests sometimes surfaces as an
 * 'error' no request listens to (Node's agent); the request itself fails and is counted by its
 * runner. Counted here instead of ending the bench.
 */
let resets = 0;
process.on('uncaughtException', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'ECONNRESET') throw error;
  resets++;
});
const mollie = startMollieStub();
const mollieUrl = await mollie.listen();

const env = (dataDir: string, extra: Record<string, string>) => ({
  PUBLIC_URL: 'http://localhost:8080',
  REALTIME_SECRET: 'bench-only-realtime-secret',
  MOLLIE_API_KEY: 'test_abcdefghijklmnopqrstuvwxyz',
  MOLLIE_API_URL: mollieUrl,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  SEED_DEMO: 'false',
  NODE_ENV: 'production',
  ...extra,
});

/** The event, its race, the registration and the runners' accounts and tokens (one app, then closed). */
async function setUp(vars: Record<string, string>): Promise<string[]> {
  const app = await buildApp(loadConfig({ ...process.env, ...vars }), { logger: false });
  await app.database.query(`INSERT INTO organisations (id, slug, name) VALUES ($1, 'rush', 'Rush')`, [ORG]);
  await app.database.query(
    `INSERT INTO events (id, organisation_id, name, start_date, end_date, status) VALUES ($1, $2, 'Rush', '2099-06-01', '2099-06-01', 'upcoming')`,
    [EVENT, ORG],
  );
  await app.database.query(`INSERT INTO contexts (db, event_id, name) VALUES ('rush', $1, 'Rush')`, [EVENT]);
  await app.database.transaction((sql) =>
    createRace(sql, 'rush', {
      id: RACE,
      name: '10 km',
      date: '2099-06-01',
      distanceM: 10_000,
      startType: 'mass',
      points: [
        { key: 'start', name: 'Start', distanceM: 0, isStart: true },
        { key: 'finish', name: 'Finish', distanceM: 10_000 },
      ],
    } as never),
  );
  const [owner] = await app.database.query<{ sub: string }>(
    `INSERT INTO users (email, email_verified) VALUES ('owner@rush.test', true) RETURNING sub`,
  );
  await app.database.query(
    `INSERT INTO organisation_members (organisation_id, user_sub, role) VALUES ($1, $2, 'owner')`,
    [ORG, owner!.sub],
  );
  const ownerToken = await app.identity.signer.sign({
    sub: owner!.sub,
    email: 'owner@rush.test',
    emailVerified: true,
  });
  const res = await app.inject({
    method: 'PUT',
    url: `/api/entries/staff/events/${EVENT}/settings`,
    headers: { authorization: `Bearer ${ownerToken}` },
    payload: {
      holdMinutes: 15,
      races: [
        {
          raceId: RACE,
          opensAt: '2020-01-01T00:00:00.000Z',
          closesAt: '2099-05-01T00:00:00.000Z',
          capacity: PLACES,
          prices: { tiers: [{ from: '2020-01-01T00:00:00.000Z', cents: 3000 }] },
        },
      ],
      addOns: [{ key: 'tshirt-m', name: 'T-shirt M', priceCents: 1500, capacity: SHIRTS }],
      codes: [{ code: 'RUSH', kind: 'amount', value: 500, capacity: USES }],
    },
  });
  if (res.statusCode !== 200) throw new Error(`settings: ${res.body}`);
  const users = await app.database.query<{ sub: string; email: string }>(
    `INSERT INTO users (email, email_verified, first_name, last_name)
     SELECT 'runner' || n || '@rush.test', true, 'Runner', 'N' || n FROM generate_series(1, $1) n RETURNING sub, email`,
    [RUNNERS],
  );
  // The runners' ID tokens outlive the run (issue 41): the signer's 15 minutes ran out during a
  // slow run, and every runner still queued then was refused (TOKEN_INVALID), so confirmed < places.
  // Signed here with the node's own key, as the signer does, for TOKEN_HOURS.
  const [key] = await app.database.query<{ kid: string; private_jwk: JWK }>(
    'SELECT kid, private_jwk FROM signing_keys ORDER BY generation DESC LIMIT 1',
  );
  const privateKey = await importJWK(key!.private_jwk, 'ES256');
  const tokens: string[] = [];
  for (const u of users)
    tokens.push(
      await new SignJWT({ email: u.email, email_verified: true })
        .setProtectedHeader({ alg: 'ES256', kid: key!.kid, typ: 'JWT' })
        .setIssuer(app.identity.signer.issuer)
        .setAudience(ID_TOKEN_AUDIENCE)
        .setSubject(u.sub)
        .setIssuedAt()
        .setExpirationTime(`${TOKEN_HOURS}h`)
        .sign(privateKey),
    );
  await app.close();
  return tokens;
}

/**
 * The server as production runs it: the compiled bundle (`npm start`), built first when older than
 * the sources. Under tsx, every refusal's stack trace went through source maps.
 */
function serverEntry(): string[] {
  let args = serverArgs();
  if (args[0] === '--import') {
    execFileSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], { stdio: 'ignore' });
    args = serverArgs();
  }
  return args;
}
const entry = serverEntry();

function startNode(port: number, vars: Record<string, string>): { child: ChildProcess; url: string } {
  // BENCH_RUSH_PROFILE=dir: each node writes a CPU profile there when it stops (what the entry step spends on).
  const profile = process.env.BENCH_RUSH_PROFILE
    ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_RUSH_PROFILE)]
    : [];
  const child = spawn(process.execPath, [...profile, ...entry], {
    cwd: root,
    env: { ...process.env, ...vars, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

async function waitReady(url: string) {
  for (let t = 0; t < 600; t++) {
    try {
      if ((await fetch(`${url}/api/ready`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready`);
}

/**
 * The runners' connections: each request in flight on a connection of its own (kept alive for the
 * next), as 20,000 browsers have. Until 2026-12-05 the runners shared 128 sockets: once the server
 * kept up, the entry step's time was mostly the wait for one of them behind other runners' pay
 * steps (the server idle, its database queue empty, refusals answered 30–48 s after they were sent).
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 8192 });
/**
 * Mollie's webhooks come from Mollie's servers, not through the runners' sockets: a runner
 * no longer waits for a socket behind a webhook (which waits for its payment to be committed).
 */
const mollieAgent = new http.Agent({ keepAlive: true });
/** One HTTP call over kept-alive sockets: status and parsed JSON body. */
function call(url: string, method: string, token: string | null, body?: unknown, form = false, via = agent) {
  const payload = body === undefined ? undefined : form ? String(body) : JSON.stringify(body);
  return new Promise<{ status: number; body: Record<string, unknown> | null }>((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent: via,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(payload === undefined
            ? {}
            : {
                'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
                'content-length': Buffer.byteLength(payload),
              }),
        },
      },
      (res) => {
        let text = '';
        res.on('error', reject);
        res.setEncoding('utf8');
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => {
          let parsed: Record<string, unknown> | null = null;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {}
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/**
 * The health probe's process: asks `/api/health` of every node (argv) every 50 ms over its own
 * kept-alive sockets until its stdin ends, then prints the answer times (ms) as JSON.
 */
const HEALTH_PROBE = `
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
const nodes = process.argv.slice(1);
const ms = [];
let stop = false;
process.stdin.on('data', () => {}).on('end', () => { stop = true; });
const ask = (n) => new Promise((resolve) => {
  const t = performance.now();
  const req = http.get(n + '/api/health', { agent }, (res) => {
    res.resume();
    res.on('end', () => { ms.push(performance.now() - t); resolve(); });
  });
  req.on('error', () => { ms.push(performance.now() - t); resolve(); });
});
(async () => {
  while (!stop) {
    await Promise.all(nodes.map(ask));
    await new Promise((r) => setTimeout(r, 50));
  }
  process.stdout.write(JSON.stringify(ms), () => process.exit(0));
})();
`;

/**
 * CPU seconds a process has used (user + system, Linux `/proc`): what the nodes spent on the
 * rush whatever the machine's load (the figures of time follow the load of this shared machine).
 */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** The machine's 1-minute load average (the machine is shared: every figure is quoted with it). */
const load = () => os.loadavg()[0]!.toFixed(1);

/** The rush against `nodes`: returns what the clients saw. */
async function rush(nodes: string[], tokens: string[]) {
  const entryMs: number[] = [];
  /** The entry steps the server answered (a status), without those whose connection failed. */
  const answeredMs: number[] = [];
  const healthMs: number[] = [];
  const outcomes = new Map<string, number>();
  const count = (k: string) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
  let webhooks = 0;
  // `/api/health` asked from a process of its own (its sockets, its event loop): this process's
  // 20,000 runners and the Mollie stub would otherwise delay the probe's own timers and reads.
  const prober = spawn(process.execPath, ['-e', HEALTH_PROBE, ...nodes], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let probed = '';
  prober.stdout?.setEncoding('utf8').on('data', (c: string) => {
    probed += c;
  });
  const health = new Promise<void>((resolve) => prober.on('exit', () => resolve()));
  const loadAtStart = load();
  const start = performance.now();
  const urlMs: number[] = [];
  /** Each entry step: when it was sent (ms from the start), how long it took, its status. */
  const timeline: [number, number, number, string][] = [];
  const runner = async (k: number) => {
    // Front-loaded arrivals: half of the runners in the first quarter of the window.
    const at = SECONDS * 1000 * (k / RUNNERS) ** 2;
    await new Promise((r) => setTimeout(r, Math.max(0, at - (performance.now() - start))));
    const node = nodes[k % nodes.length] as string;
    const token = tokens[k] as string;
    let shirt = k % 10 === 3;
    let code = k % 20 === 7;
    for (let attempt = 0; attempt < 3; attempt++) {
      const t = performance.now();
      const res = await call(`${node}/api/entries/events/${EVENT}/orders`, 'POST', token, {
        runners: [
          {
            raceId: RACE,
            firstName: 'Runner',
            lastName: `N${k}`,
            email: `runner${k + 1}@rush.test`,
            ...(shirt ? { addOns: [{ key: 'tshirt-m', quantity: 1 }] } : {}),
            ...(code ? { discountCode: 'RUSH' } : {}),
          },
        ],
      }).catch((error: NodeJS.ErrnoException) => ({
        status: 0,
        body: { code: `connection ${error.code ?? error.message}` } as Record<string, unknown>,
      }));
      entryMs.push(performance.now() - t);
      if (res.status) answeredMs.push(performance.now() - t);
      const problem = res.body?.code as string | undefined;
      timeline.push([Math.round(t - start), Math.round(performance.now() - t), res.status, problem ?? '']);
      if (res.status === 201) {
        count(shirt ? 'held with T-shirt' : 'held');
        if (code) count('held with code');
        if (NO_PAY) return;
        const order = (res.body as { orderId: string }).orderId;
        const pay = await call(`${node}/api/payments/orders/${order}/pay`, 'POST', token, {
          provider: 'mollie',
        }).catch(() => ({ status: 0, body: null }));
        const id = /select-method\/(tr_\w+)/.exec(String(pay.body?.checkoutUrl ?? ''))?.[1];
        if (!id) return count(`pay failed ${pay.status}`);
        // The whole entry step: the runner's POST until the payment page's address.
        urlMs.push(performance.now() - t);
        (mollie.payments.get(id) as { status: string }).status = 'paid';
        // Mollie tries a webhook again when it fails (a kept-alive socket closed meanwhile).
        const hook = async (n: string) => {
          for (let attempt = 0; ; attempt++) {
            try {
              await call(`${n}/api/payments/webhooks/mollie`, 'POST', null, `id=${id}`, true, mollieAgent);
              webhooks++;
              return;
            } catch (error) {
              if (attempt === 2) throw error;
            }
          }
        };
        if (k % 10 === 1) await Promise.all(nodes.length > 1 ? nodes.map(hook) : [hook(node), hook(node)]);
        else if (k % 10 === 2)
          await new Promise((r) => setTimeout(r, 1000)).then(() =>
            hook(nodes[(k + 1) % nodes.length] as string),
          );
        else await hook(nodes[(k * 7) % nodes.length] as string);
        return;
      }
      if (problem === 'ADDON_SOLD_OUT') shirt = false;
      else if (problem === 'CODE_USED_UP') code = false;
      else return count(problem ?? `status ${res.status}`);
      count(`retried after ${problem}`);
    }
  };
  await Promise.all(Array.from({ length: RUNNERS }, (_, k) => runner(k)));
  const seconds = (performance.now() - start) / 1000;
  prober.stdin?.end();
  await health;
  healthMs.push(...(JSON.parse(probed || '[]') as number[]));
  // BENCH_RUSH_TIMELINE=file: the entry steps by the second they were sent (count, p50, p99, held).
  if (process.env.BENCH_RUSH_TIMELINE) {
    const bySecond = new Map<number, [number, number][]>();
    for (const [at, ms, status] of timeline) {
      const s = Math.floor(at / 1000);
      bySecond.set(s, [...(bySecond.get(s) ?? []), [ms, status]]);
    }
    const lines = [...bySecond]
      .sort((a, b) => a[0] - b[0])
      .map(([s, v]) => {
        const ms = v.map((x) => x[0]).sort((a, b) => a - b);
        return `${s}\t${v.length}\t${quantile(ms, 0.5).toFixed(0)}\t${quantile(ms, 0.99).toFixed(0)}\t${v.filter((x) => x[1] === 201).length}`;
      });
    fs.writeFileSync(process.env.BENCH_RUSH_TIMELINE, `second\tsent\tp50\tp99\theld\n${lines.join('\n')}\n`);
    // And each entry step (sent at ms, answered after ms, status, problem code): `.raw.tsv`.
    fs.writeFileSync(
      `${process.env.BENCH_RUSH_TIMELINE}.raw.tsv`,
      `sent\tms\tstatus\tcode\n${timeline.map((r) => r.join('\t')).join('\n')}\n`,
    );
  }
  return {
    entryMs: entryMs.sort((a, b) => a - b),
    answeredMs: answeredMs.sort((a, b) => a - b),
    urlMs: urlMs.sort((a, b) => a - b),
    healthMs: healthMs.sort((a, b) => a - b),
    outcomes,
    seconds,
    webhooks,
    load: `${loadAtStart} → ${load()}`,
  };
}

/** What the database says after the rush. */
async function audit(query: (sql: string) => Promise<Record<string, unknown>[]>) {
  const [row] = await query(`SELECT
      (SELECT count(*) FROM registration_entries WHERE state = 'confirmed')::int AS confirmed,
      (SELECT taken FROM registration_races WHERE race_id = '${RACE}') AS taken,
      (SELECT held FROM registration_races WHERE race_id = '${RACE}') AS held,
      (SELECT taken FROM registration_addons WHERE key = 'tshirt-m') AS shirts,
      (SELECT count(*) FROM registration_entries WHERE state = 'confirmed' AND addons_cents > 0)::int AS "shirtEntries",
      (SELECT taken FROM registration_codes WHERE code = 'RUSH') AS uses,
      (SELECT count(*) FROM registration_entries WHERE state = 'confirmed' AND code_id IS NOT NULL)::int AS "codeEntries",
      (SELECT count(*) FROM participants WHERE race_id = '${RACE}' AND deleted_at IS NULL)::int AS participants,
      (SELECT count(*) FROM orders WHERE registration AND state = 'paid')::int AS "paidOrders",
      (SELECT count(*) FROM payments)::int AS payments,
      (SELECT count(*) FROM (SELECT order_id FROM payments GROUP BY order_id HAVING count(*) > 1) d)::int AS "paidTwice",
      (SELECT count(*) FROM orders WHERE paid_cents > amount_cents)::int AS overpaid,
      (SELECT count(*) FROM registration_entries e JOIN orders o ON o.id = e.order_id
        WHERE e.state = 'confirmed' AND o.state <> 'paid')::int AS "confirmedUnpaid",
      (SELECT count(*) FROM registration_entries e JOIN orders o ON o.id = e.order_id
        WHERE o.state = 'paid' AND e.state <> 'confirmed')::int AS "paidNotConfirmed",
      (SELECT count(*) FROM registration_entries WHERE state = 'confirmed' AND mailed_at IS NOT NULL)::int AS mailed,
      (SELECT count(*) FROM outbox)::int AS mails`);
  return row as Record<
    | 'confirmed'
    | 'taken'
    | 'held'
    | 'shirts'
    | 'shirtEntries'
    | 'uses'
    | 'codeEntries'
    | 'participants'
    | 'paidOrders'
    | 'payments'
    | 'paidTwice'
    | 'overpaid'
    | 'confirmedUnpaid'
    | 'paidNotConfirmed'
    | 'mailed'
    | 'mails',
    number
  >;
}

const results: (string | number)[][] = [];
for (const mode of MODES) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tempora-rush-'));
  let vars: Record<string, string>;
  let query: (sql: string) => Promise<Record<string, unknown>[]>;
  let close = async () => {};
  let nodeCount = 1;
  if (mode === 'postgres') {
    const name = `tempora_rush_${process.pid}`;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    vars = env(dataDir, { DATABASE_URL: url.toString(), REDIS_URL });
    nodeCount = 2;
    const client = new pg.Client({ connectionString: url.toString() });
    query = async (sql) => {
      if (!(client as unknown as { _connected?: boolean })._connected) await client.connect();
      return (await client.query(sql)).rows;
    };
    close = async () => {
      await client.end();
      const a = new pg.Client({ connectionString: ADMIN_URL });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    };
  } else {
    vars = env(dataDir, {});
    query = async () => [];
  }
  const tokens = await setUp(vars);
  const nodes = Array.from({ length: nodeCount }, (_, k) => startNode(18_380 + k, vars));
  await Promise.all(nodes.map((n) => waitReady(n.url)));
  const cpuBefore = nodes.map((n) => cpuSeconds(n.child.pid));
  const clientBefore = process.cpuUsage();
  const seen = await rush(
    nodes.map((n) => n.url),
    tokens,
  );
  const client = process.cpuUsage(clientBefore);
  const cpu = nodes.reduce((sum, n, k) => sum + cpuSeconds(n.child.pid) - (cpuBefore[k] ?? 0), 0);
  // Late webhooks settle, then the nodes stop and the database is read.
  await new Promise((r) => setTimeout(r, 3000));
  for (const n of nodes) n.child.kill('SIGTERM');
  await Promise.all(
    nodes.map((n) => new Promise((r) => (n.child.exitCode !== null ? r(null) : n.child.on('exit', r)))),
  );
  if (mode === 'pglite') {
    const { openDatabase } = await import('../src/db/database.ts');
    const db = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
    query = (sql) => db.query(sql);
    close = () => db.close();
  }
  const a = await audit(query);
  await close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(
    `\n${mode}: ${[...seen.outcomes].map(([k, v]) => `${k} ${v}`).join(', ')}; ${seen.webhooks} webhooks in ${seen.seconds.toFixed(1)} s; ${resets} connection resets`,
  );
  results.push([
    mode === 'pglite' ? 'PGlite, 1 node' : 'PostgreSQL, 2 nodes',
    RUNNERS,
    PLACES,
    `${a.confirmed} (taken ${a.taken}, held ${a.held}, participants ${a.participants})`,
    a.confirmed - PLACES,
    `${a.shirts}/${SHIRTS} (${a.shirtEntries})`,
    `${a.uses}/${USES} (${a.codeEntries})`,
    `${a.paidOrders} orders / ${a.payments} payments`,
    a.paidTwice + a.overpaid,
    a.paidNotConfirmed + a.confirmedUnpaid,
    `${a.mailed} (${a.mails} in the outbox)`,
    quantile(seen.entryMs, 0.5).toFixed(0),
    quantile(seen.entryMs, 0.99).toFixed(0),
    `${quantile(seen.answeredMs, 0.99).toFixed(0)} (${seen.entryMs.length - seen.answeredMs.length} failed)`,
    `${quantile(seen.urlMs, 0.5).toFixed(0)} / ${quantile(seen.urlMs, 0.99).toFixed(0)}`,
    quantile(seen.healthMs, 0.99).toFixed(0),
    String(seen.healthMs.length),
    seen.load,
    cpu.toFixed(1),
    ((client.user + client.system) / 1e6).toFixed(1),
    seen.seconds.toFixed(1),
  ]);
}
await mollie.close();
console.log(
  `\n### Registration rush: ${RUNNERS} runners for ${PLACES} places in ${SECONDS} s (T-shirt stock ${SHIRTS}, code of ${USES} uses)\n`,
);
printTable(
  [
    'mode',
    'runners',
    'places',
    'confirmed',
    'oversold',
    'T-shirts taken/stock (entries)',
    'code uses/limit (entries)',
    'paid',
    'counted twice',
    'lost (paid≠confirmed)',
    'mailed at stop',
    'entry p50 ms',
    'entry p99 ms',
    'entry p99 ms of those answered (connections failed)',
    'to payment URL p50 / p99 ms',
    'health p99 ms',
    'health probes',
    'load avg (start → end)',
    'nodes CPU s (rush)',
    'bench client CPU s',
    'rush s',
  ],
  results,
);
process.exit(0);
