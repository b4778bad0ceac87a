import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ColumnDef, labelledCell } from '@tempora/contracts';
import { formatDuration, formatGap } from '@tempora/domain';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';
import * as resultsRepo from '../results/repository.ts';
import { hashKey } from '../results/service.ts';

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
const OTHER_ORG = '00000000-0000-4000-8000-0000000000fe';
const EVENT = 'demo-city-run';
const REPORT = `/api/results/${EVENT}/groups/city-10k/reports/LIVE1`;
const EXPORT = `/api/exports/${EVENT}/groups/city-10k/reports/LIVE1`;
const DEVICE_KEY = 'tdk_exports_test_device_1234';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tempora-exports-'));

/**
 * The report page's cells, computed here from the JSON report (time cells as spec §5 says). The
 * data exports (`data`: CSV, XLSX) give a running time's point a column of its own (issue 41).
 */
function screenRows(table: { columns: ColumnDef[]; rows: unknown[][] }, lng: 'en' | 'fr', data = false) {
  const columns = table.columns.filter((c) => c.Type !== 'favorite' && c.Type !== 'spacer');
  const split = (c: ColumnDef) => data && c.Type === 'time' && c.Settings.At !== undefined;
  return {
    headers: columns.flatMap((c) =>
      split(c) ? [c.Title[lng], `${c.Title[lng]} ${lng === 'fr' ? 'à' : 'at'}`] : [c.Title[lng]],
    ),
    rows: table.rows.map((row) =>
      columns.flatMap((c) => {
        const v = row[c.FieldIdx];
        if (c.Type === 'time') {
          const text = c.Settings.Format === 'gap' ? formatGap(Number(v), lng) : formatDuration(Number(v));
          // A running time with its point (issue 27): `1:30:11 · 30 km`.
          const at = c.Settings.At === undefined ? '' : String(row[c.Settings.At] ?? '');
          const point = lng === 'fr' ? (c.Settings.Names?.[at] ?? at) : at;
          if (split(c)) return [text, at && text ? point : ''];
          return [at && text ? `${text} · ${point}` : text];
        }
        return [v === null || v === undefined ? '' : String(labelledCell(c, v, lng))];
      }),
    ),
  };
}

/** What a spreadsheet shows once formula-like cells are neutralised (numbers and times are values). */
const safe = (cell: string) =>
  /^[=+\-@\t\r]/.test(cell) && !/^[+-]\d+(?:[:.,]\d+)*$/.test(cell) ? `'${cell}` : cell;

function pdfText(bytes: Buffer, name: string): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
}

