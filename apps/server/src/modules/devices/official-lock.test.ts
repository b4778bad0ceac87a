import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { DEMO_ORG } from '../../../test/routes/route-table.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';
import { createExportsService } from '../exports/service.ts';
import { hashKey, insertDevice } from '../results/port.ts';

const GUN = Date.UTC(2026, 11, 4, 21);
const MIN = 60_000;
const EVENT = 'demo-city-run';
const RACE = 'lock10';
const DEVICE_KEY = 'tdk_official_lock_device_1';

/**
 * Issue 43, "official means official": once a race's results are published, a desk entry, a
 * correction, a status change, an import and a device read change nothing silently.
 */
describe('the lock on official results (issue 43)', () => {
  let app: FastifyInstance;
  let owner: string;
  let timekeeper: string;
  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, who = owner) =>
    app.inject({
      method,
      url,
      headers: { authorization: who },
      ...(payload ? { payload: payload as object } : {}),
    });
  const desk = (path: string, payload: unknown, who = timekeeper) =>
    inject('POST', `/api/raceday/contexts/${DEMO_DB}${path}`, payload, who);
  const passings = async () =>
    (
      await app.database.query<{ n: number }>('SELECT count(*)::int AS n FROM passings WHERE db = $1', [
        DEMO_DB,
      ])
    )[0]!.n;
  const card = async (bib: string) =>
    (await app.inject({ url: `/api/results/contexts/${DEMO_DB}/participants/${bib}` })).json() as {
      status: string;
      splits: { pointKey: string; rankOverall: number | null; netMs: number | null }[];
      trackingKey?: string;
      athlete: { trackingKey: string };
      corrections?: { kind: string; bib: string | null; reason: string }[];
    };
  const rank = async (bib: string) =>
    (await card(bib)).splits.find((s) => s.pointKey === 'finish')?.rankOverall;
  const publication = async () =>
    (await app.inject({ url: `/api/events/${EVENT}` }))
      .json()
      .races.find((r: { id: string }) => r.id === RACE).publication as {
      state: string;
      corrections?: { kind: string; bib: string | null }[];
    };

  beforeAll(async () => {
    app = await buildTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
    timekeeper = (
      await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'timekeeper' }] })
    ).authorization;
    await inject('POST', `/api/results/contexts/${DEMO_DB}/races`, {
      id: RACE,
      name: 'Lock 10 km',
      date: '2026-12-04',
      distanceM: 10_000,
      startType: 'mass',
      gunTimeMs: GUN,
      categories: [],
      points: [{ key: 'finish', name: 'Finish', distanceM: 10_000 }],
    });
    await inject('POST', `/api/results/contexts/${DEMO_DB}/races/${RACE}/participants`, {
      participants: ['K1', 'K2', 'K3', 'K4'].map((bib) => ({
        bib,
        firstName: 'Runner',
        lastName: bib,
        gender: 'M',
      })),
    });
    const stored = await inject('POST', `/api/results/contexts/${DEMO_DB}/passings`, {
      passings: [
        { id: 'k1', bib: 'K1', point: 'finish', time: GUN + 38 * MIN },
        { id: 'k2', bib: 'K2', point: 'finish', time: GUN + 40 * MIN },
        { id: 'k3', bib: 'K3', point: 'finish', time: GUN + 42 * MIN },
      ],
    });
    expect(stored.json().accepted).toBe(3);
    await insertDevice(app.database, {
      db: DEMO_DB,
      name: 'lock finish',
      keyHash: hashKey(DEVICE_KEY),
      pointKey: 'finish',
    });
    await inject('POST', `/api/webhooks/events/${EVENT}`, {
      url: 'http://127.0.0.1:9/hook',
      types: ['results.corrected'],
    });
    const published = await inject('PUT', `/api/console/races/${RACE}/publication`, {
      official: true,
      protestWindowMinutes: 0,
    });
    expect(published.statusCode).toBe(200);
  });
  afterAll(() => app.close());

  const entry = (clientId: string, bib = 'K4', minutes = 39) => ({
    entries: [{ clientId, bib, pointKey: 'finish', timeMs: GUN + minutes * MIN }],
  });

  it('refuses a desk entry after "official" with 409 RACE_OFFICIAL, storing nothing', async () => {
    const before = await passings();
    const res = await desk('/manual', entry('lockentry01'));
    expect(res.statusCode).toBe(409);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({
      code: 'RACE_OFFICIAL',
      errors: [
        { field: 'raceId', message: RACE },
        { field: 'race', message: 'Lock 10 km' },
      ],
    });
    expect(await passings()).toBe(before);
    expect(await rank('K3')).toBe(3);
  });

  it('lets only the organiser confirm a correction (a timekeeper gets 403), then shows it everywhere', async () => {
    const refused = await desk('/manual', {
      ...entry('lockentry02'),
      correction: { reason: 'missed by the mat' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('CORRECTION_NEEDS_ORGANISER');
    expect(await rank('K3')).toBe(3);

    const issued = (await app.inject({ url: `/api/certificates/${(await card('K3')).athlete.trackingKey}` }))
      .statusCode;
    expect(issued).toBe(200);
    const token = await certificateToken('K3');

    const ok = await desk(
      '/manual',
      { ...entry('lockentry03'), correction: { reason: 'missed by the mat' } },
      owner,
    );
    expect(ok.statusCode).toBe(200);
    expect(await rank('K3')).toBe(4);
    expect(await rank('K4')).toBe(2);
    // The public report's publication, the runner's card (of another runner too), the feed.
    const pub = await publication();
    expect(pub.state).toBe('official');
    expect(pub.corrections).toMatchObject([
      { kind: 'added', bib: 'K4', name: 'Runner K4', reason: 'missed by the mat' },
    ]);
    expect((await card('K3')).corrections).toMatchObject([{ kind: 'added', bib: 'K4' }]);
    const feed = await app.inject({ url: `/api/feeds/${DEMO_DB}/races/${RACE}/corrections` });
    expect(feed.json()[0]).toMatchObject({ kind: 'added', bib: 'K4', reason: 'missed by the mat' });
    expect(feed.json()[0].text).toMatch(
      /^Corrected on \d+ \w+ \d{4}, \d\d:\d\d CE(S)?T: bib K4 Runner K4, a time at Finish added \(22:39:00 CE(S)?T\)\. Reason: missed by the mat$/,
    );
    expect(feed.json()[0].textFr).toMatch(/^Corrigé le \d+ \S+ \d{4}, \d\d:\d\d UTC\+[12] : dossard K4/);
    // The certificate issued before says it was replaced; the webhook is queued.
    const verified = (await app.inject({ url: `/api/verify/${token}` })).json();
    expect(verified.replacedAtMs).toBeGreaterThan(verified.issuedAt);
    expect(verified.corrections).toHaveLength(1);
    // The re-issued certificate prints the correction at its foot, in the language asked.
    const pdf = await app.inject({
      url: `/api/certificates/${(await card('K3')).athlete.trackingKey}?lng=fr`,
    });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lock-')), 'cert.pdf');
    fs.writeFileSync(file, pdf.rawPayload);
    if (process.env.OFFICIAL_SHOTS)
      fs.copyFileSync(file, path.join(process.env.OFFICIAL_SHOTS, 'certificate-fr.pdf'));
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(
      /\s+/g,
      ' ',
    );
    expect(text).toMatch(
      /Corrigé le \d+ \S+ \d{4}, \d\d:\d\d UTC\+[12] : dossard K4 Runner K4, un temps à Finish ajouté/,
    );
    const queued = await app.database.query<{
      type: string;
      payload: { data: { bib: string; reason: string } };
    }>(`SELECT type, payload FROM webhook_deliveries WHERE type = 'results.corrected'`);
    expect(queued.map((q) => [q.payload.data.bib, q.payload.data.reason])).toEqual([
      ['K4', 'missed by the mat'],
    ]);
  });

  it('refuses a status change and an import unless confirmed; a confirmed status is a correction', async () => {
    const status = { bib: 'K1', status: 'DSQ', reason: 'cut the course' };
    const path = `/races/${RACE}/status`;
    expect((await desk(path, status)).json().code).toBe('RACE_OFFICIAL');
    expect(await rank('K1')).toBe(1);
    const imported = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/import/passings?bib=bib&time=time&defaultPoint=finish`,
      headers: { authorization: owner, 'content-type': 'text/csv' },
      payload: `bib,time\nK1,${new Date(GUN + 30 * MIN).toISOString()}\n`,
    });
    expect(imported.statusCode).toBe(409);
    expect(imported.json().code).toBe('RACE_OFFICIAL');
    expect(await rank('K1')).toBe(1);
    // Confirmed by the organiser, the file goes in as one correction naming how many times it brought.
    const confirmedImport = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/import/passings?bib=bib&time=time&defaultPoint=finish&correction=${encodeURIComponent('late results file')}`,
      headers: { authorization: owner, 'content-type': 'text/csv' },
      payload: `bib,time\nK2,${new Date(GUN + 38.5 * MIN).toISOString()}\n`,
    });
    expect(confirmedImport.statusCode, confirmedImport.body).toBe(200);
    expect(await rank('K2')).toBe(2);
    const ok = await desk(path, { ...status, correction: { reason: 'cut the course' } }, owner);
    expect(ok.statusCode).toBe(201);
    expect((await card('K1')).status).toBe('DSQ');
    expect((await publication()).corrections?.map((c) => c.kind)).toEqual(['status', 'imported', 'added']);
    expect((await publication()).corrections?.[1]).toMatchObject({
      kind: 'imported',
      count: 1,
      reason: 'late results file',
    });
  });

  it('holds a device’s read of an official race (stored voided, audited) until the organiser restores it', async () => {
    const before = await passings();
    const finishOf = async () => (await card('K2')).splits.find((x) => x.pointKey === 'finish')?.netMs;
    const netBefore = await finishOf();
    const read = await app.inject({
      method: 'POST',
      url: '/api/ingest/passings',
      headers: { 'x-device-key': DEVICE_KEY },
      payload: { passings: [{ id: 'late-k2', bib: 'K2', time: GUN + 35 * MIN }] },
    });
    expect(read.statusCode).toBe(200);
    expect(await passings()).toBe(before + 2);
    expect(await finishOf()).toBe(netBefore);
    const audit = (
      await inject('GET', `/api/raceday/contexts/${DEMO_DB}/audit`, undefined, timekeeper)
    ).json();
    const held = audit.find((a: { action: string }) => a.action === 'hold');
    expect(held).toMatchObject({ bib: 'K2' });
    const restore = { action: 'restore', passingId: held.passingId, reason: 'late chip read checked' };
    expect((await desk('/corrections', restore)).json().code).toBe('RACE_OFFICIAL');
    const ok = await desk(
      '/corrections',
      { ...restore, correction: { reason: 'late chip read checked' } },
      owner,
    );
    expect(ok.statusCode).toBe(201);
    expect(await finishOf()).toBe(35 * MIN + 1); // a restored read is stored 1 ms later (service.ts)
    expect((await publication()).corrections?.[0]).toMatchObject({ kind: 'restored', bib: 'K2' });
  });

  it('re-opens to provisional only with a reason, a correction spectators see; then the desk is free', async () => {
    const bare = await inject('PUT', `/api/console/races/${RACE}/publication`, { official: false });
    expect(bare.statusCode).toBe(400);
    expect((await publication()).state).toBe('official');
    const reopened = await inject('PUT', `/api/console/races/${RACE}/publication`, {
      official: false,
      reason: 'protest upheld',
    });
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json().publication).toBeNull();
    const pub = await publication();
    expect(pub.state).toBe('provisional');
    expect(pub.corrections?.[0]).toMatchObject({ kind: 'reopened', reason: 'protest upheld' });
    expect((await desk('/manual', entry('lockentry04', 'K4', 37))).statusCode).toBe(200);
  });

  async function certificateToken(bib: string) {
    // The verification token the certificate prints, as the service signs it.
    const service = createExportsService({
      database: app.database,
      results: app.results,
      dataDir: app.config.dataDir,
    });
    const data = await service.certificateData((await card(bib)).athlete.trackingKey, 'en', 'http://x');
    return data.data.verifyUrl.split('/#/verify/')[1]!;
  }
});
