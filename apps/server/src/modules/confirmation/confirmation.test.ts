import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DocumentDetail, DocumentRow } from '@tempora/contracts';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { bombWorkbook, manyRowsWorkbook } from '../../../test/xlsx-bombs.ts';
import { MAX_ROWS } from './parse.ts';
import { createSchoolEvent, DEMO_ORG } from './test-helpers.ts';

const OTHER_ORG = '00000000-0000-4000-8000-0000000000fe';
const HEAD = 'Prénom;Nom;Sexe;Naissance;Email;Course;Dossard';
const MAPPING = {
  firstName: 'Prénom',
  lastName: 'Nom',
  gender: 'Sexe',
  birthDate: 'Naissance',
  email: 'Email',
  race: 'Course',
  bib: 'Dossard',
};
const csv = (...lines: string[]) => Buffer.from([HEAD, ...lines].join('\n'));

describe('confirmation of registration documents', () => {
  let app: FastifyInstance;
  let confirmer: string;
  let staff: string;
  let stranger: string;
  let owner: string;
  let ev: Awaited<ReturnType<typeof createSchoolEvent>>;
  const EVENT = 'conf-test';

  beforeAll(async () => {
    app = await buildTestApp();
    await app.database.query(`INSERT INTO organisations (id, slug, name) VALUES ($1, 'other-c', 'Other')`, [
      OTHER_ORG,
    ]);
    ev = await createSchoolEvent(app, EVENT);
    confirmer = (await createTestUser(app, { email: 'confirmation@tempora.local' })).authorization;
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
    staff = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'staff' }] }))
      .authorization;
    stranger = (await createTestUser(app, { memberships: [{ organisationId: OTHER_ORG, role: 'owner' }] }))
      .authorization;
  });
  afterAll(() => app.close());

  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    url: string,
    payload?: unknown,
    who = confirmer,
  ) => {
    const res = await app.inject({
      method,
      url: `/api/confirmation/${url}`,
      headers: { authorization: who, ...(Buffer.isBuffer(payload) ? { 'content-type': 'text/csv' } : {}) },
      ...(payload === undefined ? {} : { payload: payload as never }),
    });
    return res;
  };
  const ok = async <T>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    url: string,
    payload?: unknown,
    who = confirmer,
  ) => {
    const res = await call(method, url, payload, who);
    if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode} ${res.body}`);
    return res.json() as T;
  };

  async function newDocument(title: string, extra: Record<string, unknown> = {}) {
    return ok<DocumentDetail>('POST', 'documents', {
      eventId: EVENT,
      title,
      senderName: `${title} school`,
      senderKind: 'school',
      contactName: 'Ms Teacher',
      contactEmail: `${title.toLowerCase().replace(/\W/g, '')}@school.test`,
      defaultRaceId: ev.kids,
      ...extra,
    });
  }
  async function mapped(title: string, file: Buffer) {
    const doc = await newDocument(title);
    await ok('POST', `documents/${doc.id}/file?name=${title}.csv`, file);
    const detail = await ok<DocumentDetail>('PUT', `documents/${doc.id}/mapping`, { mapping: MAPPING });
    const rows = await ok<DocumentRow[]>('GET', `documents/${doc.id}/rows`);
    return { doc: detail, rows };
  }
  const codes = (row: DocumentRow | undefined) =>
    row?.issues.map((i) => `${i.field}:${i.code}:${i.severity}`) ?? [];

  it('walks a document through uploaded → mapped → validated → partly confirmed → confirmed → closed', async () => {
    const doc = await newDocument('Lifecycle');
    expect(doc.status).toBe('uploaded');
    const uploaded = await ok<DocumentDetail>(
      'POST',
      `documents/${doc.id}/file?name=list.csv`,
      csv('Anna;Martin;F;12/03/2015;;;', 'Ben;Dupont;M;2014-01-20;;;', 'Chloé;Leroy;X;2017-05-02;c@x.be;;'),
    );
    expect(uploaded).toMatchObject({ status: 'uploaded', version: 1, sheets: ['CSV'] });
    expect(uploaded.headers).toContain('Naissance');
    const validated = await ok<DocumentDetail>('PUT', `documents/${doc.id}/mapping`, { mapping: MAPPING });
    expect(validated.status).toBe('validated');
    expect(validated.history.map((h) => h.action)).toEqual(['validated', 'mapped', 'uploaded', 'created']);
    expect(validated.counts).toMatchObject({ rows: 3, clean: 3, toFix: 0 });
    const rows = await ok<DocumentRow[]>('GET', `documents/${doc.id}/rows`);
    const first = await ok<{ confirmed: number; document: DocumentDetail }>(
      'POST',
      `documents/${doc.id}/confirm`,
      {
        rowIds: [rows[0]!.id],
      },
    );
    expect(first.confirmed).toBe(1);
    expect(first.document.status).toBe('partlyConfirmed');
    const rest = await ok<{ confirmed: number; document: DocumentDetail }>(
      'POST',
      `documents/${doc.id}/confirm`,
      {},
    );
    expect(rest.confirmed).toBe(2);
    expect(rest.document.status).toBe('confirmed');
    const people = await app.database.query<{ bib: string; club: string; first_name: string; birth: string }>(
      `SELECT bib, club, first_name, to_char(birth_date, 'YYYY-MM-DD') AS birth FROM participants WHERE race_id = $1 ORDER BY bib::int`,
      [ev.kids],
    );
    expect(people.map((p) => p.first_name)).toEqual(['Anna', 'Ben', 'Chloé']);
    expect(people.every((p) => p.club === 'Lifecycle school')).toBe(true);
    expect(people[0]!.birth).toBe('2015-03-12');
    const linked = await ok<DocumentRow[]>('GET', `documents/${doc.id}/rows`);
    expect(linked.map((r) => r.participant?.bib)).toEqual(people.map((p) => p.bib));
    expect(linked.map((r) => r.category)).toEqual(['U14', 'U14', 'U10']);
    const mails = await app.outbox.list(10);
    expect(mails.find((m) => m.to === 'lifecycle@school.test')?.subject).toContain('confirmed');
    expect((await call('POST', `documents/${doc.id}/reject`, { reason: 'late' })).json().code).toBe(
      'INVALID_TRANSITION',
    );
    const closed = await ok<DocumentDetail>('POST', `documents/${doc.id}/close`);
    expect(closed.status).toBe('closed');
    expect(
      (
        await call('PATCH', `documents/${doc.id}/rows`, {
          edits: [{ rowId: rows[1]!.id, field: 'firstName', value: 'X' }],
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (await call('POST', `documents/${doc.id}/file?name=x.csv`, csv('A;B;F;2015-01-01;;;'))).json().code,
    ).toBe('DOCUMENT_LOCKED');
  });

  it('rejects a document with a reason mailed to the contact, and a rejected document is locked', async () => {
    const { doc } = await mapped('Rejected', csv('Dan;Brown;M;2015-01-01;;;'));
    expect((await call('POST', `documents/${doc.id}/close`)).json().code).toBe('INVALID_TRANSITION');
    expect((await call('POST', `documents/${doc.id}/reject`, { reason: '' })).statusCode).toBe(400);
    const rejected = await ok<DocumentDetail>('POST', `documents/${doc.id}/reject`, {
      reason: 'Wrong event',
    });
    expect(rejected).toMatchObject({ status: 'rejected', rejectReason: 'Wrong event' });
    const mail = (await app.outbox.list(10)).find((m) => m.to === 'rejected@school.test');
    expect(mail?.text).toContain('Wrong event');
    expect((await call('POST', `documents/${doc.id}/confirm`, {})).statusCode).toBe(409);
  });

  it('finds every validation issue per field', async () => {
    await ok('PUT', `races/${ev.fiveK}/settings`, { bibFrom: 500, bibTo: 599, capacity: 2, tariffs: [] });
    await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${ev.db}/races/${ev.fiveK}/participants`,
      headers: { authorization: owner },
      payload: {
        participants: [
          { bib: '501', firstName: 'Old', lastName: 'Timer', gender: 'M', birthDate: '1970-01-01' },
        ],
      },
    });
    const { rows, doc } = await mapped(
      'Rules',
      csv(
        ';Nofirst;F;2015-01-01;;;', // 1 missing first name
        'Eve;Bad;F;31/02/2015;;;', // 2 invalid date
        'Fay;Odd;Q;2015-01-01;;;', // 3 unknown gender
        'Gus;Lost;M;2015-01-01;;Marathon;', // 4 unknown race
        'Hal;Adult;M;1990-01-01;;;', // 5 age outside the kids' categories
        'Ida;Bib;F;1990-01-01;;5 km;501', // 6 bib taken
        'Jon;Young;M;1990-01-01;;5 km;', // 7 takes the last place of the 5 km
        'Kim;Late;F;1991-01-01;;5 km;', // 8 race full
        'Lea;Range;F;2015-01-01;not-a-mail;;', // 9 invalid e-mail (warning)
        'Max;Far;M;1992-01-01;;;', // 10 default race kids: age outside
      ),
    );
    expect(codes(rows[0])).toEqual(['firstName:MISSING:error']);
    expect(codes(rows[1])).toEqual(['birthDate:INVALID_DATE:error']);
    expect(codes(rows[2])).toEqual(['gender:UNKNOWN_GENDER:error']);
    expect(codes(rows[3])).toEqual(['race:UNKNOWN_RACE:error']);
    expect(codes(rows[4])).toEqual(['birthDate:AGE_OUTSIDE_CATEGORIES:error']);
    expect(codes(rows[5])).toEqual(['bib:BIB_TAKEN:error']);
    expect(codes(rows[6])).toEqual([]);
    expect(codes(rows[7])).toEqual(['race:RACE_FULL:error']);
    expect(codes(rows[8])).toEqual(['email:INVALID_EMAIL:warning']);
    expect(doc.counts).toMatchObject({ rows: 10, toFix: 8, toReview: 1, clean: 1 });
    // A row with an error is never confirmed, not even one by one; nothing changes.
    const refused = await call('POST', `documents/${doc.id}/confirm`, { rowIds: [rows[0]!.id, rows[6]!.id] });
    expect(refused.json().code).toBe('ROW_NOT_CONFIRMABLE');
    expect(
      (await ok<DocumentRow[]>('GET', `documents/${doc.id}/rows`)).every((r) => r.decision === 'pending'),
    ).toBe(true);
    // The clean row confirms in bulk, with the first free bib of the 5 km's range.
    const bulk = await ok<{ confirmed: number }>('POST', `documents/${doc.id}/confirm`, {});
    expect(bulk.confirmed).toBe(1);
    const jon = (await ok<DocumentRow[]>('GET', `documents/${doc.id}/rows`))[6]!;
    expect(jon.participant).toMatchObject({ raceId: ev.fiveK, bib: '500' });
    expect(jon.participant?.id).toMatch(/^[0-9a-f-]{36}$/);
    // The warning row confirms one by one.
    expect(
      (await ok<{ confirmed: number }>('POST', `documents/${doc.id}/confirm`, { rowIds: [rows[8]!.id] }))
        .confirmed,
    ).toBe(1);
  });

  it('finds duplicates within the file, against participants and across documents', async () => {
    await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${ev.db}/races/${ev.kids}/participants`,
      headers: { authorization: owner },
      payload: {
        participants: [
          { bib: '900', firstName: 'Noé', lastName: 'Dubois', gender: 'M', birthDate: '2015-04-04' },
        ],
      },
    });
    const first = await mapped(
      'DupA',
      csv('Omar;Said;M;2014-02-02;omar@x.be;;', 'Pia;Rossi;F;2014-03-03;;;'),
    );
    const { rows } = await mapped(
      'DupB',
      csv(
        'Quinn;Lee;F;2015-05-05;q@x.be;;', // 1 original
        'quinn;LEE;F;05/05/2015;;;', // 2 same name and birth date: error
        'Rex;Lee;M;2016-06-06;q@x.be;;', // 3 same e-mail (a sibling): warning
        'Noe;Dubois;M;2015-04-04;;;', // 4 already a participant (accents ignored)
        'Pia;Rossi;F;2014-03-03;;;', // 5 a row of another document
        'Sam;Stone;M;2015-07-07;omar@x.be;;', // 6 e-mail of another document's row: warning
      ),
    );
    expect(codes(rows[0])).toEqual([]);
    expect(codes(rows[1])).toEqual(['row:DUPLICATE_IN_FILE:error']);
    expect(rows[1]!.duplicateOf).toMatchObject({ kind: 'row', by: 'name', position: 1 });
    expect(codes(rows[2])).toEqual(['row:DUPLICATE_IN_FILE:warning']);
    expect(codes(rows[3])).toEqual(['row:DUPLICATE_PARTICIPANT:error']);
    expect(rows[3]!.duplicateOf).toMatchObject({ kind: 'participant', raceId: ev.kids, bib: '900' });
    expect(codes(rows[4])).toEqual(['row:DUPLICATE_OTHER_DOCUMENT:error']);
    expect(rows[4]!.duplicateOf).toMatchObject({ kind: 'document', documentId: first.doc.id, position: 2 });
    expect(codes(rows[5])).toEqual(['row:DUPLICATE_OTHER_DOCUMENT:warning']);
    // Merging: into the participant (no second participant), into the original row (rejected).
    const docId =
      first.doc.id === rows[0]!.id
        ? ''
        : (await ok<{ documents: DocumentDetail[] }>('GET', 'documents?q=DupB')).documents[0]!.id;
    const afterMerge = await ok<DocumentRow[]>('POST', `documents/${docId}/rows/${rows[3]!.id}/merge`);
    expect(afterMerge[3]).toMatchObject({
      decision: 'confirmed',
      participant: { raceId: ev.kids, bib: '900' },
    });
    expect(afterMerge[3]!.participant?.id).toMatch(/^[0-9a-f-]{36}$/);
    const merged = await ok<DocumentRow[]>('POST', `documents/${docId}/rows/${rows[1]!.id}/merge`);
    expect(merged[1]).toMatchObject({ decision: 'rejected', reason: 'merged into row 1' });
    expect(merged[0]!.issues).toEqual([]);
    expect((await call('POST', `documents/${docId}/rows/${rows[0]!.id}/merge`)).json().code).toBe(
      'NOT_A_DUPLICATE',
    );
    const count = await app.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM participants WHERE race_id = $1 AND last_name = 'Dubois'`,
      [ev.kids],
    );
    expect(count[0]!.n).toBe(1);
  });

  it('edits cells, sets the race and rejects a selection in bulk, and undoes the last edits', async () => {
    const { doc, rows } = await mapped(
      'Edits',
      csv('Tom;Hardy;M;2015-13-01;;;', 'Uma;Stone;F;2015-01-01;;;', 'Val;Kilmer;M;2015-02-02;;;'),
    );
    expect(codes(rows[0])).toEqual(['birthDate:INVALID_DATE:error']);
    const fixed = await ok<DocumentRow[]>('PATCH', `documents/${doc.id}/rows`, {
      edits: [{ rowId: rows[0]!.id, field: 'birthDate', value: '01/12/2015' }],
    });
    expect(fixed[0]).toMatchObject({ fields: { birthDate: '2015-12-01' }, issues: [] });
    const raced = await ok<DocumentRow[]>('POST', `documents/${doc.id}/rows/bulk`, {
      action: 'setRace',
      rowIds: [rows[1]!.id, rows[2]!.id],
      raceId: ev.fiveK,
    });
    expect(codes(raced[1])).toContain('birthDate:AGE_OUTSIDE_CATEGORIES:error');
    const rejected = await ok<DocumentRow[]>('POST', `documents/${doc.id}/rows/bulk`, {
      action: 'reject',
      rowIds: [rows[2]!.id],
      reason: 'left the school',
    });
    expect(rejected[2]).toMatchObject({ decision: 'rejected', reason: 'left the school', issues: [] });
    const undo1 = await ok<DocumentRow[]>('POST', `documents/${doc.id}/undo`);
    expect(undo1[2]!.decision).toBe('pending');
    const undo2 = await ok<DocumentRow[]>('POST', `documents/${doc.id}/undo`);
    expect(undo2[1]!.fields.race).toBe('');
    expect(codes(undo2[1])).toEqual([]);
    const undo3 = await ok<DocumentRow[]>('POST', `documents/${doc.id}/undo`);
    expect(codes(undo3[0])).toEqual(['birthDate:INVALID_DATE:error']);
    expect((await call('POST', `documents/${doc.id}/undo`)).json().code).toBe('NOTHING_TO_UNDO');
    const detail = await ok<DocumentDetail>('GET', `documents/${doc.id}`);
    expect(detail.history.map((h) => h.action)).toEqual(
      expect.arrayContaining(['edited', 'raceSet', 'rowsRejected', 'undone']),
    );
    expect(
      detail.history.every((h) => h.actorEmail === '' || h.actorEmail === 'confirmation@tempora.local'),
    ).toBe(true);
    expect(
      (
        await call('PATCH', `documents/${doc.id}/rows`, {
          edits: [{ rowId: rows[0]!.id, field: 'shoe', value: '1' }],
        })
      ).statusCode,
    ).toBe(400);
  });

  it('shows a new version as a diff, keeping decisions and participants, never as duplicates', async () => {
    const { doc, rows } = await mapped(
      'Versions',
      csv('Ann;One;F;2015-01-01;;;', 'Bob;Two;M;2015-02-02;;;', 'Cat;Three;F;2015-03-03;;;'),
    );
    await ok('POST', `documents/${doc.id}/confirm`, { rowIds: [rows[0]!.id] });
    const v2 = await ok<DocumentDetail>(
      'POST',
      `documents/${doc.id}/file?name=v2.csv`,
      csv('Ann;One;F;2015-01-01;;;', 'Bob;Two;M;2015-02-02;bob@x.be;;', 'Dan;Four;M;2015-04-04;;;'),
    );
    expect(v2.version).toBe(2);
    expect(v2.status).toBe('partlyConfirmed');
    expect(v2.diff).toEqual({
      version: 2,
      added: [3],
      removed: [{ position: 3, name: 'Cat Three', confirmed: false }],
      changed: [{ position: 2, fields: ['email'] }],
      unchanged: 1,
    });
    const next = await ok<DocumentRow[]>('GET', `documents/${doc.id}/rows`);
    expect(next.map((r) => r.change)).toEqual(['unchanged', 'changed', 'added']);
    expect(next[0]).toMatchObject({
      decision: 'confirmed',
      participant: rows[0]!.participant ?? { raceId: ev.kids },
    });
    expect(next.flatMap((r) => r.issues)).toEqual([]);
    // A sender's mapping is remembered: its next document is mapped on upload.
    const again = await newDocument('Versions');
    const up = await ok<DocumentDetail>(
      'POST',
      `documents/${again.id}/file?name=v.csv`,
      csv('Eli;Five;M;2015-05-05;;;'),
    );
    expect(up.status).toBe('validated');
    expect(up.mapping).toEqual(MAPPING);
  });

  it('matches a corrected pupil as the same row: a fixed birth date, a filled-in name (issue 29)', async () => {
    const { doc, rows } = await mapped(
      'Corrections',
      csv(
        'Léa;Martin;F;2015-01-09;lea@x.be;;', // 1 birth date to fix
        ';Bernard;M;2015-02-02;;;', // 2 first name missing
        'Tom;Petit;M;2015-03-03;;;', // 3 removed
        'Zoé;Petit;F;2016-04-04;;;', // 4 a sibling of 3: stays
      ),
    );
    await ok('POST', `documents/${doc.id}/confirm`, { rowIds: [rows[0]!.id] });
    const v2 = await ok<DocumentDetail>(
      'POST',
      `documents/${doc.id}/file?name=v2.csv`,
      csv(
        'Lea;Martin;F;2015-09-01;lea@x.be;;',
        'Hugo;Bernard;M;2015-02-02;;;',
        'Zoé;Petit;F;2016-04-04;;;',
        'Max;Petit;M;2015-03-05;;;', // a new sibling (first name and birth date differ): added
      ),
    );
    expect(v2.diff).toEqual({
      version: 2,
      added: [4],
      removed: [{ position: 3, name: 'Tom Petit', confirmed: false }],
      changed: [
        { position: 1, fields: ['birthDate', 'firstName'] },
        { position: 2, fields: ['firstName'] },
      ],
      unchanged: 1,
    });
    const next = await ok<DocumentRow[]>('GET', `documents/${doc.id}/rows`);
    // The confirmed pupil stays confirmed, the same participant.
    expect(next[0]).toMatchObject({ change: 'changed', decision: 'confirmed' });
    expect(next[0]!.participant?.id).toBe(
      (await ok<DocumentRow[]>('GET', `documents/${doc.id}/rows`))[0]!.participant?.id,
    );
    expect(next.map((r) => r.change)).toEqual(['changed', 'changed', 'unchanged', 'added']);
  });

  it('reads XLSX workbooks with several sheets, Excel dates included', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Notes').addRow(['nothing here']);
    const sheet = wb.addWorksheet('Pupils');
    sheet.addRow(['First', 'Last', 'G', 'Born']);
    sheet.addRow(['Zoé', 'Excel', 'F', new Date(Date.UTC(2015, 8, 9))]);
    const bytes = Buffer.from(await wb.xlsx.writeBuffer());
    const doc = await newDocument('Workbook');
    const res = await app.inject({
      method: 'POST',
      url: `/api/confirmation/documents/${doc.id}/file?name=pupils.xlsx`,
      headers: {
        authorization: confirmer,
        'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
      payload: bytes,
    });
    expect(res.json().sheets).toEqual(['Notes', 'Pupils']);
    const mappedDoc = await ok<DocumentDetail>('PUT', `documents/${doc.id}/mapping`, {
      sheet: 'Pupils',
      mapping: { firstName: 'First', lastName: 'Last', gender: 'G', birthDate: 'Born' },
    });
    expect(mappedDoc.counts).toMatchObject({ rows: 1, clean: 1 });
    const [row] = await ok<DocumentRow[]>('GET', `documents/${doc.id}/rows`);
    expect(row!.fields).toMatchObject({ firstName: 'Zoé', birthDate: '2015-09-09' });
    expect(
      (
        await call('PUT', `documents/${doc.id}/mapping`, { mapping: { firstName: 'Nope', lastName: 'Last' } })
      ).json().code,
    ).toBe('MAPPING_INVALID');
    expect(
      (await call('POST', `documents/${doc.id}/file?name=x.xlsx`, Buffer.from('PK\u0003\u0004broken'))).json()
        .code,
    ).toBe('FILE_UNREADABLE');
  });

  it('refuses a zip bomb (413) and a workbook of too many rows (422), naming the limit', async () => {
    const doc = await newDocument('Bomb');
    const bomb = await call('POST', `documents/${doc.id}/file?name=bomb.xlsx`, await bombWorkbook(200));
    expect(bomb.statusCode).toBe(413);
    expect(bomb.headers['content-type']).toContain('application/problem+json');
    expect(bomb.json()).toMatchObject({ code: 'XLSX_TOO_LARGE', detail: expect.stringContaining('64 MB') });
    // A document holds at most MAX_ROWS rows: reading stops there.
    const rows = await call(
      'POST',
      `documents/${doc.id}/file?name=rows.xlsx`,
      await manyRowsWorkbook(MAX_ROWS + 1),
    );
    expect(rows.statusCode).toBe(422);
    expect(rows.json()).toMatchObject({ code: 'TOO_MANY_ROWS' });
    const again = await call('GET', `documents/${doc.id}`);
    expect(again.json()).toMatchObject({ status: doc.status, version: doc.version });
  });

  it('reports totals by race and category with date-based fees, as JSON, PDF and XLSX', async () => {
    await ok('PUT', `races/${ev.kids}/settings`, {
      bibFrom: null,
      bibTo: null,
      capacity: null,
      tariffs: [
        { until: '2000-01-01', priceCents: 500 },
        { until: null, priceCents: 800 },
      ],
    });
    const { doc } = await mapped(
      'Fees',
      csv('Ada;Fee;F;2015-01-01;;;', 'Bea;Fee;F;2018-01-01;;;', 'Cid;Fee;M;2030-01-01;;;'),
    );
    await ok('POST', `documents/${doc.id}/confirm`, {});
    const report = await ok<{
      totals: { confirmed: number; feesCents: number; pending: number };
      byCategory: { category: string; confirmed: number }[];
      errors: { position: number }[];
    }>('GET', `documents/${doc.id}/report`);
    expect(report.totals).toMatchObject({ confirmed: 2, pending: 1, feesCents: 1600 });
    expect(report.byCategory.map((c) => [c.category, c.confirmed])).toEqual([
      ['Under 10', 1],
      ['Under 14', 1],
    ]);
    expect(report.errors.map((e) => e.position)).toEqual([3]);
    const pdf = await call('GET', `documents/${doc.id}/report.pdf`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const xlsx = await call('GET', `documents/${doc.id}/report.xlsx`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(wb.getWorksheet('Summary')!.getRow(9).values).toContain(16);
    expect(wb.getWorksheet('Summary')!.getRow(4).values).toContain('Partly confirmed');

    // In French, words and no raw code (issue 17's report, read back as the organiser would).
    const pdfFr = await call('GET', `documents/${doc.id}/report.pdf?lng=fr`);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'conf-report-')), 'r.pdf');
    fs.writeFileSync(file, pdfFr.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Partiellement confirmé');
    expect(text).toContain('Par catégorie');
    expect(text).toMatch(/Date de naissance: (Date non valable|Âge hors des catégories de la course)/);
    expect(text).not.toMatch(/partlyConfirmed|INVALID_DATE|AGE_OUTSIDE|birthDate/);
    const xlsxFr = await call('GET', `documents/${doc.id}/report.xlsx?lng=fr`);
    const wbFr = new ExcelJS.Workbook();
    await wbFr.xlsx.load(xlsxFr.rawPayload as unknown as ArrayBuffer);
    expect(wbFr.worksheets.map((ws) => ws.name)).toEqual(['Synthèse', 'Catégories', 'Erreurs']);
    expect(wbFr.getWorksheet('Synthèse')!.getRow(4).values).toContain('Partiellement confirmé');
    const bad = await call('GET', `documents/${doc.id}/report.pdf?lng=de`);
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
    const event = await ok<{ totals: { feesCents: number } }>('GET', `events/${EVENT}/documents`);
    expect(event.totals.feesCents).toBeGreaterThanOrEqual(1600);
  });

  it('does not bill a pupil merged into a runner registered before (issue 29)', async () => {
    await ok('PUT', `races/${ev.kids}/settings`, {
      bibFrom: null,
      bibTo: null,
      capacity: null,
      tariffs: [{ until: null, priceCents: 800 }],
    });
    const added = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${ev.db}/races/${ev.kids}/participants`,
      headers: { authorization: owner },
      payload: {
        participants: [
          { bib: '7929', firstName: 'Inès', lastName: 'Billed', gender: 'F', birthDate: '2015-06-06' },
        ],
      },
    });
    expect(added.statusCode).toBe(201);
    const { doc, rows } = await mapped(
      'Billing',
      csv('Ines;Billed;F;2015-06-06;;;', 'Jo;Billed;M;2015-07-07;;;'),
    );
    await ok('POST', `documents/${doc.id}/rows/${rows[0]!.id}/merge`);
    await ok('POST', `documents/${doc.id}/confirm`, { rowIds: [rows[1]!.id] });
    const report = await ok<{
      byRace: { confirmed: number; merged: number; unitPriceCents: number; feesCents: number }[];
      totals: { confirmed: number; merged: number; feesCents: number };
    }>('GET', `documents/${doc.id}/report`);
    const unit = report.byRace[0]!.unitPriceCents;
    expect(unit).toBe(800);
    expect(report.totals).toMatchObject({ confirmed: 2, merged: 1, feesCents: unit });
    const listed = (
      await ok<{ documents: { id: string; feesCents: number }[] }>('GET', 'documents?q=Billing')
    ).documents;
    expect(listed.find((d) => d.id === doc.id)?.feesCents).toBe(unit);
  });

  it('lets the confirmation account and the event organisation’s staff in, nobody else', async () => {
    const doc = await newDocument('Access');
    const anonymous = await app.inject({ method: 'GET', url: `/api/confirmation/documents/${doc.id}` });
    expect(anonymous.statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/confirmation/documents' })).statusCode).toBe(401);
    expect(
      (await app.inject({ method: 'POST', url: '/api/confirmation/documents', payload: { eventId: EVENT } }))
        .statusCode,
    ).toBe(401);
    // Another organisation: the document answers as a missing one (issue 25), nothing in its
    // lists, nothing created; the event's list is forbidden (the event is public).
    expect((await call('GET', `documents/${doc.id}`, undefined, stranger)).statusCode).toBe(404);
    expect((await call('POST', `documents/${doc.id}/reject`, { reason: 'x' }, stranger)).statusCode).toBe(
      404,
    );
    expect((await call('GET', `events/${EVENT}/documents`, undefined, stranger)).statusCode).toBe(403);
    expect(
      (
        await call(
          'PUT',
          `races/${ev.kids}/settings`,
          { bibFrom: 1, bibTo: 2, capacity: null, tariffs: [] },
          stranger,
        )
      ).statusCode,
    ).toBe(403);
    expect((await ok<{ documents: unknown[] }>('GET', 'documents', undefined, stranger)).documents).toEqual(
      [],
    );
    expect((await ok<unknown[]>('GET', 'events', undefined, stranger)).length).toBe(0);
    const created = await call(
      'POST',
      'documents',
      { eventId: EVENT, title: 'Sneaky', senderName: 'S', senderKind: 'club', contactEmail: 'a@b.co' },
      stranger,
    );
    expect(created.statusCode).toBe(403);
    // Staff of the event's organisation: sees and works on its documents.
    expect((await call('GET', `documents/${doc.id}`, undefined, staff)).statusCode).toBe(200);
    const list = await ok<{ documents: { id: string }[]; countsByStatus: Record<string, number> }>(
      'GET',
      'documents',
      undefined,
      staff,
    );
    expect(list.documents.map((d) => d.id)).toContain(doc.id);
    expect(list.countsByStatus.uploaded).toBeGreaterThan(0);
    expect(
      (await call('POST', `documents/${doc.id}/reject`, { reason: 'duplicate upload' }, staff)).statusCode,
    ).toBe(200);
    // Bad input is a 4xx problem, never a 5xx.
    expect((await call('GET', 'documents/not-a-uuid')).statusCode).toBe(400);
    expect((await call('GET', 'documents/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await call('GET', 'documents?status=bogus')).statusCode).toBe(400);
    expect(
      (
        await call('POST', 'documents', {
          eventId: 'nope',
          title: 't',
          senderName: 's',
          senderKind: 'club',
          contactEmail: 'a@b.co',
        })
      ).statusCode,
    ).toBe(404);
  });
});
