import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { bombWorkbook, manyRowsWorkbook } from '../../../test/xlsx-bombs.ts';
import { XLSX_LIMITS } from '../../lib/xlsx-reader.ts';

const ORG = '00000000-0000-4000-8000-0000000000a1';
const OTHER = '00000000-0000-4000-8000-0000000000a2';
const EVENT = 'ten-miles';
const DB = 'ten-miles-2026';
const base = `/api/console/events/${EVENT}`;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A workbook with French column names, as organisers export them (the first sheet a cover page). */
async function frenchWorkbook(rows: (string | number | Date | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Couverture').addRow(['Inscriptions 2026']);
  const sheet = workbook.addWorksheet('Inscrits');
  sheet.addRow(['Dossard', 'Prénom', 'Nom', 'Sexe', 'Date de naissance', 'Club', 'Nationalité', 'E-mail']);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('console participants API', () => {
  let app: FastifyInstance;
  const auth: Record<'owner' | 'staff' | 'timekeeper' | 'stranger', string> = {
    owner: '',
    staff: '',
    timekeeper: '',
    stranger: '',
  };

  beforeAll(async () => {
    app = await buildTestApp({ SEED_DEMO: 'false' });
    await app.database.query(
      `INSERT INTO organisations (id, slug, name) VALUES ($1, 'ten', 'Ten Miles'), ($2, 'other', 'Other')`,
      [ORG, OTHER],
    );
    await app.database.query(
      `INSERT INTO events (id, organisation_id, name, start_date, end_date) VALUES ($1, $2, 'Ten Miles', '2026-09-06', '2026-09-06')`,
      [EVENT, ORG],
    );
    for (const role of ['owner', 'staff', 'timekeeper'] as const)
      auth[role] = (
        await createTestUser(app, { memberships: [{ organisationId: ORG, role }] })
      ).authorization;
    auth.stranger = (
      await createTestUser(app, { memberships: [{ organisationId: OTHER, role: 'owner' }] })
    ).authorization;
    const ctx = await app.inject({
      method: 'POST',
      url: `/api/results/events/${EVENT}/contexts`,
      headers: { authorization: auth.owner },
      payload: { db: DB, name: '2026' },
    });
    expect(ctx.statusCode).toBe(201);
    const race = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DB}/races`,
      headers: { authorization: auth.owner },
      payload: {
        id: 'ten-miles',
        name: 'Ten Miles',
        date: '2026-09-06',
        distanceM: 16_093,
        startType: 'mass',
        gunTimeMs: Date.UTC(2026, 8, 6, 8),
        categories: [
          { id: 'SEN', name: 'Seniors', minAge: 18, maxAge: 39 },
          { id: 'MAS', name: 'Masters', minAge: 40, maxAge: 99 },
        ],
        points: [{ key: 'finish', name: 'Finish', distanceM: 16_093 }],
      },
    });
    expect(race.statusCode).toBe(201);
  });
  afterAll(() => app.close());

  const inject = (
    who: keyof typeof auth | null,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url,
      headers: { ...(who ? { authorization: auth[who] } : {}), ...headers },
      ...(payload === undefined ? {} : { payload: payload as never }),
    });

  it('checks abilities on every route: anonymous 401, another organisation 403, timekeepers read only', async () => {
    const routes: ['GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown?][] = [
      ['GET', `${base}/participants`],
      ['GET', `${base}/participants/races`],
      ['GET', `${base}/participants/access`],
      ['GET', `${base}/participants/contexts`],
      ['POST', `${base}/participants`, { raceId: 'ten-miles', firstName: 'A', lastName: 'B', gender: 'F' }],
      ['PATCH', `${base}/participants/00000000-0000-4000-8000-000000000000`, { club: 'x' }],
      ['DELETE', `${base}/participants/00000000-0000-4000-8000-000000000000`],
      ['GET', `${base}/participants/00000000-0000-4000-8000-000000000000/audit`],
      ['POST', `${base}/participants/bibs`, { raceId: 'ten-miles', first: 1, last: 10 }],
      ['GET', `${base}/imports/00000000-0000-4000-8000-000000000000`],
      ['POST', `${base}/imports/00000000-0000-4000-8000-000000000000/preview`, {}],
      ['POST', `${base}/imports/00000000-0000-4000-8000-000000000000/commit`, {}],
      ['POST', `${base}/imports/00000000-0000-4000-8000-000000000000/chips`, {}],
    ];
    for (const [method, url, payload] of routes) {
      expect((await inject(null, method, url, payload)).statusCode, `${method} ${url} anonymous`).toBe(401);
      expect((await inject('stranger', method, url, payload)).statusCode, `${method} ${url} stranger`).toBe(
        403,
      );
      const asTimekeeper = (await inject('timekeeper', method, url, payload)).statusCode;
      if (method === 'GET' && !url.includes('/imports/'))
        expect(asTimekeeper, `${method} ${url}`).not.toBe(403);
      else expect(asTimekeeper, `${method} ${url} timekeeper`).toBe(403);
    }
    const upload = await inject('timekeeper', 'POST', `${base}/imports`, 'a,b\n1,2', {
      'content-type': 'text/csv',
    });
    expect(upload.statusCode).toBe(403);
    expect((await inject('timekeeper', 'GET', `${base}/participants/access`)).json()).toEqual({
      canManage: false,
      canImportResults: true,
    });
    expect((await inject('staff', 'GET', `${base}/participants/access`)).json().canManage).toBe(true);
    expect((await inject('staff', 'GET', `${base}/participants/contexts`)).json()).toEqual([
      { db: DB, name: '2026' },
    ]);
    const unknown = await inject('owner', 'GET', '/api/console/events/nope/participants');
    expect(unknown.statusCode).toBe(404);
    expect((await app.database.query('SELECT 1 FROM participants')).length).toBe(0);
  });

  it('answers schema errors as problem+json field errors, changing nothing', async () => {
    const bad = await inject('staff', 'POST', `${base}/participants`, { raceId: 'ten-miles', gender: 'Q' });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
    expect(bad.json().code).toBe('VALIDATION_FAILED');
    expect(bad.json().errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(['firstName', 'lastName', 'gender']),
    );
    // Each with a stable code the web client translates on its field (issue 29).
    expect(bad.json().errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'firstName', code: 'required' }),
        expect.objectContaining({ field: 'gender', code: 'invalidChoice' }),
      ]),
    );
    const query = await inject('staff', 'GET', `${base}/participants?sort=shoe&limit=0`);
    expect(query.statusCode).toBe(400);
    expect(query.json().errors.map((e: { field: string }) => e.field)).toEqual(['sort', 'limit']);
    const bibs = await inject('staff', 'POST', `${base}/participants/bibs`, {
      raceId: 'ten-miles',
      first: 9,
      last: 2,
    });
    expect(bibs.statusCode).toBe(400);
    const noFile = await inject('staff', 'POST', `${base}/imports`, { a: 1 });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().code).toBe('FILE_REQUIRED');
    // Files are read on a worker thread: its 400s come back as they are, nothing is stored.
    const broken = await inject(
      'staff',
      'POST',
      `${base}/imports?fileName=broken.xlsx`,
      Buffer.from('PK\x03\x04 not a workbook'),
      { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
    );
    expect(broken.statusCode).toBe(400);
    expect(broken.headers['content-type']).toContain('application/problem+json');
    expect(broken.json().code).toBe('FILE_UNREADABLE');
    const quote = await inject('staff', 'POST', `${base}/imports?fileName=q.csv`, 'Nom;Prénom\n"open;x\n', {
      'content-type': 'text/csv',
    });
    expect(quote.statusCode).toBe(400);
    expect(quote.json().code).toBe('CSV_INVALID');
    expect((await app.database.query('SELECT 1 FROM import_uploads')).length).toBe(0);
    expect((await app.database.query('SELECT 1 FROM participants')).length).toBe(0);
  });

  it('refuses a zip bomb (413) and a workbook of too many rows (422), naming the limit, storing nothing', async () => {
    const upload = async (bytes: Buffer) =>
      inject('staff', 'POST', `${base}/imports?fileName=bomb.xlsx`, bytes, { 'content-type': XLSX });
    const bomb = await upload(await bombWorkbook(200));
    expect(bomb.statusCode).toBe(413);
    expect(bomb.headers['content-type']).toContain('application/problem+json');
    expect(bomb.json()).toMatchObject({ code: 'XLSX_TOO_LARGE', detail: expect.stringContaining('64 MB') });
    const rows = await upload(await manyRowsWorkbook(XLSX_LIMITS.rows + 1));
    expect(rows.statusCode).toBe(422);
    expect(rows.json()).toMatchObject({
      code: 'TOO_MANY_ROWS',
      detail: expect.stringContaining('100,000 rows'),
    });
    expect((await app.database.query('SELECT 1 FROM import_uploads')).length).toBe(0);
    // The server answered its health check meanwhile (the workbook is read off the main thread).
    expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });

  let uploadId = '';
  it('imports an XLSX with French columns: sheet, mapping guessed, preview with errors, valid rows', async () => {
    const rows: (string | number | Date | null)[][] = [
      ['1', 'Élodie', 'Dupré', 'F', new Date(Date.UTC(1985, 4, 12)), 'AC Liège', 'BEL', 'elodie@example.be'],
      ['2', 'Jean', 'Martin', 'Homme', '03/02/1979', 'RCB', 'fra', 'jean@example.fr'],
      ['', 'Sofie', 'Peeters', 'V', '1999-13-01', '', 'BEL', ''],
      ['2', 'Luc', 'Janssens', 'M', '1990-01-01', '', 'BEL', ''],
      ['', 'Ana', 'Silva', 'F', '2015-06-01', '', 'POR', 'jean@example.fr'],
      ['', 'Élodie', 'Dupré', 'F', '1985-05-12', '', 'BEL', ''],
      ['7', 'Kim', 'Lee', '?', '', '', '', ''],
    ];
    const upload = await inject(
      'staff',
      'POST',
      `${base}/imports?fileName=inscrits.xlsx`,
      await frenchWorkbook(rows),
      {
        'content-type': XLSX,
      },
    );
    expect(upload.statusCode).toBe(201);
    const info = upload.json();
    uploadId = info.id;
    expect(info.format).toBe('xlsx');
    expect(info.sheets.map((s: { name: string }) => s.name)).toEqual(['Couverture', 'Inscrits']);
    const sheet = info.sheets[1];
    expect(sheet.rows).toBe(7);
    expect(sheet.guess).toEqual({
      bib: 'Dossard',
      firstName: 'Prénom',
      lastName: 'Nom',
      gender: 'Sexe',
      birthDate: 'Date de naissance',
      club: 'Club',
      nationality: 'Nationalité',
      email: 'E-mail',
    });
    expect(sheet.sample[0]).toEqual([
      '1',
      'Élodie',
      'Dupré',
      'F',
      '1985-05-12',
      'AC Liège',
      'BEL',
      'elodie@example.be',
    ]);
    const mapping = {
      bib: 'Dossard',
      firstName: 'Prénom',
      lastName: 'Nom',
      gender: 'Sexe',
      birthDate: 'Date de naissance',
      club: 'Club',
      nationality: 'Nationalité',
      email: 'E-mail',
    };
    const request = { sheet: 'Inscrits', raceId: 'ten-miles', mapping };
    const wrongSheet = await inject('staff', 'POST', `${base}/imports/${uploadId}/preview`, request, {});
    expect(wrongSheet.statusCode).toBe(200);
    const preview = wrongSheet.json();
    expect(preview).toMatchObject({ total: 7, valid: 3, invalid: 4 });
    const byLine = new Map(
      preview.problems.map(
        (p: { line: number; errors: { code: string }[]; warnings: { code: string }[] }) => [
          p.line,
          [...p.errors.map((e) => e.code), ...p.warnings.map((w) => `w:${w.code}`)],
        ],
      ),
    );
    expect(byLine.get(4)).toEqual(['BAD_DATE']);
    expect(byLine.get(5)).toEqual(['DUPLICATE_BIB']);
    expect(byLine.get(6)).toEqual(['w:DUPLICATE_EMAIL', 'w:NO_CATEGORY']);
    expect(byLine.get(7)).toEqual(['DUPLICATE_PERSON']);
    expect(byLine.get(8)).toEqual(['UNKNOWN_GENDER']);

    const all = await inject('staff', 'POST', `${base}/imports/${uploadId}/commit`, {
      ...request,
      mode: 'all',
    });
    expect(all.statusCode).toBe(422);
    expect(all.json().code).toBe('IMPORT_HAS_ERRORS');
    expect((await app.database.query('SELECT 1 FROM participants')).length).toBe(0);

    const commit = await inject('staff', 'POST', `${base}/imports/${uploadId}/commit`, {
      ...request,
      mode: 'valid',
    });
    expect(commit.statusCode).toBe(201);
    expect(commit.json()).toEqual({ importId: expect.any(String), imported: 3, skipped: 4, total: 7 });
    const remembered = (await inject('staff', 'GET', `${base}/imports/${uploadId}`)).json().rememberedMapping;
    expect(remembered).toMatchObject({ firstName: 'Prénom', birthDate: 'Date de naissance' });
    // Importing the same file again: every row imported is now a duplicate (bib or person).
    const again = (await inject('staff', 'POST', `${base}/imports/${uploadId}/preview`, request)).json();
    expect(again.valid).toBe(0);
  });

  it('lists with accent- and case-blind search, filters, sort and paging', async () => {
    const list = async (query: string) =>
      (await inject('timekeeper', 'GET', `${base}/participants?${query}`)).json();
    expect((await list('q=dupre')).rows.map((r: { lastName: string }) => r.lastName)).toEqual(['Dupré']);
    expect((await list('q=LIEGE')).total).toBe(1);
    expect((await list('q=2')).rows.map((r: { bib: string }) => r.bib)).toEqual(['2']);
    expect((await list('category=MAS')).rows.map((r: { firstName: string }) => r.firstName)).toEqual([
      'Élodie',
      'Jean',
    ]);
    expect((await list('bib=none')).rows.map((r: { firstName: string }) => r.firstName)).toEqual(['Ana']);
    const sorted = await list('sort=lastName&dir=desc&limit=2');
    expect(sorted.total).toBe(3);
    expect(sorted.rows.map((r: { lastName: string }) => r.lastName)).toEqual(['Silva', 'Martin']);
    expect((await list('sort=lastName&dir=desc&limit=2&offset=2')).rows[0].lastName).toBe('Dupré');
  });

  it('assigns missing bibs from the race range, skipping taken ones; the start list shows them', async () => {
    const out = await inject('owner', 'POST', `${base}/participants/bibs`, {
      raceId: 'ten-miles',
      first: 1,
      last: 3,
    });
    expect(out.json()).toEqual({ assigned: 1, left: 0 });
    const ana = (await inject('owner', 'GET', `${base}/participants?q=silva`)).json().rows[0];
    expect(ana.bib).toBe('3');
    const races = (await inject('owner', 'GET', `${base}/participants/races`)).json();
    expect(races[0]).toMatchObject({ participants: 3, withoutBib: 0, bibRange: { first: 1, last: 3 } });
    const start = await app.inject(`/api/results/contexts/${DB}/reports/START`);
    expect(start.statusCode).toBe(200);
    expect(JSON.stringify(start.json())).toContain('SILVA Ana');
  });

  it('adds one, edits inline with an audit (who, before, after), deletes softly unless timed', async () => {
    const added = await inject('staff', 'POST', `${base}/participants`, {
      raceId: 'ten-miles',
      bib: '50',
      firstName: 'Nina',
      lastName: 'Roy',
      gender: 'F',
      birthDate: '2001-02-03',
    });
    expect(added.statusCode).toBe(201);
    const id = added.json().id;
    const taken = await inject('staff', 'PATCH', `${base}/participants/${id}`, { bib: '1' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('BIB_TAKEN');
    const edit = await inject('staff', 'PATCH', `${base}/participants/${id}`, {
      club: 'Namur AC',
      lastName: 'Roy-Dubois',
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json()).toMatchObject({ club: 'Namur AC', lastName: 'Roy-Dubois' });
    const audit = (await inject('timekeeper', 'GET', `${base}/participants/${id}/audit`)).json();
    expect(audit[0].action).toBe('update');
    expect(audit[0].changes).toEqual(
      expect.arrayContaining([
        { field: 'club', before: '', after: 'Namur AC' },
        { field: 'lastName', before: 'Roy', after: 'Roy-Dubois' },
      ]),
    );
    expect(audit[0].actorEmail).toMatch(/@example\.test$/);
    expect(audit[1].action).toBe('create');

    // A runner with a passing stays.
    const timed = (await inject('owner', 'GET', `${base}/participants?q=martin`)).json().rows[0];
    await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DB}/passings`,
      headers: { authorization: auth.owner },
      payload: { passings: [{ bib: timed.bib, point: 'finish', time: Date.UTC(2026, 8, 6, 9) }] },
    });
    const refused = await inject('owner', 'DELETE', `${base}/participants/${timed.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('PARTICIPANT_HAS_PASSINGS');
    expect((await inject('owner', 'DELETE', `${base}/participants/${id}`)).statusCode).toBe(204);
    expect((await inject('owner', 'GET', `${base}/participants?q=roy`)).json().total).toBe(0);
    // Its bib is free again.
    const reuse = await inject('owner', 'POST', `${base}/participants`, {
      raceId: 'ten-miles',
      bib: '50',
      firstName: 'Paul',
      lastName: 'Roy',
      gender: 'M',
    });
    expect(reuse.statusCode).toBe(201);
  });

  it('imports a chip file (one or two chips per bib), warning on a chip used twice', async () => {
    const csv = 'Dossard;Puce;Puce 2\n1;E001;E101\n2;E002;\n3;E001;\n999;E999;\n';
    const upload = await inject('staff', 'POST', `${base}/imports?fileName=puces.csv`, csv, {
      'content-type': 'text/csv',
    });
    expect(upload.statusCode).toBe(201);
    const request = { raceId: 'ten-miles', mapping: { bib: 'Dossard', chip: 'Puce', chip2: 'Puce 2' } };
    const check = (
      await inject('staff', 'POST', `${base}/imports/${upload.json().id}/chips`, request)
    ).json();
    expect(check.applied).toBe(0);
    expect(check.issues.map((i: { line: number; code: string }) => `${i.line}:${i.code}`)).toEqual([
      '4:CHIP_USED_TWICE',
      '5:UNKNOWN_BIB',
    ]);
    const applied = (
      await inject('staff', 'POST', `${base}/imports/${upload.json().id}/chips`, { ...request, apply: true })
    ).json();
    expect(applied.applied).toBe(2);
    const one = (await inject('staff', 'GET', `${base}/participants?q=dupre`)).json().rows[0];
    expect(one.chips).toEqual(['E001', 'E101']);
  });

  it('imports a Boston-format result list into the race the organiser names, listing refused rows', async () => {
    const header =
      'Bib,Name,Age,M/F,City,State,Country,Citizen,,5K,10K,15K,20K,Half,25K,30K,35K,40K,Pace,Proj Time,Official Time,Overall,Gender,Division';
    const splits = '0:15:25,0:30:28,0:45:44,1:01:15,1:04:35,1:16:59,1:33:01,1:48:19,2:02:53';
    const csv = [
      header,
      `3,"Desisa, Lelisa",25,M,Ambo,,ETH,,,${splits},0:04:57,-,2:09:17,1,1,1`,
      '4,broken,row',
      `5,"Keitany, Mary",33,F,Iten,,KEN,,,${splits},0:04:57,-,2:25:07,x,1,1`,
    ].join('\n');
    const missing = await inject('owner', 'POST', `${base}/result-imports?format=boston&db=${DB}`, csv, {
      'content-type': 'text/csv',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.map((e: { field: string }) => e.field)).toEqual(['name', 'date', 'gun']);
    const url = `${base}/result-imports?format=boston&db=${DB}&name=Boston%20Marathon%202015&date=2015-04-20&gun=2015-04-20T10:00:00-04:00`;
    const res = await inject('owner', 'POST', url, csv, { 'content-type': 'text/csv' });
    expect(res.statusCode).toBe(201);
    const out = res.json();
    expect(out).toMatchObject({ raceId: 'boston-marathon-2015', participants: 1, passings: 10, refused: 2 });
    expect(out.issues.map((i: { line: number }) => i.line)).toEqual([3, 4]);
    const [race] = await app.database.query<{ name: string; date: string; gun: number }>(
      `SELECT name, to_char(race_date, 'YYYY-MM-DD') AS date, gun_time_ms::float8 AS gun FROM races WHERE id = 'boston-marathon-2015'`,
    );
    expect(race).toEqual({
      name: 'Boston Marathon 2015',
      date: '2015-04-20',
      gun: Date.UTC(2015, 3, 20, 14),
    });
    // Issue 43: results imported from an official list are official (published, no protest window).
    const imported = await inject('owner', 'GET', '/api/console/races/boston-marathon-2015');
    expect(imported.json().publication).toMatchObject({ protestWindowMs: 0 });
    expect(imported.json().publication.publishedAtMs).toBeGreaterThan(Date.now() - 60_000);
    // The same call again makes a second race rather than a 409.
    const second = await inject('owner', 'POST', url, csv, { 'content-type': 'text/csv' });
    expect(second.json().raceId).toBe('boston-marathon-2015-2');
    const stranger = await inject('stranger', 'POST', url, csv, { 'content-type': 'text/csv' });
    expect(stranger.statusCode).toBe(403);
    // The README's call (results API): the name, date and gun are required, the id made unique.
    const readme = `/api/results/contexts/${DB}/import/boston`;
    const bare = await inject('owner', 'POST', readme, csv, { 'content-type': 'text/csv' });
    expect(bare.statusCode).toBe(400);
    const named = await inject(
      'owner',
      'POST',
      `${readme}?name=Boston%20Marathon%202015&date=2015-04-20&gun=2015-04-20T10:00:00-04:00`,
      csv,
      { 'content-type': 'text/csv' },
    );
    expect(named.statusCode).toBe(201);
    expect(named.json()).toMatchObject({ raceId: 'boston-marathon-2015-3', refused: 2 });
  });

  it('finds runners of every script with the one fold (issue 29): Vietnamese, Turkish, Polish, Nordic', async () => {
    const add = async (firstName: string, lastName: string, club = '') =>
      (
        await inject('owner', 'POST', `${base}/participants`, {
          raceId: 'ten-miles',
          firstName,
          lastName,
          gender: 'M',
          club,
        })
      ).json().id as string;
    await add('Văn Thảo', 'Nguyễn');
    await add('Ayşe', 'Şahin');
    await add('Jan', 'Łukasiewicz');
    await add('Martin', 'Ødegaard');
    // A row stored without its fold (before the migration, or by another writer) is folded when searched.
    const stale = await add('Minh', 'Đức', 'Trần Club');
    await app.database.query('UPDATE participants SET search_folded = NULL WHERE id = $1', [stale]);
    const names = async (q: string) =>
      (await inject('timekeeper', 'GET', `${base}/participants?q=${encodeURIComponent(q)}`))
        .json()
        .rows.map((r: { lastName: string }) => r.lastName);
    expect(await names('nguyen')).toEqual(['Nguyễn']);
    expect(await names('thao')).toEqual(['Nguyễn']);
    expect(await names('sahin')).toEqual(['Şahin']);
    expect(await names('lukasiewicz')).toEqual(['Łukasiewicz']);
    expect(await names('odegaard')).toEqual(['Ødegaard']);
    expect(await names('duc')).toEqual(['Đức']);
    expect(await names('tran')).toEqual(['Đức']);
    expect(await names('ŞAHİN')).toEqual(['Şahin']);
    // A name changed by a writer that does not fold (the trigger clears the fold): found by its new name.
    await app.database.query(`UPDATE participants SET last_name = 'Øvrebø' WHERE id = $1`, [stale]);
    expect(await names('ovrebo')).toEqual(['Øvrebø']);
    expect(await names('duc')).toEqual([]);
    // An inline edit refolds at once.
    expect(
      (await inject('owner', 'PATCH', `${base}/participants/${stale}`, { lastName: 'Đặng' })).statusCode,
    ).toBe(200);
    const [row] = await app.database.query<{ f: string }>(
      'SELECT search_folded AS f FROM participants WHERE id = $1',
      [stale],
    );
    expect(row?.f).toBe('minh dang tran club');
  });
});
