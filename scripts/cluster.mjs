#!/usr/bin/env node
// `npm run cluster`: a local cluster a user can start (issue 20, docs/deployment.md): nginx
// (Debian's package) as the load balancer in front of three Tempora nodes on this machine's
// PostgreSQL and Redis. Builds the web client and the compiled server first, then:
//   - creates the database if it is missing (CLUSTER_DATABASE_URL, default
//     postgres://postgres@127.0.0.1:5432/tempora_cluster) and uses REDIS_URL (default
//     redis://127.0.0.1:6379) for realtime fan-out;
//   - starts node 1 (which migrates and seeds), then nodes 2 and 3 (`node apps/server/dist/server.mjs`);
//   - writes .tmp/cluster/nginx.conf (round robin, WebSocket upgrade, passive checks with
//     max_fails, retries on the next node) and starts nginx on CLUSTER_PORT (default 8080);
//   - checks every node's /api/ready every 2 s (open-source nginx has no active health checks):
//     a node that fails is marked `down` and nginx reloaded; back when it answers again.
// Ctrl-C stops everything. `CLUSTER_NODES` (default 3) and `CLUSTER_STICKY=1` (ip_hash) change it.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

const root = path.resolve(import.meta.dirname, '..');
const dir = path.join(root, '.tmp', 'cluster');
const port = Number(process.env.CLUSTER_PORT ?? 8080);
const count = Number(process.env.CLUSTER_NODES ?? 3);
const sticky = process.env.CLUSTER_STICKY === '1';
const databaseUrl = process.env.CLUSTER_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tempora_cluster';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const nginxBin = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
const skipBuild = process.argv.includes('--no-build');

function fail(message) {
  console.error(`cluster: ${message}`);
  process.exit(1);
}

if (!nginxBin) fail("nginx is not installed: sudo apt-get install -y nginx (Debian's package)");
fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });

if (!skipBuild) {
  console.log('building the web client and the server…');
  const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) fail('build failed');
}

// The database: created when missing (the nodes migrate it under an advisory lock).
{
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  if (!/^[A-Za-z0-9_]+$/.test(name)) fail(`unexpected database name '${name}'`);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  try {
    await admin.connect();
  } catch (error) {
    fail(`PostgreSQL is not reachable at ${url.host}: ${error.message}`);
  }
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (!rowCount) {
    await admin.query(`CREATE DATABASE ${name}`);
    console.log(`created database ${name}`);
  }
  await admin.end();
}

const nodes = Array.from({ length: count }, (_, k) => ({
  name: `node${k + 1}`,
  port: port + 1 + k,
  child: null,
  up: false,
  log: path.join(dir, 'logs', `node${k + 1}.log`),
}));

function startNode(node) {
  const out = fs.openSync(node.log, 'a');
  node.child = spawn(process.execPath, [path.join(root, 'apps/server/dist/server.mjs')], {
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
    },
    stdio: ['ignore', out, out],
  });
  node.child.on('exit', (code, signal) => {
    if (!stopping)
      console.log(`${node.name} exited (${signal ?? code}); see ${path.relative(root, node.log)}`);
  });
}

async function ready(node, timeoutMs = 1500) {
  try {
    const res = await fetch(`http://127.0.0.1:${node.port}/api/ready`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    return res.ok;
  } catch {
    return false;
  }
}

async function waitReady(node, seconds = 120) {
  for (let t = 0; t < seconds * 5; t++) {
    if (await ready(node)) return;
    if (node.child.exitCode !== null) fail(`${node.name} did not start; see ${node.log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  fail(`${node.name} not ready after ${seconds} s; see ${node.log}`);
}

function nginxConf() {
  const servers = nodes
    .map((n) => `    server 127.0.0.1:${n.port} max_fails=2 fail_timeout=5s${n.up ? '' : ' down'};`)
    .join('\n');
  return `# Written by scripts/cluster.mjs (docs/deployment.md explains each line).
worker_processes auto;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/nginx-error.log warn;
events { worker_connections 16384; }
http {
  access_log off;
  client_body_temp_path ${dir}/nginx-body;
  proxy_temp_path ${dir}/nginx-proxy;
  fastcgi_temp_path ${dir}/nginx-fastcgi;
  uwsgi_temp_path ${dir}/nginx-uwsgi;
  scgi_temp_path ${dir}/nginx-scgi;
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

const confFile = path.join(dir, 'nginx.conf');
function writeConf() {
  fs.writeFileSync(confFile, nginxConf());
}

let stopping = false;
let nginx = null;
async function stop() {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping the cluster…');
  if (nginx) spawnSync(nginxBin, ['-c', confFile, '-p', dir, '-s', 'quit'], { stdio: 'ignore' });
  for (const n of nodes) n.child?.kill('SIGTERM');
  await Promise.all(
    nodes.map((n) =>
      n.child && n.child.exitCode === null ? new Promise((r) => n.child.once('exit', r)) : null,
    ),
  );
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

// Node 1 migrates and seeds an empty database; the others start once it is ready.
startNode(nodes[0]);
await waitReady(nodes[0]);
nodes[0].up = true;
for (const n of nodes.slice(1)) startNode(n);
for (const n of nodes.slice(1)) {
  await waitReady(n);
  n.up = true;
}
writeConf();
const test = spawnSync(nginxBin, ['-t', '-c', confFile, '-p', dir], { encoding: 'utf8' });
if (test.status !== 0) fail(`nginx configuration refused:\n${test.stderr}`);
nginx = spawn(nginxBin, ['-c', confFile, '-p', dir, '-g', 'daemon off;'], { stdio: 'inherit' });
nginx.on('exit', (code) => {
  if (!stopping) {
    console.error(`nginx exited (${code})`);
    void stop();
  }
});

console.log(
  `\nTempora cluster: http://localhost:${port}  (${count} nodes: ${nodes.map((n) => n.port).join(', ')}; ${sticky ? 'sticky' : 'round robin'})`,
);
console.log(
  `database ${databaseUrl.replace(/:[^@/]*@/, ':***@')}, redis ${redisUrl}; logs in ${path.relative(root, dir)}/logs`,
);

// Active health checks: /api/ready of each node every 2 s.
setInterval(async () => {
  let changed = false;
  for (const n of nodes) {
    const ok = await ready(n);
    if (ok !== n.up) {
      n.up = ok;
      changed = true;
      console.log(`${n.name} ${ok ? 'is back' : 'is not ready: taken out of the pool'}`);
    }
  }
  if (changed && !stopping) {
    writeConf();
    spawnSync(nginxBin, ['-c', confFile, '-p', dir, '-s', 'reload'], { stdio: 'inherit' });
  }
}, 2000).unref();
