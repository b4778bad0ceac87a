/**
 * Connector benchmark (issue 15): reads per second through each TCP device connector, each read
 * acknowledged (or counted) only once durably stored through the results service, with the raw
 * HTTP ingest (`POST /api/ingest/passings` over a real socket, 1,000 reads per request) as the
 * baseline in the same run. Devices are the test simulators (../src/modules/devices/testing),
 * speaking each vendor's protocol over loopback TCP:
 * - RaceResult decoder in push mode (`#P;…` lines, Tempora connected to it),
 * - Wiclax generic acquisition (tag report lines, Tempora connected to it),
 * - MYLAPS Timing & Scoring (Passing frames of 50, each answered AckPassing once stored),
 * - ChronoTrack (CT01_33 lines streamed after `start`).
 * Each connector runs twice, interleaved: every received chunk stored on its own (how the
 * connectors stored before), then the chunks received while storing joined into one store
 * (`OrderedQueue`, now) — before and after in one run. The baseline runs first and last.
 * A 27,000-runner race on PGlite on disk (or DATABASE_URL). Run: npm run bench -- connectors
 */
import { performance } from 'node:perf_hooks';
import type { Participant } from '@tempora/domain';
import { OrderedQueue } from '../src/modules/devices/connectors/ordered-queue.ts';
import { upsertConnector } from '../src/modules/devices/repository.ts';
import {
  ChronoTrackSim,
  MylapsSim,
  RaceResultDecoderSim,
  WiclaxDeviceSim,
} from '../src/modules/devices/testing/simulators.ts';
import * as repo from '../src/modules/results/repository.ts';
import { hashKey } from '../src/modules/results/service.ts';
import { addParticipants, createRace } from '../src/modules/results/setup.ts';
import { benchApp, printTable } from './bench-setup.ts';

const RUNNERS = 27_000;
const READS = Number(process.env.BENCH_CONNECTOR_READS ?? 20_000);
const GUN = Date.UTC(2026, 4, 31, 8, 0, 0);
const POINTS = ['p1', 'p2', 'p3', 'p4', 'p5'];

// The simulated devices run on loopback; MYLAPS and ChronoTrack listen on a port of 30000-49999.
const { app } = await benchApp({ DEVICE_ALLOW_LOOPBACK: 'true', DEVICE_LISTEN_PORTS: '30000-49999' });
await app.database.query(`INSERT INTO contexts (db, event_id, name) VALUES ('bench', 'bench', 'Bench')`);
await app.database.transaction(async (sql) => {
  await createRace(sql, 'bench', {
    id: 'bench-race',
    name: 'Bench',
    date: '2026-05-31',
    distanceM: 25_000,
    startType: 'mass',
    gunTimeMs: GUN,
    points: POINTS.map((key, k) => ({ key, name: key, distanceM: (k + 1) * 5000 })),
  });
  const people: Participant[] = Array.from({ length: RUNNERS }, (_, i) => ({
    bib: String(i + 1),
    chips: [`C${i + 1}`],
    firstName: 'Runner',
    lastName: `N${i + 1}`,
    gender: i % 2 ? 'F' : 'M',
    age: 20 + (i % 50),
    status: 'registered',
  }));
  await addParticipants(sql, 'bench-race', people);
});
await app.listen({ port: 0, host: '127.0.0.1' });
const { port: httpPort } = app.server.address() as { port: number };
const manager = app.raceday.manager;

/** A device with its connector; returns its id. */
async function device(
  name: string,
  c: { kind: string; pointKey: string; host?: string; port?: number; listenPort?: number },
) {
  const id = await repo.insertDevice(app.database, {
    db: 'bench',
    name,
    keyHash: hashKey(`tdk_${name}_0123456789`),
    pointKey: c.pointKey,
  });
  await upsertConnector(app.database, {
    deviceId: id,
    db: 'bench',
    kind: c.kind as 'raceresult',
    host: c.host ?? null,
    port: c.port ?? null,
    listenPort: c.listenPort ?? null,
    clockOffsetMs: 0,
    enabled: true,
    pointMap: {},
  });
  await manager.reload();
  return id;
}

/** Read k at a point; each round of a case shifts the times (new passings, never duplicates). */
let round = 0;
const read = (k: number, point: number) => ({
  chip: `C${(k % RUNNERS) + 1}`,
  ms: GUN + (point + 1) * 1_200_000 + k * 37 + round * 10,
});

