import fs from 'node:fs';
import { importBostonCsv, type Participant } from '@tempora/domain';
import type { Database } from '../../db/database.ts';
import { insertPassings } from './repository.ts';
import type { ResultsService } from './service.ts';
import { addParticipants, createBostonRace, createRace } from './setup.ts';

/** The demo's live 10 km (product.md: a newcomer's first start shows a live race). */
export const DEMO_DB = 'demo-city-run-10k';
export const DEMO_RACE = 'city-10k';
const DEMO_EVENT = 'demo-city-run';
const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
const RUNNERS = 300;

const FIRST = [
  'Emma',
  'Louis',
  'Olivia',
  'Arthur',
  'Mila',
  'Noah',
  'Lina',
  'Jules',
  'Alice',
  'Adam',
  'Elena',
  'Victor',
  'Sofia',
  'Lucas',
  'Nora',
  'Hugo',
  'Julia',
  'Liam',
  'Zoé',
  'Gabriel',
];
const LAST = [
  'Peeters',
  'Janssens',
  'Maes',
  'Jacobs',
  'Dubois',
  'Lambert',
  'Martin',
  'Claes',
  'Goossens',
  'Wouters',
  'Dupont',
  'Leroy',
  'Mertens',
  'Willems',
  'Renard',
  'Simon',
  'Laurent',
  'Smets',
  'Michel',
  'Lemaire',
];
const CLUBS = [
  'RC Bruxelles',
  'Daring Running',
  'AC Waterloo',
  'Les Gazelles',
  'Brussels Runners',
  '',
  'CA Woluwe',
  '',
];
const NATIONS = ['BEL', 'BEL', 'BEL', 'FRA', 'NED', 'GER', 'ITA', 'ESP', 'GBR', 'KEN'];
/** Points along the canal and the park (lat/lon for the course map). */
const POINTS = [
  { key: 'start', name: 'Start', distanceM: 0, isStart: true, lat: 50.8467, lon: 4.3525 },
  { key: '2k5', name: '2.5 km', distanceM: 2500, lat: 50.8549, lon: 4.3378 },
  { key: '5k', name: '5 km', distanceM: 5000, lat: 50.8412, lon: 4.3234 },
  { key: '7k5', name: '7.5 km', distanceM: 7500, lat: 50.8336, lon: 4.3512 },
  { key: 'finish', name: 'Finish', distanceM: 10_000, lat: 50.8443, lon: 4.3617 },
];

