import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryDatabase, testConfig } from '../../../test/helpers.ts';
import { createTestUser, type TestUser } from '../../../test/identity-helpers.ts';
import { buildApp } from '../../app.ts';
import type { Database } from '../../db/database.ts';
import { parseCsv } from '../../lib/csv.ts';
import { repoRoot } from '../../paths.ts';
import { F } from '../results/report-builder.ts';
import * as resultsRepo from '../results/repository.ts';
import { importBoston } from '../results/setup.ts';

// Issue 40, privacy by the runner's choice: a runner who hides their name is "Hidden runner" in
// every public view (table, card, search, export, feeds, leaders, stored snapshots), with the same
// ranks; the runner and the organiser still see the name.
const ORG = '00000000-0000-4000-8000-0000000000b1';
const EVENT = 'privacy';
const DB = 'privacy-boston';
const LIVE1 = `/api/results/${EVENT}/groups/boston-2017/reports/LIVE1`;

interface Table {
  rows: unknown[][];
}

describe('privacy by the runner’s choice', () => {
  let database: Database;
  let app: FastifyInstance;
  let runner: TestUser;
  let other: TestUser;
  let owner: TestUser;
  let person: {
    id: string;
    bib: string;
    first_name: string;
    last_name: string;
    tracking_key: string;
    race_id: string;
  };
  let before: unknown[];
  let beforeTable: Table;

  const rowOf = (table: Table) => table.rows.find((r) => r[F.bib] === person.bib)!;
  const setPrivacy = (user: TestUser, id: string, hidden: boolean) =>
    app.inject({
      method: 'PUT',
      url: `/api/me/results/${id}/privacy`,
      headers: { authorization: user.authorization },
      payload: { hidden },
    });

  beforeAll(async () => {
    database = await memoryDatabase();
    app = await buildApp(testConfig({ SEED_DEMO: 'false' }), { database, logger: false });
    await database.query(`INSERT INTO organisations (id, slug, name) VALUES ($1, 'privacy', 'Privacy Org')`, [
      ORG,
    ]);
    await database.query(
      `INSERT INTO events (id, organisation_id, name, start_date, end_date, status)
       VALUES ($1, $2, 'Privacy Marathon', '2017-04-17', '2017-04-17', 'finished')`,
      [EVENT, ORG],
    );
    await database.query('INSERT INTO export_settings (event_id, spectator_exports) VALUES ($1, true)', [
      EVENT,
    ]);
    await resultsRepo.insertContext(database, { db: DB, eventId: EVENT, name: 'Boston' });
    const text = fs.readFileSync(path.join(repoRoot, 'fixtures/boston-2017.csv'), 'utf8');
    const csv = await parseCsv(text.split('\n').slice(0, 201).join('\n'));
    await database.transaction((sql) => importBoston(sql, DB, csv));
    runner = await createTestUser(app);
    other = await createTestUser(app);
    owner = await createTestUser(app, { memberships: [{ organisationId: ORG, role: 'owner' }] });
    const table = (await app.inject(LIVE1)).json() as Table;
    const bib = table.rows[4]![F.bib] as string;
    const found = await database.query<typeof person>(
      `SELECT p.id, p.bib, p.first_name, p.last_name, p.tracking_key, p.race_id FROM participants p
         JOIN races r ON r.id = p.race_id WHERE r.db = $1 AND p.bib = $2`,
      [DB, bib],
    );
    person = found[0]!;
    // What issue 38's entries and a proven claim do: the participant belongs to the account.
    await database.query('UPDATE participants SET account_id = $1 WHERE id = $2', [runner.sub, person.id]);
    before = rowOf(table);
    beforeTable = table;
    expect(String(before[F.name])).toContain(person.last_name.toUpperCase());
    await app.results.snapshotsWritten();
    const stored = await database.query<{ rows: string }>('SELECT rows FROM report_snapshots WHERE db = $1', [
      DB,
    ]);
    expect(stored.some((s) => s.rows.includes(person.last_name.toUpperCase()))).toBe(true);
  }, 120_000);
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('lists my results with my name, and refuses a result that is not mine', async () => {
    const mine = await app.inject({
      url: '/api/me/results',
      headers: { authorization: runner.authorization },
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({
      hideAll: false,
      results: [{ participantId: person.id, bib: person.bib, lastName: person.last_name, hidden: false }],
    });
    const theirs = await app.inject({
      url: '/api/me/results',
      headers: { authorization: other.authorization },
    });
    expect(theirs.json()).toEqual({ hideAll: false, publicSlug: null, results: [], personalBests: [] });
    const refused = await setPrivacy(other, person.id, true);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'RESULT_NOT_FOUND' });
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: `/api/me/results/${person.id}/privacy`,
          payload: { hidden: true },
        })
      ).statusCode,
    ).toBe(401);
    const bad = await app.inject({
      method: 'PUT',
      url: `/api/me/results/${person.id}/privacy`,
      headers: { authorization: runner.authorization },
      payload: { hidden: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    const [row] = await database.query<{ name_hidden: boolean }>(
      'SELECT name_hidden FROM participants WHERE id = $1',
      [person.id],
    );
    expect(row!.name_hidden).toBe(false);
  });

  it('hides the name from every public view, ranks unchanged', async () => {
    expect((await setPrivacy(runner, person.id, true)).statusCode).toBe(204);
    const last = person.last_name.toUpperCase();
    const named = (body: string) => body.toUpperCase().includes(last);

    const table = (await app.inject(LIVE1)).json() as Table;
    const after = rowOf(table);
    expect(after[F.name]).toBe('Hidden runner');
    expect(after[F.club]).toBe('');
    for (const field of [F.rank, F.rankGender, F.rankCategory, F.time, F.category]) {
      expect(after[field]).toEqual(before[field]);
    }

    // Every rank of the table is the same, in the same order.
    const ranks = (t: Table) => t.rows.map((r) => [r[F.bib], r[F.rank], r[F.rankGender], r[F.rankCategory]]);
    expect(ranks(table)).toEqual(ranks(beforeTable));

    const card = await app.inject(`/api/tracking/${person.tracking_key}`);
    expect(card.statusCode).toBe(200);
    expect(named(card.body)).toBe(false);
    expect(card.body).toContain('Hidden runner');

    const search = await app.inject(
      `/api/results/contexts/${DB}/participants?q=${encodeURIComponent(person.last_name)}`,
    );
    expect((search.json() as { bib: string }[]).some((h) => h.bib === person.bib)).toBe(false);
    const byBib = await app.inject(`/api/results/contexts/${DB}/participants/${person.bib}`);
    expect(named(byBib.body)).toBe(false);

    const csv = await app.inject(`/api/exports/${EVENT}/groups/boston-2017/reports/LIVE1?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Coureur masqué');
    expect(named(csv.body)).toBe(false);
    const english = await app.inject(
      `/api/exports/${EVENT}/groups/boston-2017/reports/LIVE1?format=csv&lng=en`,
    );
    expect(english.body).toContain('Hidden runner');

    for (const feed of ['finishers', 'leaders']) {
      const res = await app.inject(`/api/feeds/${DB}/races/${person.race_id}/${feed}?count=50`);
      expect(res.statusCode).toBe(200);
      expect(named(res.body)).toBe(false);
    }
    const leaders = await app.inject(`/api/results/contexts/${DB}/races/${person.race_id}/leaders?count=50`);
    expect(named(leaders.body)).toBe(false);

    // Stored snapshots: the older ones are gone, the next one is written from the projection.
    const kept = await database.query<{ rows: string }>('SELECT rows FROM report_snapshots WHERE db = $1', [
      DB,
    ]);
    expect(kept.some((s) => s.rows.toUpperCase().includes(last))).toBe(false);
    await app.results.snapshotsWritten();
    const rewritten = await database.query<{ rows: string }>(
      'SELECT rows FROM report_snapshots WHERE db = $1',
      [DB],
    );
    expect(rewritten.length).toBeGreaterThan(0);
    expect(rewritten.some((s) => s.rows.toUpperCase().includes(last))).toBe(false);
  });

  it('the runner and the organiser still see the name', async () => {
    const mine = await app.inject({
      url: '/api/me/results',
      headers: { authorization: runner.authorization },
    });
    expect(mine.json()).toMatchObject({ results: [{ lastName: person.last_name, hidden: true }] });
    const grid = await app.inject({
      url: `/api/console/events/${EVENT}/participants?q=${encodeURIComponent(person.bib)}`,
      headers: { authorization: owner.authorization },
    });
    expect(grid.statusCode).toBe(200);
    expect(grid.body).toContain(person.last_name);
  });

  it('shows the name again, and hides every result of the account at once', async () => {
    expect((await setPrivacy(runner, person.id, false)).statusCode).toBe(204);
    expect(rowOf((await app.inject(LIVE1)).json() as Table)[F.name]).toBe(before[F.name]);
    const all = await app.inject({
      method: 'PUT',
      url: '/api/me/privacy',
      headers: { authorization: runner.authorization },
      payload: { hideAll: true },
    });
    expect(all.statusCode).toBe(204);
    expect(rowOf((await app.inject(LIVE1)).json() as Table)[F.name]).toBe('Hidden runner');
    const mine = await app.inject({
      url: '/api/me/results',
      headers: { authorization: runner.authorization },
    });
    expect(mine.json()).toMatchObject({ hideAll: true, results: [{ hidden: true }] });
  });
});
