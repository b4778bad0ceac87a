/**
 * Confirmation benchmark (issue 17): a 5,000-row registration document uploaded, mapped and
 * validated, one cell edited (the whole document validated again), then confirmed in bulk into
 * 5,000 participants — each step timed while `/api/health` is requested over HTTP every 10 ms, to
 * show the server keeps answering (validation yields to the event loop; writes go by 1,000 rows).
 * Baselines in the same run: `/api/health` while idle, and the same 5,000 participants INSERTed
 * straight into the database (one multi-row statement per 1,000, no validation, no HTTP).
 * Run: npm run bench -- confirmation
 */
import { performance } from 'node:perf_hooks';
import { insertParticipants } from '../src/modules/results/repository.ts';
import { randomKey } from '../src/modules/results/service.ts';
import { createRace } from '../src/modules/results/setup.ts';
import { benchApp, printTable, quantile } from './bench-setup.ts';

const ROWS = Number(process.env.BENCH_CONFIRMATION_ROWS ?? 5_000);
const { app } = await benchApp();
// The raw baseline goes to another event, or its runners would be duplicates of the document's.
await app.database.query(
  `INSERT INTO events (id, organisation_id, name, start_date, end_date) SELECT 'bench-raw', organisation_id, 'Raw', start_date, end_date FROM events WHERE id = 'bench'`,
);
await app.database.query(
  `INSERT INTO contexts (db, event_id, name) VALUES ('bench', 'bench', 'Bench'), ('bench-raw', 'bench-raw', 'Raw')`,
);
const categories = [
  { id: 'U20', name: 'Under 20', maxAge: 19 },
  { id: 'SEN', name: 'Seniors', minAge: 20, maxAge: 39 },
  { id: 'M40', name: 'Masters 40', minAge: 40 },
];
for (const [db, id] of [
  ['bench', 'bench-10k'],
  ['bench-raw', 'bench-raw'],
] as const) {
  await createRace(app.database, db, {
    id,
    name: id,
    date: '2026-05-31',
    distanceM: 10_000,
    startType: 'mass',
    categories,
    points: [{ key: 'finish', name: 'Finish', distanceM: 10_000 }],
  });
}
await app.database.query(
  `INSERT INTO bib_ranges (race_id, first_bib, last_bib) VALUES ('bench-10k', 10001, 20000)`,
);
const [user] = await app.database.query<{ sub: string }>(
  `INSERT INTO users (email, email_verified) VALUES ('confirmation@tempora.local', true) RETURNING sub`,
);
const token = await app.identity.signer.sign({
  sub: user!.sub,
  email: 'confirmation@tempora.local',
  emailVerified: true,
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const people = Array.from({ length: ROWS }, (_, i) => ({
  first: `Runner${i}`,
  last: `Family${i % 700}`,
  gender: i % 2 ? 'F' : 'M',
  born: `${1950 + (i % 50)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
  email: `runner${i}@company.example`,
}));
const csv = [
  'First name;Last name;Gender;Birth date;Email',
  ...people.map((p) => `${p.first};${p.last};${p.gender};${p.born};${p.email}`),
].join('\n');

async function api<T>(method: string, path: string, body?: unknown, type = 'application/json'): Promise<T> {
  const res = await fetch(`${base}/api/confirmation/${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': type },
    body:
      body === undefined ? undefined : type === 'application/json' ? JSON.stringify(body) : (body as string),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Runs `fn` while requesting /api/health every 10 ms; returns its time and the health latencies. */
async function measured(fn: () => Promise<unknown>) {
  const latencies: number[] = [];
  let running = true;
  const prober = (async () => {
    while (running) {
      const t0 = performance.now();
      await fetch(`${base}/api/health`).then((r) => r.arrayBuffer());
      latencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  running = false;
  await prober;
  latencies.sort((a, b) => a - b);
  return { ms, latencies };
}

const rows: (string | number)[][] = [];
const record = (step: string, r: { ms: number; latencies: number[] }) =>
  rows.push([
    step,
    r.ms.toFixed(0),
    quantile(r.latencies, 0.5).toFixed(1),
    quantile(r.latencies, 0.99).toFixed(1),
    (r.latencies[r.latencies.length - 1] ?? 0).toFixed(1),
    r.latencies.length,
  ]);

record('baseline: idle (1 s)', await measured(() => new Promise((r) => setTimeout(r, 1_000))));
record(
  `baseline: raw INSERT of ${ROWS} participants`,
  await measured(() =>
    app.database.transaction(async (sql) => {
      for (let k = 0; k < people.length; k += 1_000) {
        await insertParticipants(
          sql,
          people.slice(k, k + 1_000).map((p, i) => ({
            raceId: 'bench-raw',
            bib: String(k + i + 1),
            firstName: p.first,
            lastName: p.last,
            gender: p.gender as 'M' | 'F',
            birthDate: p.born,
            club: 'Bench Company',
            status: 'registered' as const,
            trackingKey: randomKey(),
            email: p.email,
          })),
        );
      }
    }),
  ),
);
const doc = await api<{ id: string }>('POST', 'documents', {
  eventId: 'bench',
  title: 'Bench company',
  senderName: 'Bench Company',
  senderKind: 'company',
  contactEmail: 'hr@company.example',
  defaultRaceId: 'bench-10k',
});
record(
  `upload ${ROWS}-row CSV (${(csv.length / 1024).toFixed(0)} KiB)`,
  await measured(() => api('POST', `documents/${doc.id}/file?name=bench.csv`, csv, 'text/csv')),
);
let counts: { clean: number } = { clean: 0 };
record(
  `map + validate ${ROWS} rows`,
  await measured(async () => {
    const detail = await api<{ counts: { clean: number } }>('PUT', `documents/${doc.id}/mapping`, {
      mapping: {
        firstName: 'First name',
        lastName: 'Last name',
        gender: 'Gender',
        birthDate: 'Birth date',
        email: 'Email',
      },
    });
    counts = detail.counts;
  }),
);
const list = await api<{ id: string }[]>('GET', `documents/${doc.id}/rows`);
record(
  'edit one cell (whole document validated again)',
  await measured(() =>
    api('PATCH', `documents/${doc.id}/rows`, {
      edits: [{ rowId: list[0]!.id, field: 'firstName', value: 'Renamed' }],
    }),
  ),
);
let confirmed = 0;
record(
  `confirm ${counts.clean} clean rows into participants`,
  await measured(async () => {
    confirmed = (await api<{ confirmed: number }>('POST', `documents/${doc.id}/confirm`, {})).confirmed;
  }),
);
printTable(
  ['step', 'time (ms)', 'health p50 (ms)', 'health p99 (ms)', 'health max (ms)', 'health samples'],
  rows,
);
console.log(`\n${confirmed} participants confirmed (${counts.clean} clean rows of ${ROWS}).`);
await app.close();
