import fs from 'node:fs';
import { MAX_INGEST_BATCH } from '@tempora/contracts';
import { importBostonTable } from '@tempora/domain';
import type { Database } from '../db/database.ts';
import { parseCsv } from '../lib/csv.ts';
import {
  addParticipants,
  createBostonRace,
  createRace,
  insertPassings,
  type Results,
} from '../modules/results/port.ts';
import {
  DEMO_CATEGORIES,
  DEMO_MARATHON,
  DEMO_TEN_K,
  type DemoRaceSpec,
  type DemoRead,
  demoReads,
  demoRunners,
} from './demo-field.ts';

const DEMO_EVENT = 'demo-city-run';
const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
/** The demo's 10 km (product.md: a newcomer's first start shows a live race). */
export const DEMO_DB = DEMO_TEN_K.db;
export const DEMO_RACE = DEMO_TEN_K.raceId;
export const DEMO_RUNNERS = DEMO_TEN_K.runners;
/** The demo's marathon. */
export const DEMO_MARATHON_DB = DEMO_MARATHON.db;
export const DEMO_MARATHON_RACE = DEMO_MARATHON.raceId;
const DEMO_RACES = [DEMO_TEN_K, DEMO_MARATHON];

/** How the demo replays its races: race time runs `speed` times faster than the wall clock. */
export interface DemoOptions {
  speed: number;
}

/**
 * Seeds the demo's races when the demo event exists and has no such context yet. The 10 km's gun
 * went 3 wall minutes ago and the marathon's 1 minute ago, so a first start opens on races under
 * way; both replay at `speed` (their clock rate, see 0005_race_clock.sql). Returns whether it seeded.
 */
export async function seedDemoRace(
  database: Database,
  now = Date.now(),
  options: DemoOptions = { speed: 1 },
): Promise<boolean> {
  return database.transaction(async (sql) => {
    const event = await sql.query('SELECT 1 FROM events WHERE id = $1', [DEMO_EVENT]);
    if (!event.length) return false;
    let seeded = false;
    for (const [position, spec] of DEMO_RACES.entries()) {
      const inserted = await sql.query(
        'INSERT INTO contexts (db, event_id, name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING db',
        [spec.db, DEMO_EVENT, spec.contextName],
      );
      if (!inserted.length) continue;
      seeded = true;
      await createRace(
        sql,
        spec.db,
        {
          id: spec.raceId,
          name: spec.raceName,
          date: new Date(now).toISOString().slice(0, 10),
          distanceM: spec.distanceM,
          startType: 'mass',
          gunTimeMs: now - (position === 0 ? 3 : 1) * 60_000,
          clockRate: options.speed,
          categories: DEMO_CATEGORIES,
          course: { type: 'LineString', coordinates: spec.points.map((p) => [p.lon, p.lat]) },
          points: spec.points,
        },
        position,
      );
      await addParticipants(
        sql,
        spec.raceId,
        demoRunners(spec).map(({ finishMs: _f, fade: _d, startOffsetMs: _s, lastPoint: _l, ...p }) => p),
      );
    }
    return seeded;
  });
}

/** A demo race as the simulator follows it. */
interface Replay {
  spec: DemoRaceSpec;
  reads: DemoRead[];
  /** Reads before this index are posted (in this process, for the current gun). */
  next: number;
  gun: number | null;
  rate: number;
}

/** Wall minutes between a replay's last read and its restart. */
const REPLAY_PAUSE_MS = 5 * 60_000;

/**
 * The demo's simulated decoders: every 2 s, posts the reads whose race time the race's clock has
 * reached (race time = gun + (wall − gun) × clock rate). Reads have stable ids, so a restart, or
 * a second node posting them too, changes nothing. `REPLAY_PAUSE_MS` after a race's last read it
 * starts again: its reads are deleted (demo reads only: nobody else posts to the demo races) and
 * its gun set a minute ahead, the start list showing meanwhile. A node that sees another one
 * restart a race (its gun moved) reloads that context. Returns `stop`; `tick` is exposed for tests.
 */
