/**
 * Alerts for followers (issue 40, product.md: a follower's message leaves ≤ 5 s after the read,
 * once per passing). 10,000 followers on 2,000 runners (four by web push, one by e-mail each),
 * every runner's finish read arriving at 50 reads/s, then a correction of 100 of them: messages
 * per second sent, read → message received (push: decrypted by a local push service, RFC 8291;
 * e-mail: handed to the outbox) p50/p99, duplicates and missing messages (expected: 0 and 0).
 * Baseline in the same run: the read → acknowledgement of the same posts.
 * Run: npm run bench -- alerts
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  addParticipants,
  createRace,
  hashKey,
  insertContext,
  insertDevice,
} from '../src/modules/results/port.ts';
import { pushReceiver } from '../test/push-receiver.ts';
import { benchApp, printTable, quantile } from './bench-setup.ts';

const RUNNERS = Number(process.env.BENCH_ALERT_RUNNERS ?? 2_000);
const PUSH_PER_RUNNER = 4;
const READS_PER_S = 50;
const CORRECTIONS = 100;
const DB = 'alerts-bench';
const RACE = 'alerts-bench-10k';
const KEY = 'tdk_alerts_bench_device_01';
const GUN = Date.now() - 3_600_000;

const { app } = await benchApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
const push = await pushReceiver();
await insertContext(app.database, { db: DB, eventId: 'bench', name: '10 km' });
await app.database.transaction(async (sql) => {
  await createRace(sql, DB, {
    id: RACE,
    name: '10 km',
    date: new Date(GUN).toISOString().slice(0, 10),
    distanceM: 10_000,
    startType: 'mass',
    gunTimeMs: GUN,
    points: [{ key: 'finish', name: 'Finish', distanceM: 10_000 }],
  });
  await addParticipants(
    sql,
    RACE,
    Array.from({ length: RUNNERS }, (_, i) => ({
      bib: String(i + 1),
      firstName: `Runner${i}`,
      lastName: 'Bench',
      gender: i % 2 ? ('F' as const) : ('M' as const),
      age: 30,
      status: 'registered' as const,
    })),
  );
});
await insertDevice(app.database, { db: DB, name: 'finish', keyHash: hashKey(KEY), pointKey: 'finish' });
const runners = await app.database.query<{ bib: string; key: string }>(
  'SELECT bib, tracking_key AS key FROM participants WHERE race_id = $1',
  [RACE],
);
// The followers, as the subscribe route stores them (one statement), e-mail addresses confirmed.
const sub = push.subscription();
const rows = runners.flatMap((r, k) => [
  ...Array.from({ length: PUSH_PER_RUNNER }, (_, j) => [r.key, 'push', null, `${sub.endpoint}/${k}/${j}`]),
  [r.key, 'email', `fan${k}@example.org`, null],
]);
await app.database
  .query(
    `INSERT INTO alert_subscriptions (tracking_key, channel, email, endpoint, p256dh, auth, points, lng, token)
   SELECT u.k, u.c, u.e, u.ep, $5, $6, ARRAY['finish'], 'en', encode(gen_random_bytes(18), 'hex')
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS u(k, c, e, ep)`,
    [
      rows.map((r) => r[0]),
      rows.map((r) => r[1]),
      rows.map((r) => r[2]),
      rows.map((r) => r[3]),
      sub.keys.p256dh,
      sub.keys.auth,
    ],
  )
  .catch(async () => {
    // PGlite without pgcrypto: tokens from here.
    await app.database.query(
      `INSERT INTO alert_subscriptions (tracking_key, channel, email, endpoint, p256dh, auth, points, lng, token)
     SELECT u.k, u.c, u.e, u.ep, $5, $6, ARRAY['finish'], 'en', u.t
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $7::text[]) AS u(k, c, e, ep, t)`,
      [
        rows.map((r) => r[0]),
        rows.map((r) => r[1]),
        rows.map((r) => r[2]),
        rows.map((r) => r[3]),
        sub.keys.p256dh,
        sub.keys.auth,
        rows.map(() => crypto.randomBytes(18).toString('base64url')),
      ],
    );
  });
await app.database.query(
  `INSERT INTO alert_emails (email, token, confirmed_at) SELECT DISTINCT email, md5(email), now() FROM alert_subscriptions WHERE email IS NOT NULL`,
);
const mails: { to: string; at: number; subject: string }[] = [];
app.outbox.observe((m) => mails.push({ to: m.to, at: Date.now(), subject: m.subject }));
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as AddressInfo).port;

/** Posts reads; answers the acknowledgement's milliseconds. */
/**
 * A timing system's connections: a few kept open, the reads queued on them when the server falls
 * behind (not a new connection per read, which a loaded machine answers with resets).
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
async function post(passings: unknown[]): Promise<number> {
  const t0 = performance.now();
  const body = JSON.stringify({ passings });
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/ingest/passings',
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-device-key': KEY,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  if (status !== 200) throw new Error(`ingest ${status}`);
  return performance.now() - t0;
}

// Warm the state (the first read loads the context).
await fetch(`http://127.0.0.1:${port}/api/tracking/${runners[0]!.key}`);
const postedAt = new Map<string, number>();
const acks: number[] = [];
/** When each runner's read was acknowledged: from there on, the alerts' own work. */
const ackedAt = new Map<string, number>();
const posts: Promise<void>[] = [];
const cpu0 = process.cpuUsage();
const started = Date.now();
// Each read posted at its time, whether or not the previous one was acknowledged (a timing
// system's reads do not wait for the server): 50 reads/s offered however loaded the machine.
for (let k = 0; k < RUNNERS; k++) {
  const due = started + (k * 1000) / READS_PER_S;
  const wait = due - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const bib = runners[k]!.bib;
  postedAt.set(`Runner${Number(bib) - 1}`, Date.now());
  const name = `Runner${Number(bib) - 1}`;
  posts.push(
    post([{ bib, time: GUN + 2_400_000 + k * 997 }]).then((ms) => {
      acks.push(ms);
      ackedAt.set(name, Date.now());
    }),
  );
}
await Promise.all(posts);
await app.alerts.idle();
const readsDone = Date.now();
const cpu = process.cpuUsage(cpu0);

