/**
 * CSV benchmark (issue 13: "a 45,000-row `;` file parses in under 1 s and `/api/health` answers
 * within 100 ms during the import"). A Boston-size entry list, `;`-separated with quoted fields:
 *  1. parse time of `lib/csv.ts` (chunked, yielding) against csv-parse's synchronous parser on the
 *     same text (the baseline, measured in the same run);
 *  2. the same file POSTed over HTTP to the participant import while another client asks
 *     `/api/health` every 20 ms: its latency during the import, against the same client on the
 *     idle server (baseline).
 * Run: npm run bench -- csv
 */
import { performance } from 'node:perf_hooks';
import { parse } from 'csv-parse/sync';
import { parseCsv } from '../src/lib/csv.ts';
import { createRace } from '../src/modules/results/setup.ts';
import { createTestUser } from '../test/identity-helpers.ts';
import { benchApp, printTable, quantile } from './bench-setup.ts';

const ROWS = Number(process.env.BENCH_CSV_ROWS ?? 45_000);
const RUNS = 5;
const NATIONS = ['KEN', 'ETH', 'USA', 'FRA', 'BEL', 'JPN', 'BRA', 'GBR'];

const text = [
  'Dossard;Prénom;Nom;Sexe;Age;Club;Pays',
  ...Array.from(
    { length: ROWS },
    (_, i) =>
      `${i + 1};"Runner ${i}";"Name; ${i} ""the ${i % 7}th""";${i % 2 ? 'F' : 'M'};${18 + (i % 60)};"Club ${i % 400}";${NATIONS[i % NATIONS.length]}`,
  ),
].join('\r\n');

const ms = (t0: number) => performance.now() - t0;
const runs = (f: () => Promise<unknown> | unknown) => async () => {
  const times: number[] = [];
  for (let k = 0; k < RUNS; k++) {
    const t0 = performance.now();
    await f();
    times.push(ms(t0));
  }
  return times.sort((a, b) => a - b);
};

const baseline = await runs(() => parse(text, { delimiter: ';', relax_column_count: true }))();
const ours = await runs(() => parseCsv(text))();
const fmt = (v: number) => v.toFixed(0);
console.log(`### Parse: ${ROWS} rows, ${(text.length / 1e6).toFixed(1)} MB, \`;\` with quoted fields\n`);
printTable(
  ['case', 'p50 ms', 'min ms', 'target'],
  [
    ['baseline: csv-parse/sync (blocks the loop)', fmt(quantile(baseline, 0.5)), fmt(baseline[0] ?? 0), ''],
    ['lib/csv.ts parseCsv (16 Ki chunks, yields)', fmt(quantile(ours, 0.5)), fmt(ours[0] ?? 0), '< 1000'],
  ],
);

// Over HTTP: the import as an organiser sends it, with /api/health polled meanwhile.
const { app } = await benchApp();
await app.database.query(`INSERT INTO contexts (db, event_id, name) VALUES ('csv', 'bench', 'CSV')`);
await app.database.transaction((sql) =>
  createRace(sql, 'csv', {
    id: 'csv-race',
    name: 'Marathon',
    date: '2026-04-20',
    distanceM: 42_195,
    startType: 'mass',
    points: [{ key: 'finish', name: 'Finish', distanceM: 42_195 }],
  }),
);
const owner = await createTestUser(app, {
  memberships: [{ organisationId: '00000000-0000-4000-8000-0000000000be', role: 'owner' }],
});
const url = await app.listen({ port: 0, host: '127.0.0.1' });

async function pollHealth(until: Promise<unknown> | number): Promise<number[]> {
  const latencies: number[] = [];
  let done = false;
  if (typeof until === 'number') setTimeout(() => (done = true), until);
  else void until.finally(() => (done = true));
  while (!done) {
    const t0 = performance.now();
    const res = await fetch(`${url}/api/health`);
    await res.arrayBuffer();
    latencies.push(ms(t0));
    await new Promise((r) => setTimeout(r, 20));
  }
  return latencies.sort((a, b) => a - b);
}

const idle = await pollHealth(2000);
const t0 = performance.now();
const importing = fetch(
  `${url}/api/results/contexts/csv/races/csv-race/import/participants?bib=Dossard&firstName=Pr%C3%A9nom&lastName=Nom&gender=Sexe&age=Age&club=Club&nationality=Pays`,
  {
    method: 'POST',
    headers: { authorization: owner.authorization, 'content-type': 'text/csv' },
    body: text,
  },
).then(async (res) => ({ status: res.status, body: await res.text(), ms: ms(t0) }));
const during = await pollHealth(importing);
const imported = await importing;
if (imported.status !== 201)
  throw new Error(`import failed: ${imported.status} ${imported.body.slice(0, 300)}`);

console.log(`\n### /api/health during a ${ROWS}-row participant import over HTTP\n`);
const row = (label: string, l: number[], target = '') => [
  label,
  l.length,
  fmt(quantile(l, 0.5)),
  fmt(quantile(l, 0.99)),
  fmt(l.at(-1) ?? 0),
  target,
];
printTable(
  ['case', 'requests', 'p50 ms', 'p99 ms', 'max ms', 'target'],
  [
    row('baseline: idle server', idle),
    row(`during the import (${fmt(imported.ms)} ms in all)`, during, 'max < 100'),
  ],
);
await app.close();
