import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryDatabase } from '../../../test/helpers.ts';
import type { Database } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { runCli } from './cli.ts';

const FILE = new URL('../../../../../fixtures/boston-2017.csv', import.meta.url).pathname;

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
    expect((await runCli(['import-boston', FILE, '--event', 'nope', '--db', 'x'], database)).out).toContain(
      "no event 'nope'",
    );
  });

  it('imports Boston 2017 with its runners and reads', async () => {
    const result = await runCli(['import-boston', FILE, '--event', 'bos', '--db', 'bos-2017'], database);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/26,?4\d\d runners/);
    const [{ n }] = (await database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM timing_points WHERE race_id = 'boston-2017'",
    )) as [{ n: number }];
    expect(n).toBe(11);
    expect((await runCli(['import-boston', FILE, '--event', 'bos', '--db', 'bos-2017'], database)).code).toBe(
      65,
    );
  }, 120_000);
});
