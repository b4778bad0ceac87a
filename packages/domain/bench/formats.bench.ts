/**
 * Race formats benchmark (issue 31): a full recompute of a 24-hour race of 500 runners × 200 laps
 * (100,000 lap reads, plus 10 % re-reads inside the minimum lap time) beside the road race's
 * full recompute (Boston 2017, 26,410 runners × 10 points), measured in the same run; then a
 * backyard of the same size, a 2,000-athlete triathlon and a 1,000-team relay.
 * Run: npm run bench -- formats   (or npx tsx packages/domain/bench/formats.bench.ts)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { computeLapRace, type LapRaceDefinition } from '../src/formats/laps.ts';
import { computeMultisport, type MultisportDefinition } from '../src/formats/multisport.ts';
import { computeRelay, type RelayDefinition, type RelayTeam } from '../src/formats/relay.ts';
import { importBostonTable } from '../src/results/boston-import.ts';
import { computeResults } from '../src/results/compute.ts';
import { defaultRules, type Participant, type Passing } from '../src/results/types.ts';
import { readCsv } from '../test/read-csv.ts';

interface Row {
  readonly case: string;
  readonly ms: number;
  readonly note?: string;
}

const START = Date.UTC(2026, 5, 6, 10, 0, 0);
const HOUR = 3_600_000;

/** A seeded generator (mulberry32), so that every run builds the same race. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], rnd: () => number): T[] {
  for (let k = items.length - 1; k > 0; k--) {
    const j = Math.floor(rnd() * (k + 1));
    [items[k], items[j]] = [items[j]!, items[k]!];
  }
  return items;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

function timeRuns(runs: number, warmup: number, fn: () => unknown): number[] {
  for (let k = 0; k < warmup; k++) fn();
  const times: number[] = [];
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b);
}

const people = (n: number): Participant[] =>
  Array.from({ length: n }, (_, i) => ({
    bib: String(i + 1),
    chips: [`C${i + 1}`],
    firstName: 'F',
    lastName: `L${i}`,
    gender: i % 2 ? 'F' : 'M',
    age: 20 + (i % 50),
    status: 'registered',
  }));

/** 500 runners × 200 laps of a 1 km loop in 24 h (a lap every 6–8.5 min), 10 % re-reads. */
function lapRace(backyard: boolean) {
  const rnd = random(backyard ? 7 : 24);
  const participants = people(500);
  const passings: Passing[] = [];
  for (const p of participants) {
    let t = START;
    const pace = 360_000 + rnd() * 150_000;
    for (let lap = 0; lap < 200; lap++) {
      t = backyard ? START + lap * 420_000 + pace * 0.9 : t + pace * (0.9 + rnd() * 0.2);
      const at = Math.round(t);
      passings.push({ id: `${p.bib}-${lap}`, bib: p.bib, pointId: 'loop', timeMs: at, source: 'decoder' });
      if (rnd() < 0.1)
        passings.push({
          id: `${p.bib}-${lap}-r`,
          chip: p.chips![0],
          pointId: 'loop',
          timeMs: at + 800,
          source: 'decoder',
        });
    }
  }
  return { participants, passings: shuffle(passings, rnd) };
}

