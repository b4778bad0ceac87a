import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';

const ORG = '00000000-0000-4000-8000-0000000000b1';
const EVENT = 'grid-run';
const DB = 'grid-run-2026';
const base = `/api/console/events/${EVENT}`;

/** Issue 29: the participants grid's chips, bulk edit and export. */
describe('participants grid: chips, bulk edit, export (issue 29)', () => {
  let app: FastifyInstance;
  const auth = { staff: '', timekeeper: '' };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    app = await buildTestApp({ SEED_DEMO: 'false' });
    await app.database.query(`INSERT INTO organisations (id, slug, name) VALUES ($1, 'grid', 'Grid')`, [ORG]);
    await app.database.query(
      `INSERT INTO events (id, organisation_id, name, start_date, end_date) VALUES ($1, $2, 'Grid Run', '2026-09-06', '2026-09-06')`,
      [EVENT, ORG],
    );
    for (const role of ['staff', 'timekeeper'] as const)
      auth[role] = (
        await createTestUser(app, { memberships: [{ organisationId: ORG, role }] })
      ).authorization;
    await inject('staff', 'POST', `/api/results/events/${EVENT}/contexts`, { db: DB, name: '2026' });
    for (const [id, name] of [
      ['ten', '10 km'],
      ['five', '5 km'],
    ])
      expect(
        (
          await inject('staff', 'POST', `/api/results/contexts/${DB}/races`, {
            id,
            name,
            date: '2026-09-06',
            distanceM: 10_000,
            startType: 'mass',
            gunTimeMs: Date.UTC(2026, 8, 6, 8),
            points: [{ key: 'finish', name: 'Finish', distanceM: 10_000 }],
          })
        ).statusCode,
      ).toBe(201);
    const runners = [
      { bib: '1', firstName: 'Ann', lastName: 'Aubry', gender: 'F', birthDate: '1985-03-02', chips: ['C1'] },
      { bib: '2', firstName: 'Bob', lastName: 'Bertin', gender: 'M', club: 'Namur AC' },
      { bib: '3', firstName: 'Cleo', lastName: 'Colin', gender: 'F' },
    ];
    for (const r of runners) {
      const res = await inject('staff', 'POST', `${base}/participants`, { raceId: 'ten', ...r });
      expect(res.statusCode).toBe(201);
      ids[r.bib] = res.json().id;
    }
    // Bib 3 is also taken in the 5 km; bib 2 has a passing.
    await inject('staff', 'POST', `${base}/participants`, {
      raceId: 'five',
      bib: '3',
      firstName: 'Dan',
      lastName: 'Dumont',
      gender: 'M',
    });
    await inject('staff', 'POST', `/api/results/contexts/${DB}/passings`, {
      passings: [{ bib: '2', point: 'finish', time: Date.UTC(2026, 8, 6, 9) }],
    });
  }, 300_000);
  afterAll(() => app?.close());

  function inject(
    who: keyof typeof auth | null,
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: unknown,
  ) {
    return app.inject({
      method,
      url,
      headers: who ? { authorization: auth[who] } : {},
      ...(payload === undefined ? {} : { payload: payload as never }),
    });
  }

  it('corrects chips inline: unique in the race, never twice on one runner, audited', async () => {
    const taken = await inject('staff', 'PATCH', `${base}/participants/${ids['2']}`, { chips: ['C1'] });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'CHIP_TAKEN' });
    expect(taken.json().detail ?? taken.json().message ?? '').toContain('bib 1');
    const twice = await inject('staff', 'PATCH', `${base}/participants/${ids['2']}`, { chips: ['C2', 'C2'] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().errors[0].field).toBe('chips');
    const three = await inject('staff', 'PATCH', `${base}/participants/${ids['2']}`, {
      chips: ['a', 'b', 'c'],
    });
    expect(three.statusCode).toBe(400);
    const ok = await inject('staff', 'PATCH', `${base}/participants/${ids['2']}`, { chips: ['C2', 'C2B'] });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().chips).toEqual(['C2', 'C2B']);
    const audit = (await inject('timekeeper', 'GET', `${base}/participants/${ids['2']}/audit`)).json();
    expect(audit[0].changes).toEqual([{ field: 'chips', before: [], after: ['C2', 'C2B'] }]);
  });

  it('changes a selection in one request, audited, refusing rows with their reason', async () => {
    const url = `${base}/participants/bulk`;
    const all = [ids['1']!, ids['2']!, ids['3']!];
    expect((await inject(null, 'POST', url, { ids: all, patch: { club: 'X' } })).statusCode).toBe(401);
    expect((await inject('timekeeper', 'POST', url, { ids: all, patch: { club: 'X' } })).statusCode).toBe(
      403,
    );
    const empty = await inject('staff', 'POST', url, { ids: all, patch: {} });
    expect(empty.statusCode).toBe(400);
    expect((await inject('staff', 'POST', url, { ids: all, patch: { bib: '9' } })).statusCode).toBe(400);
    expect((await inject('staff', 'POST', url, { ids: all, patch: { raceId: 'nope' } })).statusCode).toBe(
      404,
    );

    const club = await inject('staff', 'POST', url, { ids: all, patch: { club: 'Namur AC', status: 'DNS' } });
    expect(club.statusCode).toBe(200);
    expect(club.json()).toEqual({ updated: 3, unchanged: 0, refused: [] });
    const audit = (await inject('staff', 'GET', `${base}/participants/${ids['1']}/audit`)).json();
    expect(audit[0].changes).toEqual(
      expect.arrayContaining([
        { field: 'club', before: '', after: 'Namur AC' },
        { field: 'status', before: 'registered', after: 'DNS' },
      ]),
    );

    // To the 5 km: Ann moves; Bob has a passing; Cleo's bib 3 is taken there.
    const move = await inject('staff', 'POST', url, { ids: all, patch: { raceId: 'five' } });
    expect(move.statusCode).toBe(200);
    expect(move.json().updated).toBe(1);
    expect(move.json().refused.map((r: { bib: string; code: string }) => `${r.bib}:${r.code}`)).toEqual([
      '2:PARTICIPANT_HAS_PASSINGS',
      '3:BIB_TAKEN',
    ]);
    expect(move.json().refused[1].name).toBe('Cleo Colin');
    const five = (await inject('staff', 'GET', `${base}/participants?race=five`)).json();
    expect(five.rows.map((r: { bib: string }) => r.bib).sort()).toEqual(['1', '3']);
    const again = await inject('staff', 'POST', url, { ids: [ids['1']], patch: { raceId: 'five' } });
    expect(again.json()).toEqual({ updated: 0, unchanged: 1, refused: [] });
  });

  it('exports the grid as shown: filters, sort and columns, in CSV and XLSX, in the reader’s language', async () => {
    const csv = await inject(
      'timekeeper',
      'GET',
      `${base}/participants/export?format=csv&lng=fr&race=five&sort=bib&dir=desc&columns=bib,lastName,birthDate,race,status,chips`,
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')).toEqual([
      '\uFEFFDossard;Nom;Date de naissance;Course;Statut;Puces',
      '3;Dumont;;5 km;Inscrit;',
      '1;Aubry;02/03/1985;5 km;Non partant;C1',
      '',
    ]);
    const bad = await inject('staff', 'GET', `${base}/participants/export?columns=bib,secret`);
    expect(bad.statusCode).toBe(400);
    const xlsx = await inject('staff', 'GET', `${base}/participants/export?format=xlsx&lng=en&q=colin`);
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as never);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Bib');
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(2).getCell(2).value).toBe('Colin');
    // Issue 41: a birth date is a date cell, Excel sorts and computes with it.
    const dated = await inject(
      'staff',
      'GET',
      `${base}/participants/export?format=xlsx&lng=fr&race=five&sort=bib&columns=bib,birthDate`,
    );
    const datedBook = new ExcelJS.Workbook();
    await datedBook.xlsx.load(dated.rawPayload as never);
    const dates = datedBook.worksheets[0]!;
    expect(dates.getRow(2).getCell(1).value).toBe('1');
    expect(dates.getRow(2).getCell(2).value).toEqual(new Date('1985-03-02T00:00:00Z'));
    expect(dates.getColumn(2).numFmt).toBe('yyyy-mm-dd');
  });
});
