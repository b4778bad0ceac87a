// A closed-loop HTTP load generator in its own process (so the server measured does not share
// its event loop with the client): `node http-load-client.mjs <port> <path> <seconds>
// <connections> [headers JSON]`. Prints one JSON line: requests/s, p50/p99 latency (ms), body
// bytes of the last answer and the count of each status.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const [port, path, seconds, connections, headers = '{}'] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(connections) });
const extra = JSON.parse(headers);

function get() {
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: '127.0.0.1',
        port: Number(port),
        path,
        agent,
        headers: { 'accept-encoding': 'gzip', ...extra },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk) => {
          bytes += chunk.length;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      },
    );
    req.on('error', reject);
  });
}

await get(); // warm: the server builds and encodes the table once
const latencies = [];
const statuses = {};
let bytes = 0;
const end = performance.now() + Number(seconds) * 1000;
await Promise.all(
  Array.from({ length: Number(connections) }, async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      const res = await get();
      latencies.push(performance.now() - t0);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      bytes = res.bytes;
    }
  }),
);
agent.destroy();
latencies.sort((a, b) => a - b);
const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
console.log(
  JSON.stringify({ rps: latencies.length / Number(seconds), p50: q(0.5), p99: q(0.99), bytes, statuses }),
);