export function startDemoSimulator(
  database: Database,
  service: Pick<Results, 'ingest' | 'reload'>,
  log: { warn(o: unknown, m: string): void; info?(m: string): void },
  options: { clock?: () => number; intervalMs?: number } = {},
): { stop(): void; tick(): Promise<void> } {
  const clock = options.clock ?? Date.now;
  const replays: Replay[] = DEMO_RACES.map((spec) => ({
    spec,
    reads: demoReads(spec),
    next: 0,
    gun: null,
    rate: 1,
  }));
  let busy: Promise<void> | null = null;

  async function follow(replay: Replay) {
    const { spec } = replay;
    const rows = await database.query<{ gun: number | null; rate: number }>(
      'SELECT gun_time_ms::float8 AS gun, clock_rate AS rate FROM races WHERE id = $1',
      [spec.raceId],
    );
    const row = rows[0];
    if (!row || row.gun === null) return;
    if (replay.gun !== null && replay.gun !== row.gun) {
      await service.reload(spec.db); // another node restarted the replay
      replay.next = 0;
    }
    replay.gun = row.gun;
    replay.rate = row.rate;
    const now = clock();
    const raceNow = now <= row.gun ? now : row.gun + (now - row.gun) * row.rate;
    let end = replay.next;
    while (end < replay.reads.length && row.gun + replay.reads[end]!.offsetMs <= raceNow) end++;
    for (let from = replay.next; from < end; from += MAX_INGEST_BATCH) {
      const batch = replay.reads.slice(from, Math.min(end, from + MAX_INGEST_BATCH));
      await service.ingest(
        spec.db,
        batch.map((r) => ({ id: r.id, chip: r.chip, pointKey: r.pointKey, timeMs: row.gun! + r.offsetMs })),
        'decoder',
      );
      replay.next = from + batch.length;
    }
    const last = replay.reads[replay.reads.length - 1];
    const lastWall = last ? row.gun + last.offsetMs / row.rate : row.gun;
    if (replay.next >= replay.reads.length && now > lastWall + REPLAY_PAUSE_MS) {
      const gun = Math.round(now) + 60_000;
      const restarted = await database.transaction(async (sql) => {
        const moved = await sql.query(
          'UPDATE races SET gun_time_ms = $1, epoch = epoch + 1 WHERE id = $2 AND gun_time_ms = $3 RETURNING id',
          [gun, spec.raceId, row.gun],
        );
        if (moved.length) await sql.query('DELETE FROM passings WHERE db = $1', [spec.db]);
        return moved.length > 0;
      });
      if (restarted) {
        await service.reload(spec.db);
        replay.gun = gun;
        replay.next = 0;
        log.info?.(`demo: ${spec.raceName} restarts`);
      }
    }
  }

  const tick = async () => {
    if (busy) return busy;
    busy = (async () => {
      for (const replay of replays) {
        try {
          await follow(replay);
        } catch (error) {
          log.warn({ err: error }, 'demo simulator');
        }
      }
    })().finally(() => {
      busy = null;
    });
    return busy;
  };
  const timer = setInterval(() => void tick(), options.intervalMs ?? 2_000);
  timer.unref();
  void tick();
  return { stop: () => clearInterval(timer), tick };
}

/** The Boston Marathon's zone: its times of day are shown on Boston's clock. */
export const BOSTON_TIME_ZONE = 'America/New_York';

/**
 * Imports Boston 2017 as a finished demo event, in the background. PGlite has one connection, so
 * the 264,000 reads go in statements of 5,000 outside one long transaction: the site keeps
 * answering meanwhile. The event turns `finished` only once every read is in; a start that finds
 * it unfinished (a crash mid-import) resumes, the reads' ids making the re-run idempotent.
 */
export async function seedBoston(database: Database, file: string): Promise<boolean> {
  if (!fs.existsSync(file)) return false;
  // Boston runs on Boston's clock (issue 27: a 14:10 finish read "at 20:10:00" in Brussels time);
  // a database seeded before this keeps its event, set right here.
  await database.query(
    `UPDATE events SET time_zone = '${BOSTON_TIME_ZONE}' WHERE id = 'boston-2017' AND time_zone <> '${BOSTON_TIME_ZONE}'`,
  );
  const existing = await database.query<{ status: string }>(
    "SELECT status FROM events WHERE id = 'boston-2017'",
  );
  if (existing[0]?.status === 'finished') return false;
  const imported = importBostonTable(await parseCsv(fs.createReadStream(file)));
  if (!existing.length) {
    const created = await database.transaction(async (sql) => {
      const rows = await sql.query(
        `INSERT INTO events (id, organisation_id, name, place, start_date, end_date, status, time_zone)
         VALUES ('boston-2017', $1, 'Boston Marathon 2017', 'Boston', '2017-04-17', '2017-04-17', 'upcoming', $2)
         ON CONFLICT DO NOTHING RETURNING id`,
        [DEMO_ORG, BOSTON_TIME_ZONE],
      );
      if (!rows.length) return false;
      await sql.query(
        `INSERT INTO contexts (db, event_id, name) VALUES ('boston-2017', 'boston-2017', 'Marathon')`,
      );
      await createBostonRace(sql, 'boston-2017', imported);
      return true;
    });
    if (!created) return false;
  }
  const reads = imported.passings.map((p) => ({ ...p, source: 'import' as const }));
  for (let k = 0; k < reads.length; k += 5_000) {
    await insertPassings(database, 'boston-2017', reads.slice(k, k + 5_000));
  }
  await database.query("UPDATE events SET status = 'finished' WHERE id = 'boston-2017'");
  return true;
}
