// The local cluster of `npm run cluster` as an importable module (issue 20): nginx (Debian's
// package) as the load balancer in front of N Tempora nodes (`node apps/server/dist/server.mjs`)
// on one PostgreSQL database and Redis. Used by scripts/cluster.mjs and by the race-day spike
// (apps/server/bench/cluster.bench.ts), which kills a node in the middle.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const root = path.resolve(import.meta.dirname, '..');
const nginxBin = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));

export class ClusterError extends Error {}

/**
 * A directory for nginx's temporary files that its workers can reach whatever the checkout's
 * permissions: under the system's temporary directory, traversable by all (0755), one per port.
 */
export function nginxTempDir(port) {
  const dir = path.join(os.tmpdir(), `tempora-nginx-${port}`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  fs.chmodSync(dir, 0o755);
  return dir;
}

/** Builds the web client and the compiled server (`npm run build`). */
export function buildAll() {
  const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new ClusterError('build failed');
}

/** Creates the database of `databaseUrl` when missing; with `fresh`, drops it first. */
export async function ensureDatabase(databaseUrl, { fresh = false } = {}) {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new ClusterError(`unexpected database name '${name}'`);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  try {
    await admin.connect();
  } catch (error) {
    throw new ClusterError(`PostgreSQL is not reachable at ${url.host}: ${error.message}`);
  }
  try {
    if (fresh) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await admin.query(`CREATE DATABASE ${name}`);
      return true;
    }
    return false;
  } finally {
    await admin.end();
  }
}

