import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { addChanged } from './history-repository.ts';

const ORG = '00000000-0000-4000-8000-0000000000b1';
const OTHER = '00000000-0000-4000-8000-0000000000b2';
const EVENT = 'night-run';
const DB = 'night-run-2026';
const base = `/api/console/events/${EVENT}`;
const MAPPING = {
  bib: 'Dossard',
  firstName: 'Prénom',
  lastName: 'Nom',
  gender: 'Sexe',
  birthDate: 'Date de naissance',
};
/** Line 2: bib of a registered runner; 4: bib of line 3 again; 5: no last name; 6: no bib. */
const FILE = [
  'Dossard;Prénom;Nom;Sexe;Date de naissance',
  '39;Léa;Martin;F;12/03/1990',
  '12;Paul;Durand;M;01/01/1980',
  '12;Marc;Petit;M;02/02/1982',
  ';Anne;;F;',
  ';Zoé;Blanc;F;',
].join('\n');

describe('participant imports: samples, duplicates named, refused rows, undo (issue 29)', () => {
  let app: FastifyInstance;
  const auth = { owner: '', timekeeper: '', stranger: '' };
  let importId = '';

  beforeAll(async () => {
    app = await buildTestApp({ SEED_DEMO: 'false' });
    await app.database.query(
      `INSERT INTO organisations (id, slug, name) VALUES ($1, 'night', 'Night'), ($2, 'else', 'Else')`,
      [ORG, OTHER],
    );
    await app.database.query(
      `INSERT INTO events (id, organisation_id, name, start_date, end_date) VALUES ($1, $2, 'Night Run', '2026-10-03', '2026-10-03')`,
      [EVENT, ORG],
    );
    for (const role of ['owner', 'timekeeper'] as const)
      auth[role] = (
        await createTestUser(app, { memberships: [{ organisationId: ORG, role }] })
      ).authorization;
    auth.stranger = (
      await createTestUser(app, { memberships: [{ organisationId: OTHER, role: 'owner' }] })
    ).authorization;
    const headers = { authorization: auth.owner };
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `/api/results/events/${EVENT}/contexts`,
          headers,
          payload: { db: DB, name: '2026' },
        })
      ).statusCode,
    ).toBe(201);
    const race = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DB}/races`,
      headers,
      payload: {
        id: 'night-5k',
        name: 'Night 5K',
        date: '2026-10-03',
        distanceM: 5000,
        startType: 'mass',
        gunTimeMs: Date.UTC(2026, 9, 3, 19),
        points: [{ key: 'finish', name: 'Finish', distanceM: 5000 }],
      },
    });
    expect(race.statusCode).toBe(201);
    const jane = await inject('owner', 'POST', `${base}/participants`, {
      raceId: 'night-5k',
      bib: '39',
      firstName: 'Jane',
      lastName: 'Doe',
      gender: 'F',
    });
    expect(jane.statusCode).toBe(201);
  });
  afterAll(() => app.close());

  const inject = (
    who: keyof typeof auth | null,
    method: 'GET' | 'POST' | 'PATCH' | 'PUT',
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
  const upload = async (csv: string) => {
    const out = await inject('owner', 'POST', `${base}/imports?fileName=inscrits.csv`, csv, {
      'content-type': 'text/csv',
    });
    expect(out.statusCode).toBe(201);
    return out.json();
  };
  const count = async () =>
    (await inject('owner', 'GET', `${base}/participants?limit=100`)).json().total as number;

  it('shows a few non-empty values of each column, skipping empty cells', async () => {
    const info = await upload(FILE);
    const sheet = info.sheets[0];
    expect(sheet.columnSamples).toEqual([
      ['39', '12'],
      ['Léa', 'Paul', 'Marc'],
      ['Martin', 'Durand', 'Petit'],
      ['F', 'M'],
      ['12/03/1990', '01/01/1980', '02/02/1982'],
    ]);
  });

  it('names the other line or the registered runner of a duplicate bib; says once that bibs come from a range', async () => {
    const { id } = await upload(FILE);
    const preview = await inject('owner', 'POST', `${base}/imports/${id}/preview`, {
      raceId: 'night-5k',
      mapping: MAPPING,
    });
    expect(preview.statusCode).toBe(200);
    const body = preview.json();
    expect(body).toMatchObject({ total: 5, valid: 2, invalid: 3, warned: 0 });
    expect(body.race).toEqual({ withoutBib: 1, bibRange: null, categories: 0 });
    const byLine = new Map(body.problems.map((p: { line: number; errors: unknown[] }) => [p.line, p.errors]));
    expect(byLine.get(2)).toEqual([
      { code: 'DUPLICATE_BIB', field: 'bib', value: '39', otherName: 'Jane Doe' },
    ]);
    expect(byLine.get(4)).toEqual([{ code: 'DUPLICATE_BIB', field: 'bib', value: '12', otherLine: 3 }]);
    expect(byLine.get(5)).toEqual([{ code: 'MISSING_FIELD', field: 'lastName' }]);
    // No row is warned for its missing bib: the preview says it once (`race.withoutBib`).
    expect(byLine.has(6)).toBe(false);

    await inject('owner', 'POST', `${base}/participants/bibs`, { raceId: 'night-5k', first: 100, last: 199 });
    const ranged = await inject('owner', 'POST', `${base}/imports/${id}/preview`, {
      raceId: 'night-5k',
      mapping: MAPPING,
    });
    expect(ranged.json().race.bibRange).toEqual({ first: 100, last: 199 });
  });

  it('keeps each import in the history with its refused rows, as CSV and XLSX in the organiser’s language', async () => {
    const { id } = await upload(FILE);
    const before = await count();
    const commit = await inject('owner', 'POST', `${base}/imports/${id}/commit`, {
      raceId: 'night-5k',
      mapping: MAPPING,
      mode: 'valid',
    });
    expect(commit.statusCode).toBe(201);
    importId = commit.json().importId;
    expect(commit.json()).toMatchObject({ imported: 2, skipped: 3, total: 5 });
    expect(await count()).toBe(before + 2);

    const list = (await inject('owner', 'GET', `${base}/import-history`)).json();
    expect(list[0]).toMatchObject({
      id: importId,
      fileName: 'inscrits.csv',
      raceName: 'Night 5K',
      imported: 2,
      refused: 3,
      total: 5,
      undoneAt: null,
    });

    const fr = await inject('owner', 'GET', `${base}/import-history/${importId}/refused?format=csv&lng=fr`);
    expect(fr.statusCode).toBe(200);
    expect(fr.headers['content-type']).toMatch(/^text\/csv/);
    expect(fr.headers['content-disposition']).toContain('.csv');
    const lines = fr.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toEqual([
      'Dossard;Prénom;Nom;Sexe;Date de naissance;Ligne;Motif',
      '39;Léa;Martin;F;12/03/1990;2;Le dossard 39 appartient à Jane Doe (déjà inscrit)',
      '12;Marc;Petit;M;02/02/1982;4;Le dossard 12 est aussi à la ligne 3',
      ';Anne;;F;;5;Nom manquant',
    ]);
    const en = await inject('owner', 'GET', `${base}/import-history/${importId}/refused?lng=en`);
    expect(en.body).toContain('12,Marc,Petit,M,02/02/1982,4,Bib 12 is also on line 3');

    const xlsx = await inject(
      'owner',
      'GET',
      `${base}/import-history/${importId}/refused?format=xlsx&lng=fr`,
    );
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as never);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'Dossard',
      'Prénom',
      'Nom',
      'Sexe',
      'Date de naissance',
      'Ligne',
      'Motif',
    ]);
    expect(sheet.getRow(2).getCell(7).value).toBe('Le dossard 39 appartient à Jane Doe (déjà inscrit)');
  });

  it('refuses bad input and other callers with problem+json, changing nothing', async () => {
    const url = `${base}/import-history/${importId}`;
    const bad = await inject('owner', 'GET', `${url}/refused?format=pdf`);
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/problem\+json/);
    expect(bad.json().errors[0]).toMatchObject({ field: 'format', code: 'invalidChoice' });
    expect((await inject('owner', 'GET', `${base}/import-history/nope/refused`)).statusCode).toBe(400);
    const unknown = await inject('owner', 'POST', `${base}/import-history/${crypto.randomUUID()}/undo`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('IMPORT_NOT_FOUND');
    expect((await inject(null, 'POST', `${url}/undo`)).statusCode).toBe(401);
    expect((await inject('stranger', 'POST', `${url}/undo`)).statusCode).toBe(403);
    expect((await inject('timekeeper', 'POST', `${url}/undo`)).statusCode).toBe(403);
    expect((await inject('timekeeper', 'GET', `${base}/import-history`)).statusCode).toBe(403);
    expect((await inject('owner', 'GET', `${base}/import-history`)).json()[0].undoneAt).toBeNull();
  });

  it('refuses to undo an import whose runner has results, naming them; nothing changes', async () => {
    const { id } = await upload('Dossard;Prénom;Nom;Sexe\n77;Tom;Roux;M\n78;Eva;Noir;F\n');
    const commit = await inject('owner', 'POST', `${base}/imports/${id}/commit`, {
      raceId: 'night-5k',
      mapping: { bib: 'Dossard', firstName: 'Prénom', lastName: 'Nom', gender: 'Sexe' },
      mode: 'valid',
    });
    const timedImport = commit.json().importId;
    const passing = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DB}/passings`,
      headers: { authorization: auth.owner },
      payload: { passings: [{ bib: '77', point: 'finish', time: Date.UTC(2026, 9, 3, 19, 25) }] },
    });
    expect(passing.statusCode).toBeLessThan(300);
    const before = await count();
    const refused = await inject('owner', 'POST', `${base}/import-history/${timedImport}/undo`);
    expect(refused.statusCode).toBe(409);
    expect(refused.headers['content-type']).toMatch(/problem\+json/);
    expect(refused.json()).toMatchObject({
      code: 'IMPORT_UNDO_REFUSED',
      errors: [{ field: 'results', code: 'usedByResults', params: { count: 1, names: '77 Tom Roux' } }],
    });
    expect(await count()).toBe(before);
    const entry = (await inject('owner', 'GET', `${base}/import-history`)).json()[0];
    expect(entry).toMatchObject({ id: timedImport, undoneAt: null });
  });

  it('puts back the fields an import changed (its `previous` values), audited', async () => {
    // No import changes runners yet (chip files keep their own check): the record is made here.
    const { id } = await upload('Dossard;Prénom;Nom;Sexe\n80;Ivo;Gris;M\n');
    const commit = await inject('owner', 'POST', `${base}/imports/${id}/commit`, {
      raceId: 'night-5k',
      mapping: { bib: 'Dossard', firstName: 'Prénom', lastName: 'Nom', gender: 'Sexe' },
      mode: 'valid',
    });
    const changing = commit.json().importId;
    const jane = (await inject('owner', 'GET', `${base}/participants?q=jane`)).json().rows[0];
    await addChanged(app.database, changing, [{ id: jane.id, previous: { club: 'Old AC', wave: null } }]);
    await inject('owner', 'PATCH', `${base}/participants/${jane.id}`, { club: 'New AC', wave: 'B' });
    const undo = await inject('owner', 'POST', `${base}/import-history/${changing}/undo`);
    expect(undo.json()).toEqual({ removed: 1, restored: 1 });
    const after = (await inject('owner', 'GET', `${base}/participants?q=jane`)).json().rows[0];
    expect(after).toMatchObject({ club: 'Old AC', wave: null, bib: '39' });
    const [audit] = await app.database.query<{ action: string; changes: unknown[] }>(
      "SELECT action, detail->'changes' AS changes FROM audit_trail WHERE subject = 'participant' AND subject_id = $1::text ORDER BY id DESC LIMIT 1",
      [jane.id],
    );
    expect(audit!.action).toBe('update');
    expect(audit!.changes).toEqual([
      { field: 'import', before: 'inscrits.csv', after: null },
      { field: 'club', before: 'New AC', after: 'Old AC' },
      { field: 'wave', before: 'B', after: null },
    ]);
  });

  it('undoes an import: its runners go, each audited; the bibs are free again; a second undo is refused', async () => {
    const before = await count();
    const undo = await inject('owner', 'POST', `${base}/import-history/${importId}/undo`);
    expect(undo.statusCode).toBe(200);
    expect(undo.json()).toEqual({ removed: 2, restored: 0 });
    expect(await count()).toBe(before - 2);
    const found = (await inject('owner', 'GET', `${base}/participants?q=durand`)).json();
    expect(found.total).toBe(0);
    const [row] = await app.database.query<{ id: string }>(
      "SELECT id FROM participants WHERE last_name = 'Durand'",
    );
    const [audit] = await app.database.query<{ action: string; changes: unknown }>(
      "SELECT action, detail->'changes' AS changes FROM audit_trail WHERE subject = 'participant' AND subject_id = $1::text ORDER BY id DESC LIMIT 1",
      [row!.id],
    );
    expect(audit).toEqual({
      action: 'delete',
      changes: [{ field: 'import', before: 'inscrits.csv', after: null }],
    });
    const entry = (await inject('owner', 'GET', `${base}/import-history`))
      .json()
      .find((e: { id: string }) => e.id === importId);
    expect(entry.undoneAt).toMatch(/^\d{4}-/);
    expect(entry.undoneBy).toMatch(/@example\.test$/);
    const again = await inject('owner', 'POST', `${base}/import-history/${importId}/undo`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('IMPORT_ALREADY_UNDONE');
    // Bib 12 is free again: the same file now only trips on Jane Doe's 39.
    const { id } = await upload(FILE);
    const preview = (
      await inject('owner', 'POST', `${base}/imports/${id}/preview`, { raceId: 'night-5k', mapping: MAPPING })
    ).json();
    expect(preview.invalid).toBe(3);
    expect(preview.problems.find((p: { line: number }) => p.line === 3)).toBeUndefined();
  });

  it('refuses an import into a race whose results are official (issue 43), nothing stored; re-opened, it goes in', async () => {
    const publish = (payload: unknown) =>
      inject('owner', 'PUT', '/api/console/races/night-5k/publication', payload);
    expect((await publish({ official: true, protestWindowMinutes: 0 })).statusCode).toBe(200);
    const { id } = await upload('Dossard;Prénom;Nom;Sexe\n91;Ines;Vert;F\n');
    const body = {
      raceId: 'night-5k',
      mapping: { bib: 'Dossard', firstName: 'Prénom', lastName: 'Nom', gender: 'Sexe' },
      mode: 'valid',
    };
    const before = await count();
    const refused = await inject('owner', 'POST', `${base}/imports/${id}/commit`, body);
    expect(refused.statusCode).toBe(409);
    expect(refused.headers['content-type']).toMatch(/problem\+json/);
    expect(refused.json()).toMatchObject({ code: 'RACE_OFFICIAL' });
    expect(await count()).toBe(before);
    expect((await publish({ official: false, reason: 'late entries added' })).statusCode).toBe(200);
    const imported = await inject('owner', 'POST', `${base}/imports/${id}/commit`, body);
    expect(imported.statusCode).toBeLessThan(300);
    expect(await count()).toBe(before + 1);
  });
});
