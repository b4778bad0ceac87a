import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryDatabase } from '../test/helpers.ts';
import { runCli } from './cli.ts';
import type { Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { createRace } from './modules/results/setup.ts';

const FILE = new URL('../../../fixtures/boston-2017.csv', import.meta.url).pathname;
const BOSTON_ARGS = [
  'import-boston',
  FILE,
  '--name',
  'Boston Marathon 2017',
  '--date',
  '2017-04-17',
  '--gun',
  '2017-04-17T10:00:00-04:00',
];

describe('results CLI', () => {
  let database: Database;
  beforeAll(async () => {
    database = await memoryDatabase();
    await migrate(database);
    await database.query(
      `INSERT INTO organisations (id, slug, name) VALUES ('00000000-0000-4000-8000-0000000000c1', 'c', 'C')`,
    );
    await database.query(
      `INSERT INTO events (id, organisation_id, name, start_date, end_date) VALUES ('bos', '00000000-0000-4000-8000-0000000000c1', 'Boston', '2017-04-17', '2017-04-17')`,
    );
  });
  afterAll(() => database.close());

  it('explains its usage and refuses unknown events and files', async () => {
    expect((await runCli([], database)).code).toBe(64);
    expect((await runCli(['import-boston', '/nope.csv', '--event', 'bos', '--db', 'x'], database)).code).toBe(
      66,
    );
    expect((await runCli([...BOSTON_ARGS, '--event', 'nope', '--db', 'x'], database)).out).toContain(
      "no event 'nope'",
    );
  });

  it('imports Boston 2017 with its runners and reads', async () => {
    const result = await runCli([...BOSTON_ARGS, '--event', 'bos', '--db', 'bos-2017'], database);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/26,?4\d\d runners/);
    const [{ n }] = (await database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM timing_points WHERE race_id = 'boston-2017'",
    )) as [{ n: number }];
    expect(n).toBe(10);
    expect((await runCli([...BOSTON_ARGS, '--event', 'bos', '--db', 'bos-2017'], database)).code).toBe(65);
  }, 120_000);

  it('imports participants and passings through a column mapping, all or nothing', async () => {
    await database.query("INSERT INTO contexts (db, event_id, name) VALUES ('bos-5k', 'bos', '5 km')");
    await database.transaction((sql) =>
      createRace(sql, 'bos-5k', {
        id: 'fun-5k',
        name: '5 km',
        date: '2026-05-31',
        distanceM: 5000,
        startType: 'mass',
        gunTimeMs: Date.parse('2026-05-31T09:00:00Z'),
        points: [{ key: 'finish', name: 'Finish', distanceM: 5000 }],
      }),
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tempora-cli-'));
    const people = path.join(dir, 'inscrits.csv');
    fs.writeFileSync(people, 'Dossard;Prénom;Nom;Sexe;Age\n7;Léa;Martin;F;31\n8;Hugo;Roux;M;45\n');
    const map = 'bib=Dossard,firstName=Prénom,lastName=Nom,gender=Sexe,age=Age';
    const args = ['import-participants', people, '--db', 'bos-5k', '--race', 'fun-5k', '--map', map];
    expect(await runCli(args, database)).toEqual({
      code: 0,
      out: "registered 2 participants in race 'fun-5k'",
    });
    // Again: the bibs are taken, nothing changes.
    expect((await runCli(args, database)).out).toContain('already registered: 7, 8');
    expect((await runCli([...args.slice(0, 6), '--map', 'bib=Dossard'], database)).code).toBe(65);

    const reads = path.join(dir, 'arrivee.csv');
    fs.writeFileSync(reads, 'Bib,Heure\n7,09:21:05.3\n8,09:24:40\n');
    const passings = ['import-passings', reads, '--db', 'bos-5k', '--map', 'bib=Bib,time=Heure'];
    const withDay = [...passings, '--point', 'finish', '--day', '2026-05-31'];
    expect((await runCli(withDay, database)).out).toBe("stored 2 passings in 'bos-5k' (0 already there)");
    expect((await runCli(withDay, database)).out).toBe("stored 0 passings in 'bos-5k' (2 already there)");
    // A time of day without --day is a bad row: listed, nothing stored.
    const refused = await runCli([...passings, '--point', 'finish'], database);
    expect(refused.code).toBe(65);
    expect(refused.out).toMatch(/line 2/);
    const stored = await database.query<{ time: number }>(
      "SELECT time_ms::float8 AS time FROM passings WHERE db = 'bos-5k' ORDER BY time_ms",
    );
    expect(stored.map((r) => r.time)).toEqual([
      Date.parse('2026-05-31T09:21:05.300Z'),
      Date.parse('2026-05-31T09:24:40Z'),
    ]);
  });
});
