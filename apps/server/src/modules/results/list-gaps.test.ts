import { foldText } from '@tempora/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';
import { F } from './report-builder.ts';
import * as repo from './repository.ts';
import { hashKey } from './service.ts';

const DEVICE_KEY = 'tdk_list_gaps_device_key_1';
const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
const GROUP = '/api/results/demo-city-run/groups/city-10k/reports';

interface Table {
  rows: unknown[][];
  columns: { FieldIdx: number; Title: { en: string }; Settings: { Format?: string; At?: number } }[];
}

/**
 * Issue 27: a list's gaps are measured from its own leader (the women's list from the first
 * woman, a category's from its first), and a category list shows the overall and gender ranks
 * beside its own instead of repeating it as "Cat. rank".
 */
describe('gaps from the list’s own leader', () => {
  let app: FastifyInstance;
  let gun = 0;
  const get = async (report: string): Promise<Table> => {
    const res = await app.inject(`${GROUP}/${report}`);
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    app = await buildTestApp();
    await repo.insertDevice(app.database, {
      db: DEMO_DB,
      name: 'finish',
      keyHash: hashKey(DEVICE_KEY),
      pointKey: 'finish',
    });
    const [race] = await app.database.query<{ gun: number }>(
      "SELECT gun_time_ms::float8 AS gun FROM races WHERE id = 'city-10k'",
    );
    gun = race!.gun;
    // Men first, so that the first woman is well behind the overall leader.
    const pick = (gender: string) =>
      app.database.query<{ bib: string }>(
        "SELECT bib FROM participants WHERE race_id = 'city-10k' AND gender = $1 ORDER BY bib LIMIT 200",
        [gender],
      );
    const runners = [...(await pick('M')), ...(await pick('F'))];
    const res = await app.inject({
      method: 'POST',
      url: '/api/ingest/passings',
      headers: { 'x-device-key': DEVICE_KEY },
      payload: { passings: runners.map((r, k) => ({ bib: r.bib, time: gun + 2_000_000 + k * 4_321 })) },
    });
    expect(res.json().accepted).toBe(runners.length);
  });
  afterAll(() => app.close());

  /** Ranked rows (the demo has DNS runners, who take no rank and no gap). */
  const finishers = (table: Table) => table.rows.filter((r) => /^\d+$/.test(String(r[F.rank])));
  /** Every row's gap is its time minus the first row's, as shown (whole seconds). */
  const expectGapsFromFirst = (rows: unknown[][]) => {
    const s = (ms: unknown) => Math.floor(Number(ms) / 1000) * 1000;
    expect(rows.length).toBeGreaterThan(2);
    expect(rows[0]![F.gap]).toBe(0);
    for (const row of rows) expect(row[F.gap]).toBe(s(row[F.time]) - s(rows[0]![F.time]));
  };

  it('the women’s list: its first woman has no gap, every other is behind her', async () => {
    const overall = finishers(await get('LIVE1'));
    const women = finishers(await get('LIVE2'));
    expect(overall[0]![F.bib]).not.toBe(women[0]![F.bib]);
    expect(Number(women[0]![F.rankOverall])).toBeGreaterThan(1);
    expectGapsFromFirst(women);
    expectGapsFromFirst(overall);
    const gap = (await get('LIVE2')).columns.find((c) => c.FieldIdx === F.gap);
    expect(gap?.Settings.Format).toBe('gap');
    // Issue 43: a gap says where it was measured, from the same field as the running time's point.
    expect(gap?.Settings.At).toBe(F.at);
  });

  it('a category list: gaps from its first, its rank beside the overall and gender ranks', async () => {
    const list = await app.inject('/api/results/demo-city-run/reportlist');
    const keys = (list.json().groups[0].reports as { key: string }[])
      .map((r) => r.key)
      .filter((k) => k.startsWith('CAT-'));
    let checked = 0;
    for (const key of keys) {
      const table = await get(key);
      const rows = finishers(table);
      if (rows.length < 3) continue;
      expectGapsFromFirst(rows);
      const titles = table.columns.map((c) => c.Title.en);
      expect(titles).not.toContain('Cat. rank');
      expect(titles.slice(titles.indexOf('Rank'), titles.indexOf('Rank') + 3)).toEqual([
        'Rank',
        'Overall',
        'Gender',
      ]);
      // The list's rank is the category rank; the overall rank differs from it below the first.
      expect(rows.map((r) => r[F.rank])).toEqual(rows.map((r) => String(r[F.rankCategory])));
      expect(rows.some((r) => String(r[F.rankOverall]) !== r[F.rank])).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('exports write the list’s gaps one way: blank for its leader, then +m:ss', async () => {
    const { authorization } = await createTestUser(app, {
      memberships: [{ organisationId: DEMO_ORG, role: 'owner' }],
    });
    const res = await app.inject({
      url: '/api/exports/demo-city-run/groups/city-10k/reports/LIVE2?format=csv',
      headers: { authorization },
    });
    expect(res.statusCode).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[1]).toMatch(/^1;/);
    const head = lines[0]!.split(';');
    const at = head.findIndex((h) => /^(Gap|Écart)$/.test(h.replace(/"/g, '')));
    const gaps = lines.slice(1, 6).map((l) => l.split(';')[at]!.replace(/"/g, ''));
    expect(gaps[0]).toBe('');
    // A gap cell starts with '+': the export neutralises it as a spreadsheet formula (OWASP).
    for (const g of gaps.slice(1)) expect(g).toMatch(/^'?\+\d+:\d\d$/);
  });

  it('the report API’s q searches as the page does: accent-blind, a number a bib (exact, then prefix)', async () => {
    const [accented] = await app.database.query<{ last_name: string }>(
      "SELECT last_name FROM participants WHERE race_id = 'city-10k' AND last_name ~ '[^ -~]' ORDER BY bib LIMIT 1",
    );
    const name = accented!.last_name;
    const folded = foldText(name);
    expect(folded).not.toBe(name.toLowerCase());
    const byName = (await (
      await app.inject(`${GROUP}/START?q=${encodeURIComponent(folded)}`)
    ).json()) as Table;
    expect(byName.rows.length).toBeGreaterThan(0);
    for (const row of byName.rows) expect(foldText(row.join(' '))).toContain(folded);
    const byBib = (await (await app.inject(`${GROUP}/START?q=117`)).json()) as Table;
    const bibs = byBib.rows.map((r) => String(r[0]));
    expect(bibs[0]).toBe('117');
    for (const bib of bibs) expect(bib.startsWith('117')).toBe(true);
  });

  it('a club list (an organiser’s filter): gaps from the club’s first, also after a live change', async () => {
    const { authorization } = await createTestUser(app, {
      memberships: [{ organisationId: DEMO_ORG, role: 'owner' }],
    });
    const [top] = await app.database.query<{ club: string }>(
      `SELECT club FROM participants WHERE race_id = 'city-10k' AND club <> '' AND bib IN
         (SELECT bib FROM participants WHERE race_id = 'city-10k' ORDER BY bib LIMIT 400)
       GROUP BY club ORDER BY count(*) DESC LIMIT 1`,
    );
    const created = await app.inject({
      method: 'POST',
      url: '/api/console/races/city-10k/reports',
      headers: { authorization },
      payload: {
        key: 'CLUBX',
        name: { en: 'Club', fr: 'Club' },
        kind: 'ranking',
        filter: { club: top!.club },
      },
    });
    expect(created.statusCode).toBe(201);
    const club = finishers(await get('CLUBX'));
    const overall = finishers(await get('LIVE1'));
    expect(club[0]![F.bib]).not.toBe(overall[0]![F.bib]);
    expectGapsFromFirst(club);
    // A club member not yet in finishes faster than the club's first: every gap moves with him.
    const [late] = await app.database.query<{ bib: string }>(
      `SELECT bib FROM participants WHERE race_id = 'city-10k' AND club = $1 AND bib NOT IN
         (SELECT bib FROM participants WHERE race_id = 'city-10k' ORDER BY bib LIMIT 400) LIMIT 1`,
      [top!.club],
    );
    const read = await app.inject({
      method: 'POST',
      url: '/api/ingest/passings',
      headers: { 'x-device-key': DEVICE_KEY },
      payload: { passings: [{ bib: late!.bib, time: gun + 1_990_000 }] },
    });
    expect(read.json().accepted).toBe(1);
    const after = finishers(await get('CLUBX'));
    expect(after[0]![F.bib]).toBe(late!.bib);
    expectGapsFromFirst(after);
  });
});