describe('exports, printed lists, certificates and feeds', () => {
  let app: FastifyInstance;
  let owner: string;
  let staff: string;
  let timekeeper: string;
  let stranger: string;
  let gun: number;
  let lastBib: string;
  beforeAll(async () => {
    app = await buildTestApp();
    await app.database.query(`INSERT INTO organisations (id, slug, name) VALUES ($1, 'other-x', 'Other')`, [
      OTHER_ORG,
    ]);
    const user = async (organisationId: string, role: 'owner' | 'staff' | 'timekeeper') =>
      (await createTestUser(app, { memberships: [{ organisationId, role }] })).authorization;
    owner = await user(DEMO_ORG, 'owner');
    staff = await user(DEMO_ORG, 'staff');
    timekeeper = await user(DEMO_ORG, 'timekeeper');
    stranger = await user(OTHER_ORG, 'owner');
    // A runner whose name and club a spreadsheet would run as formulas, with accents.
    const added = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/races/city-10k/participants`,
      headers: { authorization: owner },
      payload: {
        participants: [
          {
            bib: 'X1',
            firstName: 'Zoë',
            lastName: '=HYPERLINK("http://x")',
            gender: 'F',
            club: '+Club',
            age: 30,
          },
          { bib: 'X2', firstName: 'Ångström', lastName: '@Ödön Łukasz', gender: 'M', club: '-dash', age: 41 },
        ],
      },
    });
    expect(added.statusCode).toBe(201);
    await resultsRepo.insertDevice(app.database, {
      db: DEMO_DB,
      name: 'finish',
      keyHash: hashKey(DEVICE_KEY),
      pointKey: 'finish',
    });
    const rows = await app.database.query<{ gun: number }>(
      "SELECT gun_time_ms::float8 AS gun FROM races WHERE id = 'city-10k'",
    );
    gun = rows[0]!.gun;
    const demo = await app.database.query<{ bib: string }>(
      "SELECT bib FROM participants WHERE race_id = 'city-10k' AND bib NOT LIKE 'X%' ORDER BY bib LIMIT 40",
    );
    const bibs = ['X1', 'X2', ...demo.map((d) => d.bib)];
    lastBib = bibs.at(-1)!;
    const res = await app.inject({
      method: 'POST',
      url: '/api/ingest/passings',
      headers: { 'x-device-key': DEVICE_KEY },
      payload: { passings: bibs.map((bib, k) => ({ bib, time: gun + 2_400_000 + k * 7_321 })) },
    });
    expect(res.json().accepted).toBe(bibs.length);
  });
  afterAll(() => app.close());

  const get = (url: string, authorization?: string) =>
    app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });

  it('keeps exports for organisers until they open them to spectators', async () => {
    expect((await get(`${EXPORT}?format=csv`)).statusCode).toBe(401);
    expect((await get(`${EXPORT}?format=csv`, stranger)).statusCode).toBe(403);
    expect((await get(`${EXPORT}?format=csv`, timekeeper)).statusCode).toBe(403);
    expect((await get(`${EXPORT}?format=csv`, staff)).statusCode).toBe(200);
    expect((await get(`/api/exports/${EVENT}/settings`)).json()).toEqual({
      spectatorExports: false,
      organiser: false,
    });
    expect((await get(`/api/exports/${EVENT}/settings`, staff)).json()).toEqual({
      spectatorExports: false,
      organiser: true,
    });
    const put = (authorization: string | undefined, payload: unknown) =>
      app.inject({
        method: 'PUT',
        url: `/api/exports/${EVENT}/settings`,
        headers: authorization ? { authorization } : {},
        payload: payload as object,
      });
    expect((await put(undefined, { spectatorExports: true })).statusCode).toBe(401);
    expect((await put(timekeeper, { spectatorExports: true })).statusCode).toBe(403);
    expect((await put(stranger, { spectatorExports: true })).statusCode).toBe(403);
    expect((await put(owner, { spectatorExports: 'yes' })).statusCode).toBe(400);
    expect((await get(`/api/exports/${EVENT}/settings`, stranger)).json().spectatorExports).toBe(false);
    expect((await put(owner, { spectatorExports: true })).statusCode).toBe(200);
    expect((await get(`${EXPORT}?format=csv`)).statusCode).toBe(200);
    expect((await get(`${EXPORT}?format=doc`)).statusCode).toBe(400);
    expect((await get(`/api/exports/nope/groups/city-10k/reports/LIVE1?format=csv`)).statusCode).toBe(404);
    expect((await get(`/api/exports/${EVENT}/groups/city-10k/reports/NOPE?format=csv`)).statusCode).toBe(404);
  });

  it('exports CSV (BOM, either separator) equal to the report, formulas neutralised', async () => {
    const table = (await get(REPORT)).json();
    for (const [lng, sep] of [
      ['fr', ';'],
      ['en', ','],
    ] as const) {
      const res = await get(`${EXPORT}?format=csv&lng=${lng}&sep=${encodeURIComponent(sep)}`, owner);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      expect(res.headers['content-disposition']).toContain('attachment');
      expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      const records: string[][] = parse(res.rawPayload, {
        bom: true,
        delimiter: sep,
        relax_column_count: false,
      });
      const expected = screenRows(table, lng, true);
      expect(records[0]).toEqual(expected.headers);
      expect(records.slice(1)).toEqual(expected.rows.map((r) => r.map(safe)));
      // Issue 41: a time column holds a time (its point has its own column); gaps stay `+0:50`.
      expect(records.flat().filter((cell) => cell.includes(' · '))).toEqual([]);
      expect(records.flat().filter((cell) => cell.startsWith("'+0") || cell.startsWith("'+1"))).toEqual([]);
      // Runners without a rank show their status as a label in the language asked, never a code.
      const ranks = records.slice(1).map((r) => r[0]);
      expect(ranks).toContain(lng === 'fr' ? 'Non parti' : 'Not started');
      expect(ranks).not.toContain('notStarted');
    }
    const res = await get(`${EXPORT}?format=csv&lng=en`, owner);
    const text = res.rawPayload.toString('utf8');
    expect(text).toContain(`"'=HYPERLINK(""HTTP://X"") Zoë"`);
    expect(text).toContain("'+Club");
    expect(text).toContain("'@ÖDÖN ŁUKASZ Ångström");
    expect(text).toContain("'-dash");
    const cells = (parse(res.rawPayload, { bom: true, delimiter: ';' }) as string[][]).flat();
    // Only signed numbers and times start with a formula character: gaps are written `+0:50`.
    expect(cells.filter((c) => /^[=+\-@]/.test(c) && !/^[+-]\d+(?:[:.,]\d+)*$/.test(c))).toEqual([]);
  });

  it('applies the page search to the export', async () => {
    const res = await get(`${EXPORT}?format=csv&lng=en&sep=,&q=X2`, owner);
    const records: string[][] = parse(res.rawPayload, { bom: true, delimiter: ',' });
    expect(records).toHaveLength(2);
    expect(records[1]).toContain('X2');
    const byName = parse((await get(`${EXPORT}?format=csv&q=angstrom`, owner)).rawPayload, {
      bom: true,
      delimiter: ';',
    });
    expect(byName.map((r: string[]) => r[1])).toEqual(['Dossard', 'X2']);
  });

  it('exports XLSX as data: ranks numbers, times and gaps durations, text never a formula (issue 41)', async () => {
    const table = (await get(REPORT)).json();
    for (const lng of ['en', 'fr'] as const) {
      const res = await get(`${EXPORT}?format=xlsx&lng=${lng}`, owner);
      expect(res.statusCode).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0]!;
      const expected = screenRows(table, lng, true);
      const headers = (sheet.getRow(1).values as unknown[]).slice(1);
      expect(headers).toEqual(expected.headers);
      const column = (title: string) => headers.indexOf(title) + 1;
      const rank = column(lng === 'fr' ? 'Place' : 'Rank');
      const time = column(lng === 'fr' ? 'Temps' : 'Time');
      const gap = column(lng === 'fr' ? 'Écart' : 'Gap');
      expect([rank, time, gap].every((c) => c > 0)).toBe(true);
      let numbers = 0;
      expected.rows.forEach((cells, k) => {
        const row = sheet.getRow(k + 2);
        cells.forEach((text, c) => {
          const read = row.getCell(c + 1).value;
          // exceljs reads a number with a time format back as a Date (days since 1899-12-30).
          const v = read instanceof Date ? (read.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000 : read;
          expect(typeof v === 'object' && v !== null).toBe(false); // never a formula object
          // Every time and gap shown is a duration, every rank a number.
          if ((c + 1 === time || c + 1 === gap) && text) expect(typeof v).toBe('number');
          if (c + 1 === rank && /^\d+$/.test(text)) expect(typeof v).toBe('number');
          if (typeof v === 'number') {
            numbers++;
            const shown = c + 1 === rank ? String(v) : text;
            expect(shown).toBe(text);
            if (c + 1 === time || c + 1 === gap) {
              const ms = Math.round(v * 86_400_000);
              const again = c + 1 === gap ? formatGap(ms, lng) : formatDuration(ms);
              expect(again).toBe(text);
            }
          } else expect(v === null ? '' : v).toBe(text); // text as it is: no apostrophe
        });
      });
      expect(numbers).toBeGreaterThan(50);
      expect(sheet.getColumn(time).numFmt).toBe('[h]:mm:ss');
      expect(sheet.getColumn(gap).numFmt).toMatch(/^\+\[h\]:mm:ss/);
      expect(typeof sheet.getRow(2).getCell(rank).value).toBe('number');
      // A formula-like name is the name, as text: no apostrophe, no formula (issue 41).
      const names: unknown[] = [];
      sheet.eachRow((row) => names.push(...(row.values as unknown[])));
      expect(names).toContain('=HYPERLINK("HTTP://X") Zoë');
      expect(names).not.toContain('notStarted');
    }
  }, 90_000); // two workbooks written on a worker thread and read back: slow on a loaded machine

  it('prints a PDF list whose text is the report, with page numbers and category sections', async () => {
    const table = (await get(REPORT)).json();
    for (const lng of ['en', 'fr'] as const) {
      const res = await get(`${EXPORT}?format=pdf&lng=${lng}`, owner);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const text = pdfText(res.rawPayload, `list-${lng}.pdf`);
      const lines = text.split('\n').map((l) => l.trim().replace(/\s+/g, ' '));
      const expected = screenRows(table, lng);
      expect(lines).toContain(expected.headers.filter(Boolean).join(' '));
      for (const row of expected.rows) expect(lines).toContain(row.filter(Boolean).join(' '));
      expect(text).not.toContain('notStarted');
      expect(text).toContain(lng === 'fr' ? 'Non parti' : 'Not started');
      const pages = (text.match(/\f/g) ?? []).length;
      expect(pages).toBeGreaterThan(1);
      expect(text).toContain(lng === 'en' ? `Page 1 of ${pages}` : `Page 1 sur ${pages}`);
      expect(text).toContain('Demo City Run');
    }
    const sectioned = pdfText(
      (await get(`${EXPORT}?format=pdf&lng=en&sections=category`, owner)).rawPayload,
      's.pdf',
    );
    const headings = sectioned.match(/Overall — [^\n]+/g) ?? [];
    expect(new Set(headings.map((h) => h.trim())).size).toBeGreaterThan(2);
  });

  it('prints the event’s logo on every page of a list; spectators get it with the event (issue 29)', async () => {
    const images = (bytes: Buffer, name: string) => {
      const file = path.join(tmp, name);
      fs.writeFileSync(file, bytes);
      // pdfimages lists one line per image drawn per page, after a two-line header.
      return execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).trim().split('\n').slice(2);
    };
    const before = (await get(`${EXPORT}?format=pdf&lng=en`, owner)).rawPayload;
    expect(images(before, 'no-logo.pdf')).toEqual([]);
    expect((await get(`/api/events/${EVENT}`)).json().logoUrl ?? null).toBeNull();
    const png = await (await import('sharp'))
      .default({ create: { width: 120, height: 60, channels: 3, background: '#d11149' } })
      .png()
      .toBuffer();
    const up = await app.inject({
      method: 'PUT',
      url: `/api/console/events/${EVENT}/logo`,
      headers: { authorization: owner, 'content-type': 'image/png' },
      payload: png,
    });
    expect(up.statusCode).toBe(200);
    const pdf = (await get(`${EXPORT}?format=pdf&lng=fr`, owner)).rawPayload;
    const pages = (pdfText(pdf, 'logo.pdf').match(/\f/g) ?? []).length;
    const drawn = images(pdf, 'logo.pdf');
    expect(drawn).toHaveLength(pages);
    expect(drawn.every((line) => /\bimage\b/.test(line))).toBe(true);
    // The published event's logo, for an anonymous spectator.
    const logoUrl = (await get(`/api/events/${EVENT}`)).json().logoUrl as string;
    expect(logoUrl).toMatch(new RegExp(`^/api/events/${EVENT}/logo\\?v=`));
    expect((await get(`/api/events`)).json().find((e: { id: string }) => e.id === EVENT).logoUrl).toBe(
      logoUrl,
    );
    const image = await get(logoUrl);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
  });

  it('makes at most two XLSX/PDF exports at once per node, asking others to retry', async () => {
    const results = await Promise.all([0, 1, 2, 3].map(() => get(`${EXPORT}?format=pdf&lng=en`, owner)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 200, 503, 503]);
    const busy = results.find((r) => r.statusCode === 503)!;
    expect(busy.json().code).toBe('EXPORT_BUSY');
    expect(busy.headers['retry-after']).toBe('5');
    // Finished exports free their places; CSV is never limited.
    expect((await get(`${EXPORT}?format=xlsx`, owner)).statusCode).toBe(200);
    expect((await get(`${EXPORT}?format=csv`, owner)).statusCode).toBe(200);
  });

  it('makes a certificate whose QR code opens a verification of the result; a tampered token is refused', async () => {
    const hit = (await get(`/api/results/contexts/${DEMO_DB}/participants?q=X2`)).json()[0];
    const pdf = await get(`/api/certificates/${hit.trackingKey}?lng=fr`);
    expect(pdf.statusCode).toBe(200);
    const text = pdfText(pdf.rawPayload, 'cert.pdf');
    expect(text).toContain('Ångström @Ödön Łukasz');
    expect(text).toContain('Temps net');
    const file = path.join(tmp, 'cert.pdf');
    execFileSync('pdftoppm', ['-r', '100', '-png', '-singlefile', file, path.join(tmp, 'cert')]);
    const png = PNG.sync.read(fs.readFileSync(path.join(tmp, 'cert.png')));
    const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(code?.data).toMatch(/^http:\/\/localhost(:\d+)?\/#\/verify\/[\w.-]+$/);
    const token = code!.data.split('/verify/')[1]!;
    const verified = await get(`/api/verify/${token}`);
    expect(verified.statusCode).toBe(200);
    const card = (await get(`/api/tracking/${hit.trackingKey}`)).json();
    expect(verified.json()).toMatchObject({
      valid: true,
      athlete: { bib: 'X2', name: 'Ångström @Ödön Łukasz' },
      status: 'finished',
      netMs: card.splits.at(-1).netMs,
      certificateNetMs: card.splits.at(-1).netMs,
      rankOverall: card.splits.at(-1).rankOverall,
    });
    expect(text).toContain(formatDuration(card.splits.at(-1).netMs));
    const [key, net, issued, mac] = token.split('.') as [string, string, string, string];
    const flip = (s: string) => (s[0] === 'a' ? 'b' : 'a') + s.slice(1);
    for (const forged of [
      `${key}.${(Number.parseInt(net, 36) - 60_000).toString(36)}.${issued}.${mac}`,
      `${key}.${net}.${issued}.${flip(mac)}`,
      `${key}.${net}.${issued}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      `${flip(key)}.${net}.${issued}.${mac}`,
      'garbage',
    ]) {
      const res = await get(`/api/verify/${encodeURIComponent(forged)}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('CERTIFICATE_INVALID');
    }
    const [notYet] = await app.database.query<{ key: string }>(
      "SELECT tracking_key AS key FROM participants WHERE race_id = 'city-10k' AND bib NOT LIKE 'X%' ORDER BY bib DESC LIMIT 1",
    );
    const refused = await get(`/api/certificates/${notYet!.key}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('NOT_FINISHED');
    expect((await get('/api/certificates/nobody')).statusCode).toBe(404);
  });

  it('lets owners and staff design the certificate, nobody else', async () => {
    const url = `/api/exports/${EVENT}/certificate`;
    expect((await get(url)).statusCode).toBe(401);
    expect((await get(url, timekeeper)).statusCode).toBe(403);
    expect((await get(url, stranger)).statusCode).toBe(403);
    const info = (await get(url, staff)).json();
    expect(info.saved).toBe(false);
    const template = {
      ...info.template,
      fields: [
        ...info.template.fields,
        { kind: 'text', label: { en: 'Well done!', fr: 'Bravo !' }, x: 20, y: 195, width: 100, size: 12 },
      ],
    };
    const put = (authorization: string | undefined, payload: unknown) =>
      app.inject({
        method: 'PUT',
        url,
        headers: authorization ? { authorization } : {},
        payload: payload as object,
      });
    expect((await put(undefined, template)).statusCode).toBe(401);
    expect((await put(timekeeper, template)).statusCode).toBe(403);
    expect((await put(stranger, template)).statusCode).toBe(403);
    expect((await put(owner, { ...template, orientation: 'round' })).statusCode).toBe(400);
    expect(
      (await put(owner, { ...template, fields: [{ kind: 'qr', x: -5, y: 0, width: 20, size: 1 }] }))
        .statusCode,
    ).toBe(400);
    const saved = await put(owner, template);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().saved).toBe(true);
    const preview = await get(`${url}/preview?lng=fr`, staff);
    expect(preview.statusCode).toBe(200);
    expect(pdfText(preview.rawPayload, 'preview.pdf')).toContain('Bravo !');
    expect((await get(`${url}/preview`)).statusCode).toBe(401);

    const png = new PNG({ width: 8, height: 8 });
    png.data.fill(200);
    const image = PNG.sync.write(png);
    const upload = (authorization: string | undefined, body: Buffer, type = 'image/png') =>
      app.inject({
        method: 'PUT',
        url: `${url}/background`,
        headers: { 'content-type': type, ...(authorization ? { authorization } : {}) },
        payload: body,
      });
    expect((await upload(undefined, image)).statusCode).toBe(401);
    expect((await upload(timekeeper, image)).statusCode).toBe(403);
    expect((await upload(owner, Buffer.from('not an image'))).statusCode).toBe(400);
    expect((await upload(owner, image, 'image/gif')).statusCode).toBe(415);
    const done = await upload(owner, image);
    expect(done.statusCode).toBe(200);
    expect(done.json().hasBackground).toBe(true);
    const back = await get(`${url}/background`, owner);
    expect(back.rawPayload.equals(image)).toBe(true);
    expect((await get(`${url}/background`, stranger)).statusCode).toBe(403);
    const hit = (await get(`/api/results/contexts/${DEMO_DB}/participants?q=X1`)).json()[0];
    expect((await get(`/api/certificates/${hit.trackingKey}?lng=en`)).statusCode).toBe(200);
    const removed = await app.inject({
      method: 'DELETE',
      url: `${url}/background`,
      headers: { authorization: owner },
    });
    expect(removed.json().hasBackground).toBe(false);
    expect((await app.inject({ method: 'DELETE', url: `${url}/background` })).statusCode).toBe(401);
  });

  it('serves broadcast feeds as flat rows with an ETag', async () => {
    const base = `/api/feeds/${DEMO_DB}/races/city-10k`;
    const finishers = await get(`${base}/finishers?count=5`);
    expect(finishers.statusCode).toBe(200);
    expect(finishers.headers['cache-control']).toBe('public, max-age=2');
    const rows = finishers.json();
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatchObject({ position: 1, bib: lastBib });
    for (const row of rows) {
      for (const v of Object.values(row)) expect(['string', 'number']).toContain(typeof v);
      expect(row.net).toBe(formatDuration(row.netMs));
    }
    const again = await app.inject({
      url: `${base}/finishers?count=5`,
      headers: { 'if-none-match': String(finishers.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const leaders = (await get(`${base}/leaders?count=3`)).json();
    expect(
      leaders.filter((r: { point: string }) => r.point === 'finish').map((r: { rank: number }) => r.rank),
    ).toEqual([1, 2, 3]);
    const hot = (await get(`${base}/hotseat`)).json();
    expect(hot[0]).toMatchObject({ slot: 'hotseat', rank: 1, bib: 'X1' });
    expect((await get(`${base}/finishers?count=0`)).statusCode).toBe(400);
    expect((await get(`/api/feeds/${DEMO_DB}/races/nope/finishers`)).statusCode).toBe(404);
  });
});