// Corrections: 100 finish times read again 7 s earlier (one corrected message per follower).
const corrected = runners.slice(0, CORRECTIONS);
const correctedAt = Date.now();
for (const [k, r] of corrected.entries()) {
  await post([
    { bib: r.bib, time: GUN + 2_400_000 + k * 997, deleted: true },
    { bib: r.bib, time: GUN + 2_400_000 + k * 997 - 7_000 },
  ]);
}
await app.alerts.idle();
await new Promise((r) => setTimeout(r, 500));

// Received: push by (endpoint path, corrected), e-mail by (address, corrected).
const latencies: number[] = [];
const afterAck: number[] = [];
const seen = new Map<string, number>();
for (const r of push.received) {
  const p = r.payload as { title: string; corrected: boolean; url: string };
  const name = /^(?:Corrected: )?(Runner\d+)/.exec(p.title)![1]!;
  const id = `${name}|${p.corrected}`;
  seen.set(`push|${id}`, (seen.get(`push|${id}`) ?? 0) + 1);
  if (!p.corrected) {
    latencies.push(r.at - postedAt.get(name)!);
    afterAck.push(r.at - ackedAt.get(name)!);
  }
}
for (const m of mails) {
  const name = /(?:Corrected: )?(Runner\d+)/.exec(m.subject)![1]!;
  const id = `${name}|${m.subject.includes('Corrected')}`;
  seen.set(`mail|${id}`, (seen.get(`mail|${id}`) ?? 0) + 1);
  if (!m.subject.includes('Corrected')) {
    latencies.push(m.at - postedAt.get(name)!);
    afterAck.push(m.at - ackedAt.get(name)!);
  }
}
let duplicates = 0;
let missing = 0;
for (let k = 0; k < RUNNERS; k++) {
  for (const fix of k < CORRECTIONS ? [false, true] : [false]) {
    const pushes = seen.get(`push|Runner${k}|${fix}`) ?? 0;
    const emails = seen.get(`mail|Runner${k}|${fix}`) ?? 0;
    duplicates += Math.max(0, pushes - PUSH_PER_RUNNER) + Math.max(0, emails - 1);
    missing += Math.max(0, PUSH_PER_RUNNER - pushes) + Math.max(0, 1 - emails);
  }
}
latencies.sort((x, y) => x - y);
afterAck.sort((x, y) => x - y);
acks.sort((x, y) => x - y);
const total = push.received.length + mails.length;
const seconds = (Math.max(readsDone, Date.now() - 500) - started) / 1000;
printTable(
  ['what', 'value'],
  [
    ['followers (push + e-mail) / runners', `${RUNNERS * (PUSH_PER_RUNNER + 1)} / ${RUNNERS}`],
    ['reads (finish) at', `${READS_PER_S}/s, then ${CORRECTIONS} corrections`],
    ['messages sent (push + e-mail)', `${push.received.length} + ${mails.length} = ${total}`],
    ['messages per second (over the run)', (total / seconds).toFixed(0)],
    [
      'reads offered / last message after the first read (s)',
      `${RUNNERS} / ${((readsDone - started) / 1000).toFixed(1)}`,
    ],
    [
      'this process (server + push service) CPU per message (ms)',
      ((cpu.user + cpu.system) / 1000 / (RUNNERS * (PUSH_PER_RUNNER + 1))).toFixed(2),
    ],
    [
      'read → message p50 / p99 (ms)',
      `${quantile(latencies, 0.5).toFixed(0)} / ${quantile(latencies, 0.99).toFixed(0)}`,
    ],
    [
      'read acknowledged → message p50 / p99 (ms): the alerts alone',
      `${quantile(afterAck, 0.5).toFixed(0)} / ${quantile(afterAck, 0.99).toFixed(0)}`,
    ],
    [
      'baseline: read → acknowledgement p50 / p99 (ms)',
      `${quantile(acks, 0.5).toFixed(1)} / ${quantile(acks, 0.99).toFixed(1)}`,
    ],
    ['corrections: read → last corrected message (s)', ((Date.now() - 500 - correctedAt) / 1000).toFixed(1)],
    ['duplicates', duplicates],
    ['missing', missing],
    ['push decryption failures', push.errors.length],
    ['VAPID signatures valid', push.received.every((r) => r.vapidValid) ? 'all' : 'NOT ALL'],
  ],
);
agent.destroy();
await app.close();
await push.close();
process.exit(duplicates || missing || push.errors.length ? 1 : 0);