/** A small deterministic generator, so every node simulates the same race. */
function mulberry(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function demoRunners(): (Participant & { paceMsPerKm: number; fade: number })[] {
  const random = mulberry(42);
  return Array.from({ length: RUNNERS }, (_, k) => {
    const gender = random() < 0.45 ? ('F' as const) : ('M' as const);
    const age = 18 + Math.floor(random() * 50);
    return {
      bib: String(101 + k),
      chips: [`C${String(101 + k).padStart(5, '0')}`],
      firstName: FIRST[Math.floor(random() * FIRST.length)]!,
      lastName: LAST[Math.floor(random() * LAST.length)]!,
      gender,
      age,
      nationality: NATIONS[Math.floor(random() * NATIONS.length)]!,
      club: CLUBS[Math.floor(random() * CLUBS.length)]!,
      status: random() < 0.02 ? ('DNS' as const) : ('registered' as const),
      paceMsPerKm: Math.round((gender === 'F' ? 230_000 : 200_000) + random() * 200_000),
      fade: 1 + random() * 0.08,
    };
  });
}

/** Seeds the demo race when the demo event exists and has no context yet; returns the gun time. */
export async function seedDemoRace(database: Database, now = Date.now()): Promise<boolean> {
  return database.transaction(async (sql) => {
    const event = await sql.query('SELECT 1 FROM events WHERE id = $1', [DEMO_EVENT]);
    if (!event.length) return false;
    const inserted = await sql.query(
      `INSERT INTO contexts (db, event_id, name) VALUES ($1, $2, 'Demo City Run 10 km') ON CONFLICT DO NOTHING RETURNING db`,
      [DEMO_DB, DEMO_EVENT],
    );
    if (!inserted.length) return false;
    const date = new Date(now).toISOString().slice(0, 10);
    await createRace(sql, DEMO_DB, {
      id: DEMO_RACE,
      name: '10 km',
      date,
      distanceM: 10_000,
      startType: 'mass',
      // The gun went 12 minutes before the first start, so the demo opens on a race under way.
      gunTimeMs: now - 12 * 60_000,
      categories: [
        { id: 'SEF', name: 'Seniors F', gender: 'F', maxAge: 39 },
        { id: 'V1F', name: 'Masters F', gender: 'F', minAge: 40 },
        { id: 'SEM', name: 'Seniors M', gender: 'M', maxAge: 39 },
        { id: 'V1M', name: 'Masters M', gender: 'M', minAge: 40 },
      ],
      course: { type: 'LineString', coordinates: POINTS.map((p) => [p.lon, p.lat]) },
      points: POINTS,
    });
    await addParticipants(
      sql,
      DEMO_RACE,
      demoRunners().map(({ paceMsPerKm: _p, fade: _f, ...p }) => p),
    );
    return true;
  });
}

/**
 * Posts the demo race's reads as the clock reaches them (a decoder at each mat), every 2 s. Reads
 * have stable ids, so a restart or a second node re-posting them changes nothing.
 */
export function startDemoSimulator(
  database: Database,
  service: ResultsService,
  log: { warn(o: unknown, m: string): void },
) {
  const runners = demoRunners();
  let gun: number | null = null;
  let busy = false;
  /** Reads already posted by this process (a restart re-posts the last 10 minutes once: idempotent). */
  const posted = new Set<string>();
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      if (gun === null) {
        const rows = await database.query<{ gun: number | null }>(
          'SELECT gun_time_ms::float8 AS gun FROM races WHERE id = $1',
          [DEMO_RACE],
        );
        gun = rows[0]?.gun ?? null;
        if (gun === null) return;
      }
      const now = Date.now();
      const due: { id: string; chip: string; pointKey: string; timeMs: number }[] = [];
      runners.forEach((r, k) => {
        if (r.status !== 'registered') return;
        const startOffset = 3_000 + (k % 60) * 1_000;
        for (const p of POINTS) {
          const t = Math.round(
            gun! +
              startOffset +
              (p.distanceM / 1000) * r.paceMsPerKm * (1 + (r.fade - 1) * (p.distanceM / 10_000)),
          );
          const id = `demo-${r.bib}-${p.key}`;
          if (t <= now && t > now - 10 * 60_000 && !posted.has(id))
            due.push({ id, chip: r.chips![0]!, pointKey: p.key, timeMs: t });
        }
      });
      if (due.length) {
        await service.ingest(DEMO_DB, due, 'decoder');
        for (const d of due) posted.add(d.id);
      }
    } catch (error) {
      log.warn({ err: error }, 'demo simulator');
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), 2_000);
  timer.unref();
  void tick();
  return () => clearInterval(timer);
}

/**
 * Imports Boston 2017 as a finished demo event, in the background. PGlite has one connection, so
 * the 264,000 reads go in statements of 5,000 outside one long transaction: the site keeps
 * answering meanwhile. The event turns `finished` only once every read is in; a start that finds
 * it unfinished (a crash mid-import) resumes, the reads' ids making the re-run idempotent.
 */
export async function seedBoston(database: Database, file: string): Promise<boolean> {
  if (!fs.existsSync(file)) return false;
  const existing = await database.query<{ status: string }>(
    "SELECT status FROM events WHERE id = 'boston-2017'",
  );
  if (existing[0]?.status === 'finished') return false;
  const csv = fs.readFileSync(file, 'utf8');
  const imported = importBostonCsv(csv);
  if (!existing.length) {
    const created = await database.transaction(async (sql) => {
      const rows = await sql.query(
        `INSERT INTO events (id, organisation_id, name, place, start_date, end_date, status)
         VALUES ('boston-2017', $1, 'Boston Marathon 2017', 'Boston', '2017-04-17', '2017-04-17', 'upcoming')
         ON CONFLICT DO NOTHING RETURNING id`,
        [DEMO_ORG],
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