/** `true` when the node answers /api/ready, else why not: `refused` (down), `timeout` (busy?), `status`. */
async function check(node, timeoutMs = 3000) {
  try {
    const res = await fetch(`http://127.0.0.1:${node.port}/api/ready`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer();
    return res.ok ? true : 'status';
  } catch (error) {
    return error?.name === 'TimeoutError' ? 'timeout' : 'refused';
  }
}
const ready = async (node, timeoutMs) => (await check(node, timeoutMs)) === true;

/**
 * Starts the nodes (node 1 first: it migrates and, with SEED_DEMO, seeds), then nginx on `port`
 * (round robin, or ip_hash with `sticky`), and polls every node's /api/ready every 2 s, taking a
 * node that fails out of the pool with an nginx reload (open-source nginx has no active checks).
 */
export async function startCluster(options) {
  const {
    dir = path.join(root, '.tmp', 'cluster'),
    port = 8080,
    count = 3,
    sticky = false,
    databaseUrl,
    redisUrl,
    env = {},
    log = console.log,
    workerConnections = 16384,
    nodeArgs = [],
  } = options;
  if (!nginxBin)
    throw new ClusterError("nginx is not installed: sudo apt-get install -y nginx (Debian's package)");
  fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
  let stopping = false;

  const nodes = Array.from({ length: count }, (_, k) => ({
    name: `node${k + 1}`,
    port: port + 1 + k,
    child: null,
    up: false,
    failures: 0,
    timeouts: 0,
    log: path.join(dir, 'logs', `node${k + 1}.log`),
  }));

  function startNode(node) {
    const out = fs.openSync(node.log, 'a');
    node.child = spawn(process.execPath, [...nodeArgs, path.join(root, 'apps/server/dist/server.mjs')], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(node.port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        // nginx on this machine is the only proxy: trust its X-Forwarded-For, nobody else's.
        TRUST_PROXY: '127.0.0.1',
        PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${port}`,
        DATA_DIR: path.join(dir, node.name),
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
        ...env,
      },
      stdio: ['ignore', out, out],
    });
    fs.closeSync(out);
    node.child.on('exit', (code, signal) => {
      if (!stopping) log(`${node.name} exited (${signal ?? code}); see ${path.relative(root, node.log)}`);
    });
  }

  async function waitReady(node, seconds = 120) {
    for (let t = 0; t < seconds * 5; t++) {
      if (await ready(node)) return;
      if (node.child.exitCode !== null) throw new ClusterError(`${node.name} did not start; see ${node.log}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new ClusterError(`${node.name} not ready after ${seconds} s; see ${node.log}`);
  }

  const confFile = path.join(dir, 'nginx.conf');
  // nginx's temporary files (request bodies above the buffer, proxied responses) go where its
  // workers can write: run as root, they run as `nobody`, which cannot enter a 700 home holding
  // the checkout (issue 28: every ingest POST above the buffer answered 500). The master creates
  // the paths inside and hands them to the workers' user.
  const tempDir = nginxTempDir(port);
  function nginxConf() {
    const servers = nodes
      .map((n) => `    server 127.0.0.1:${n.port} max_fails=2 fail_timeout=5s${n.up ? '' : ' down'};`)
      .join('\n');
    return `# Written by scripts/cluster-lib.mjs (docs/deployment.md explains each line).
worker_processes auto;
worker_rlimit_nofile ${fileLimit};
pid ${dir}/nginx.pid;
error_log ${dir}/logs/nginx-error.log warn;
events { worker_connections ${workerConnections}; }
http {
  access_log off;
  client_body_temp_path ${tempDir}/body;
  proxy_temp_path ${tempDir}/proxy;
  fastcgi_temp_path ${tempDir}/fastcgi;
  uwsgi_temp_path ${tempDir}/uwsgi;
  scgi_temp_path ${tempDir}/scgi;
  # An ingest batch (a few thousand reads) stays in memory: no temporary file at all.
  client_body_buffer_size 1m;
  client_max_body_size 64m;
  map $http_upgrade $connection_upgrade { default upgrade; '' close; }
  upstream tempora {
${sticky ? '    ip_hash;\n' : ''}${servers}
    keepalive 64;
  }
  server {
    listen ${port};
    location / {
      proxy_pass http://tempora;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      # Realtime connections stay open; the Pusher protocol pings well within this.
      proxy_read_timeout 300s;
      # A node going away mid-request: idempotent requests are retried on the next one.
      proxy_next_upstream error timeout http_502 http_503;
      proxy_buffering off;
    }
  }
}
`;
  }
  // Each proxied WebSocket holds two descriptors; never ask for more than the hard limit (nginx
  // only warns, but keeps the old limit).
  const hardLimit = Number(spawnSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).stdout.trim());
  const fileLimit = Math.min(2 * workerConnections + 1024, Number.isFinite(hardLimit) ? hardLimit : 65536);
  const nginxCtl = (...args) =>
    spawnSync(nginxBin, ['-c', confFile, '-p', dir, ...args], { encoding: 'utf8' });

  let nginx = null;
  let health = null;
  async function stop() {
    if (stopping) return;
    stopping = true;
    if (health) clearInterval(health);
    if (nginx) nginxCtl('-s', 'quit');
    const running = nodes.filter((n) => n.child && n.child.exitCode === null && n.child.signalCode === null);
    for (const n of running) n.child.kill('SIGTERM');
    // A node drowning in work may not finish its graceful shutdown: SIGKILL after 20 s.
    const force = setTimeout(() => {
      for (const n of running)
        if (n.child.exitCode === null && n.child.signalCode === null) n.child.kill('SIGKILL');
    }, 20_000);
    await Promise.all(
      running.map((n) =>
        n.child.exitCode === null && n.child.signalCode === null
          ? new Promise((r) => n.child.once('exit', r))
          : null,
      ),
    );
    clearTimeout(force);
    if (nginx && nginx.exitCode === null) await new Promise((r) => nginx.once('exit', r));
  }

  try {
    // Node 1 migrates and seeds an empty database; the others start once it is ready.
    startNode(nodes[0]);
    await waitReady(nodes[0]);
    nodes[0].up = true;
    for (const n of nodes.slice(1)) startNode(n);
    for (const n of nodes.slice(1)) {
      await waitReady(n);
      n.up = true;
    }
    fs.writeFileSync(confFile, nginxConf());
    const test = nginxCtl('-t');
    if (test.status !== 0) throw new ClusterError(`nginx configuration refused:\n${test.stderr}`);
    nginx = spawn(nginxBin, ['-c', confFile, '-p', dir, '-g', 'daemon off;'], { stdio: 'inherit' });
  } catch (error) {
    await stop();
    throw error;
  }
  // nginx answers once it listens.
  for (let t = 0; t < 50; t++) {
    if (await ready({ port })) break;
    await new Promise((r) => setTimeout(r, 100));
  }

  // Active health checks: /api/ready of each node every 2 s. A node that refuses connections or
  // answers 503 twice in a row is taken out; one that only answers late (busy: a spike) after 5
  // checks; and never the last ones: an empty pool would turn a slow cluster into no cluster.
  let checking = false;
  health = setInterval(async () => {
    if (checking) return;
    checking = true;
    const answers = await Promise.all(nodes.map((n) => check(n)));
    checking = false;
    const wanted = nodes.map((n, k) => {
      const answer = answers[k];
      if (answer === true) {
        n.failures = 0;
        n.timeouts = 0;
        return true;
      }
      if (answer === 'timeout') n.timeouts++;
      else n.failures++;
      return n.up ? n.failures < 2 && n.timeouts < 5 : false;
    });
    let changed = false;
    if (!wanted.some(Boolean)) return;
    for (const [k, n] of nodes.entries()) {
      const ok = wanted[k];
      if (ok !== n.up) {
        n.up = ok;
        changed = true;
        log(`${n.name} ${ok ? 'is back' : `is not ready (${answers[k]}): taken out of the pool`}`);
      }
    }
    if (changed && !stopping) {
      fs.writeFileSync(confFile, nginxConf());
      nginxCtl('-s', 'reload');
    }
  }, 2000);
  health.unref();

  return {
    url: `http://localhost:${port}`,
    port,
    nodes,
    nginx,
    confFile,
    dir,
    stop,
    /** Kills a node outright (the spike's SIGKILL); the health check takes it out of the pool. */
    kill(node, signal = 'SIGKILL') {
      node.child.kill(signal);
    },
  };
}