async function until(check: () => boolean, ms = 300_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('bench timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Reads/s from the first read sent until the last is stored. */
async function measure(
  name: string,
  id: string,
  send: () => void | Promise<void>,
  done?: () => Promise<void>,
) {
  const status = manager.status(id);
  const before = status.readsStored;
  const t0 = performance.now();
  await send();
  if (done) await done();
  else await until(() => status.readsStored - before >= READS);
  const seconds = (performance.now() - t0) / 1000;
  return { name, rate: READS / seconds };
}

// Warm-up: the context's live state loaded, the code paths compiled.
await fetch(`http://127.0.0.1:${httpPort}/api/ingest/passings`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-device-key': 'tdk_http_0123456789' },
  body: JSON.stringify({ passings: [] }),
}).catch(() => undefined);
await app.results.state('bench');

const results: { name: string; rate: number }[] = [];

// Baseline: raw HTTP ingest, 1,000 reads a request, over a real socket.
async function baseline(name: string) {
  const key = `tdk_http_baseline_${round}_0123456789`;
  await repo.insertDevice(app.database, {
    db: 'bench',
    name: `http${round}`,
    keyHash: hashKey(key),
    pointKey: 'p5',
  });
  const t0 = performance.now();
  for (let b = 0; b < READS / 1000; b++) {
    const passings = Array.from({ length: 1000 }, (_, k) => {
      const r = read(b * 1000 + k, 4);
      return { chip: r.chip, time: r.ms };
    });
    const res = await fetch(`http://127.0.0.1:${httpPort}/api/ingest/passings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-key': key },
      body: JSON.stringify({ passings }),
    });
    if (!res.ok) throw new Error(await res.text());
  }
  results.push({
    name,
    rate: READS / ((performance.now() - t0) / 1000),
  });
}
await baseline('baseline: POST /api/ingest/passings (HTTP, 1,000 per request)');

// RaceResult decoder, push mode: Tempora connected, caught up, then the decoder pushes every read.
async function rr(mode: string) {
  const sim = await new RaceResultDecoderSim().start();
  const id = await device(`rr${round}`, {
    kind: 'raceresult',
    host: '127.0.0.1',
    port: sim.port,
    pointKey: 'p1',
  });
  await until(() => sim.commands.includes('SETPUSHPASSINGS;1;0'));
  results.push(
    await measure(`RaceResult decoder (Tempora connects, #P push), ${mode}`, id, () => {
      for (let k = 0; k < READS; k++) {
        const r = read(k, 0);
        sim.add(r.chip, r.ms);
      }
    }),
  );
  await sim.stop();
}

// Wiclax: Tempora connected; the device sends its tag reports.
async function wiclax(mode: string) {
  const sim = await new WiclaxDeviceSim().start();
  const id = await device(`wiclax${round}`, {
    kind: 'wiclax',
    host: '127.0.0.1',
    port: sim.port,
    pointKey: 'p2',
  });
  await until(() => sim.commands.includes('STARTREAD'));
  results.push(
    await measure(`Wiclax acquisition (Tempora connects), ${mode}`, id, () => {
      for (let k = 0; k < READS; k++) {
        const r = read(k, 1);
        sim.read(r.chip, r.ms);
      }
    }),
  );
  await sim.stop();
}

// MYLAPS: the software connects to Tempora and pushes frames of 50 passings, each acknowledged once stored.
async function mylaps(mode: string) {
  const listenPort = 30_000 + Math.floor(Math.random() * 20_000);
  const id = await device(`mylaps${round}`, { kind: 'mylaps', listenPort, pointKey: 'p3' });
  const sim = await new MylapsSim(manager.connector(id)!.port!, 'Bench').connect();
  results.push(
    await measure(
      `MYLAPS Timing & Scoring (connects to Tempora, AckPassing per frame of 50), ${mode}`,
      id,
      () => {
        for (let f = 0; f < READS / 50; f++)
          sim.passing(Array.from({ length: 50 }, (_, k) => read(f * 50 + k, 2)));
      },
      () => sim.settled(300_000),
    ),
  );
  sim.close();
}

// ChronoTrack: the client connects to Tempora and streams after `start`.
async function chrono(mode: string) {
  const listenPort = 30_000 + Math.floor(Math.random() * 20_000);
  const id = await device(`chrono${round}`, { kind: 'chronotrack', listenPort, pointKey: 'p4' });
  const sim = new ChronoTrackSim(manager.connector(id)!.port!, 'BENCH');
  for (let k = 0; k < READS; k++) {
    const r = read(k, 3);
    sim.reads.push({ chip: r.chip, ms: Math.floor(r.ms / 10) * 10 });
  }
  results.push(
    await measure(`ChronoTrack (connects to Tempora, CT01_33 stream), ${mode}`, id, () =>
      sim.connect().then(() => undefined),
    ),
  );
  sim.drop();
}

// Each TCP connector twice, the two ways interleaved: every received chunk stored on its own
// (before the connectors joined what arrives while storing), then joined (OrderedQueue).
for (const run of [rr, wiclax, mylaps, chrono]) {
  for (const joining of [false, true]) {
    OrderedQueue.joining = joining;
    round++;
    await run(joining ? 'chunks joined while storing' : 'each chunk stored alone');
  }
}
OrderedQueue.joining = true;
round++;
await baseline("baseline again, last (how the machine's load moved during the run)");

const base = results[0]!.rate;
printTable(
  ['case', 'reads/s', 'vs baseline'],
  results.map((r) => [r.name, Math.round(r.rate), `${(r.rate / base).toFixed(2)}×`]),
);
const stored = await app.database.query<{ n: number }>(
  "SELECT count(*)::float8 AS n FROM passings WHERE db = 'bench'",
);
console.log(
  `\n${READS} reads per case on ${app.database.kind}, ${RUNNERS} runners; ${stored[0]!.n} passings stored in all.`,
);
await app.close();