function formatRows(): Row[] {
  const rows: Row[] = [];
  const bostonText = readFileSync(
    fileURLToPath(new URL('../../../fixtures/boston-2017.csv', import.meta.url)),
    'utf8',
  );
  const boston = importBostonTable(readCsv(bostonText));
  const road = timeRuns(20, 5, () =>
    computeResults(boston.race, boston.participants, boston.passings, defaultRules),
  );
  rows.push({
    case: 'road race: full recompute, Boston 2017 (p50)',
    ms: quantile(road, 0.5),
    note: `${boston.participants.length} runners, ${boston.passings.length} passings; min ${road[0]!.toFixed(1)}`,
  });

  const day = lapRace(false);
  const race24: LapRaceDefinition = {
    startMs: START,
    lapPointId: 'loop',
    minLapMs: 120_000,
    lapLengthM: 1000,
    limitMs: 24 * HOUR,
    partialLap: 'measured',
  };
  const live = START + 20 * HOUR;
  const t24 = timeRuns(20, 5, () => computeLapRace(race24, day.participants, day.passings, { nowMs: live }));
  const check = computeLapRace(race24, day.participants, day.passings, { nowMs: live });
  rows.push({
    case: '24 h race: full recompute, 500 × 200 laps (p50)',
    ms: quantile(t24, 0.5),
    note: `${day.passings.length} reads; leader ${check.leaderLaps} laps at hour 20; min ${t24[0]!.toFixed(1)}`,
  });

  const yard = lapRace(true);
  const backyard: LapRaceDefinition = {
    startMs: START,
    lapPointId: 'loop',
    minLapMs: 120_000,
    lapLengthM: 1000,
    backyardIntervalMs: 420_000,
  };
  const tb = timeRuns(20, 5, () => computeLapRace(backyard, yard.participants, yard.passings));
  rows.push({
    case: 'backyard: full recompute, 500 × 200 laps (p50)',
    ms: quantile(tb, 0.5),
    note: `${yard.passings.length} reads`,
  });

  const rnd = random(3);
  const athletes = people(2000);
  const tri: MultisportDefinition = {
    date: '2026-06-06',
    categories: [
      { id: 'M', name: 'M', gender: 'M' },
      { id: 'F', name: 'F', gender: 'F' },
    ],
    startMs: START,
    legs: ['swim', 't1', 'bike', 't2', 'run'].map((id, k) => ({
      id,
      name: id,
      kind: k % 2 ? 'transition' : 'discipline',
      endPointId: id,
    })),
  };
  const triReads: Passing[] = athletes.flatMap((p) => {
    let t = START;
    return [1_800_000, 180_000, 4_000_000, 90_000, 2_700_000].map((leg, k) => {
      t += leg * (0.7 + rnd() * 0.6);
      return {
        id: `${p.bib}-${k}`,
        bib: p.bib,
        pointId: tri.legs[k]!.endPointId,
        timeMs: Math.round(t),
        source: 'decoder' as const,
      };
    });
  });
  const tt = timeRuns(20, 5, () => computeMultisport(tri, athletes, triReads));
  rows.push({
    case: 'triathlon: full recompute, 2,000 × 5 legs (p50)',
    ms: quantile(tt, 0.5),
    note: `${triReads.length} reads`,
  });

  const relay: RelayDefinition = {
    date: '2026-06-06',
    categories: [],
    startMs: START,
    legs: [0, 1, 2, 3].map((k) => ({
      id: `l${k}`,
      name: `L${k}`,
      endPointId: k === 3 ? 'finish' : 'exchange',
      massStartMs: k === 3 ? START + 2 * HOUR : undefined,
    })),
  };
  const teams: RelayTeam[] = people(1000).map((p) => ({
    bib: p.bib,
    name: p.lastName,
    gender: 'X',
    status: 'registered',
    members: [0, 1, 2, 3].map((leg) => ({ leg, name: `${p.bib}-${leg}` })),
  }));
  const relayReads: Passing[] = teams.flatMap((team) => {
    let t = START;
    return relay.legs.map((leg, k) => {
      t += 1_800_000 * (0.7 + rnd() * 0.6);
      return {
        id: `${team.bib}-${k}`,
        bib: team.bib,
        pointId: leg.endPointId,
        timeMs: Math.round(t),
        source: 'decoder' as const,
      };
    });
  });
  const tr = timeRuns(20, 5, () => computeRelay(relay, teams, relayReads));
  rows.push({
    case: 'relay: full recompute, 1,000 teams × 4 legs (p50)',
    ms: quantile(tr, 0.5),
    note: `${relayReads.length} reads`,
  });
  return rows;
}

function printTable(rows: readonly Row[]): void {
  const base = rows[0]?.ms ?? Number.NaN;
  console.log('| case | ms | × road race | note |');
  console.log('|---|---:|---:|---|');
  for (const row of rows) {
    console.log(`| ${row.case} | ${row.ms.toFixed(2)} | ${(row.ms / base).toFixed(2)} | ${row.note ?? ''} |`);
  }
}

printTable(formatRows());
