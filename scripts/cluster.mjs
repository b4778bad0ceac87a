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
// The logic lives in cluster-lib.mjs (the race-day spike bench starts the same cluster).
import path from 'node:path';
import { buildAll, ClusterError, ensureDatabase, root, startCluster } from './cluster-lib.mjs';

const port = Number(process.env.CLUSTER_PORT ?? 8080);
const count = Number(process.env.CLUSTER_NODES ?? 3);
const sticky = process.env.CLUSTER_STICKY === '1';
const databaseUrl = process.env.CLUSTER_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tempora_cluster';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const dir = path.join(root, '.tmp', 'cluster');

let cluster;
try {
  if (!process.argv.includes('--no-build')) {
    console.log('building the web client and the server…');
    buildAll();
  }
  if (await ensureDatabase(databaseUrl))
    console.log(`created database ${new URL(databaseUrl).pathname.slice(1)}`);
  cluster = await startCluster({ dir, port, count, sticky, databaseUrl, redisUrl });
} catch (error) {
  if (!(error instanceof ClusterError)) throw error;
  console.error(`cluster: ${error.message}`);
  process.exit(1);
}

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping the cluster…');
  await cluster.stop();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
cluster.nginx.on('exit', (code) => {
  if (!stopping) {
    console.error(`nginx exited (${code})`);
    void stop();
  }
});

console.log(
  `\nTempora cluster: http://localhost:${port}  (${count} nodes: ${cluster.nodes.map((n) => n.port).join(', ')}; ${sticky ? 'sticky' : 'round robin'})`,
);
console.log(
  `database ${databaseUrl.replace(/:[^@/]*@/, ':***@')}, redis ${redisUrl}; logs in ${path.relative(root, dir)}/logs`,
);
// The health checks' timer is unref'd: keep running until Ctrl-C.
setInterval(() => {}, 1 << 30);
