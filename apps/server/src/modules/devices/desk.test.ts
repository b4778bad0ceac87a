import { raceClock } from '@tempora/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { DEMO_DB, DEMO_RACE } from '../../seed/demo-races.ts';

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
const OTHER_ORG = '00000000-0000-4000-8000-0000000000ff';
const url = (path: string) => `/api/raceday/contexts/${DEMO_DB}${path}`;

describe('passings desk API', () => {
  let app: FastifyInstance;
  const auth: Record<'owner' | 'staff' | 'timekeeper' | 'stranger', string> = {
    owner: '',
    staff: '',
    timekeeper: '',
    stranger: '',
  };
  beforeAll(async () => {
    // A decoder on the timer's LAN (issue 25: private networks only where the operator lists them).
    app = await buildTestApp({ DEVICE_NETWORKS: '10.0.0.0/8' });
    await app.database.query(`INSERT INTO organisations (id, slug, name) VALUES ($1, 'other', 'Other')`, [
      OTHER_ORG,
    ]);
    for (const role of ['owner', 'staff', 'timekeeper'] as const)
      auth[role] = (
        await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role }] })
      ).authorization;
    auth.stranger = (
      await createTestUser(app, { memberships: [{ organisationId: OTHER_ORG, role: 'owner' }] })
    ).authorization;
  });
  afterAll(() => app.close());

  const post = (path: string, payload: unknown, who: keyof typeof auth | null = 'timekeeper') =>
    app.inject({
      method: 'POST',
      url: url(path),
      payload: payload as object,
      headers: who ? { authorization: auth[who] } : {},
    });
  const get = (path: string, who: keyof typeof auth | null = 'timekeeper') =>
    app.inject({ method: 'GET', url: url(path), headers: who ? { authorization: auth[who] } : {} });
  const finishOf = async (bib: string) => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/results/contexts/${DEMO_DB}/participants/${bib}`,
    });
    const card = res.json() as {
      race: { id: string };
      status: string;
      splits: { pointKey: string; timeOfDay: number | null }[];
    };
    // The card gives times of day on the wall clock; the demo race's clock runs faster (issue 19):
    // back to the race clock the desk entries were made on.
    const [race] = await app.database.query<{ gun: number | null; rate: number }>(
      'SELECT gun_time_ms::float8 AS gun, clock_rate AS rate FROM races WHERE id = $1',
      [card.race.id],
    );
    const wall = card.splits.find((s) => s.pointKey === 'finish')?.timeOfDay ?? null;
    return {
      status: card.status,
      finish: wall === null ? null : Math.round(raceClock(race!.gun, race!.rate, wall)),
    };
  };
  const passingsCount = async () =>
    Number((await app.database.query<{ n: number }>('SELECT count(*)::int AS n FROM passings'))[0]!.n);

  it('refuses anonymous (401) and another organisation (403) on every desk route, changing nothing', async () => {
    const before = await passingsCount();
    const entry = {
      entries: [{ clientId: 'abcdefgh1', bib: '101', pointKey: 'finish', timeMs: Date.now() }],
    };
    for (const [who, code] of [
      [null, 401],
      ['stranger', 403],
    ] as const) {
      expect((await post('/manual', entry, who)).statusCode).toBe(code);
      expect((await get('/passings', who)).statusCode).toBe(code);
      expect((await get('/audit', who)).statusCode).toBe(code);
      expect((await get('/devices', who)).statusCode).toBe(code);
      expect(
        (await post(`/races/${DEMO_RACE}/status`, { bib: '101', status: 'DNF', reason: 'x' }, who))
          .statusCode,
      ).toBe(code);
      expect((await post(`/races/${DEMO_RACE}/start`, { action: 'gun' }, who)).statusCode).toBe(code);
      expect(
        (
          await post(
            '/corrections',
            { action: 'add', bib: '101', pointKey: 'finish', timeMs: Date.now() },
            who,
          )
        ).statusCode,
      ).toBe(code);
    }
    expect(await passingsCount()).toBe(before);
    const unknown = await app.inject({
      method: 'GET',
      url: '/api/raceday/contexts/nope/passings',
      headers: { authorization: auth.owner },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('manual entry: a retry with the same client id is stored once, a wrong bib is flagged', async () => {
    const t = Date.now() - 1_000;
    const body = {
      entries: [
        { clientId: 'desk-0001', bib: '150', pointKey: 'finish', timeMs: t },
        { clientId: 'desk-0002', bib: '99999', pointKey: 'finish', timeMs: t + 5 },
      ],
    };
    const first = await post('/manual', body, 'staff');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ accepted: 2, duplicates: 0 });
    expect(first.json().entries.map((e: { known: boolean }) => e.known)).toEqual([true, false]);
    const retry = await post('/manual', body, 'owner');
    expect(retry.json()).toMatchObject({ accepted: 0, duplicates: 2 });
    expect((await finishOf('150')).finish).toBe(t);
    const bad = await post('/manual', {
      entries: [{ clientId: 'x', bib: '', pointKey: 'finish', timeMs: 1 }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
    const list = await get('/passings?bib=150');
    expect(list.json().reads[0]).toMatchObject({
      id: 'm:desk-0001',
      bib: '150',
      voided: false,
      runner: { bib: '150' },
    });
    const unknown = await get('/unknown');
    expect(unknown.json().some((u: { bib: string }) => u.bib === '99999')).toBe(true);
  });

  it('corrections: void, restore, edit, add — each audited with who and why, undoable', async () => {
    const t = Date.now() - 2_000;
    await post('/manual', {
      entries: [{ clientId: 'desk-0100', bib: '160', pointKey: 'finish', timeMs: t }],
    });
    expect((await finishOf('160')).finish).toBe(t);
    const voided = await post('/corrections', {
      action: 'void',
      passingId: 'm:desk-0100',
      reason: 'double read',
    });
    expect(voided.statusCode).toBe(201);
    expect((await finishOf('160')).finish).toBeNull();
    expect(
      (await post('/corrections', { action: 'void', passingId: 'm:desk-0100', reason: 'again' })).statusCode,
    ).toBe(409);
    // Restore: the read counts again (1 ms later, see service.ts).
    const restored = await post('/corrections', {
      action: 'restore',
      passingId: 'm:desk-0100',
      reason: 'was right',
    });
    expect(restored.statusCode).toBe(201);
    expect((await finishOf('160')).finish).toBe(t + 1);
    const edited = await post('/corrections', {
      action: 'edit',
      passingId: restored.json().passingId,
      timeMs: t + 500,
      reason: 'photo finish',
    });
    expect(edited.statusCode).toBe(201);
    expect((await finishOf('160')).finish).toBe(t + 500);
    // Undo the edit: the replacement is voided and the previous read counts again.
    const undo = await app.inject({
      method: 'POST',
      url: url(`/audit/${edited.json().auditId}/undo`),
      headers: { authorization: auth.owner },
      payload: { reason: 'wrong runner' },
    });
    expect(undo.statusCode).toBe(201);
    expect((await finishOf('160')).finish).toBe(t + 2);
    const added = await post('/corrections', {
      action: 'add',
      bib: '161',
      pointKey: '5k',
      timeMs: t - 60_000,
      reason: 'mat missed',
    });
    expect(added.statusCode).toBe(201);
    const audit = (await get('/audit')).json() as {
      action: string;
      reason: string;
      actor: string;
      actorEmail: string | null;
      undoneBy: string | null;
    }[];
    // Newest first: add; the undo of the edit (void of the replacement, restore of the read); edit; restore; void.
    expect(audit.map((a) => a.action)).toEqual(['add', 'restore', 'void', 'edit', 'restore', 'void']);
    expect(audit.find((a) => a.action === 'edit')).toMatchObject({
      reason: 'photo finish',
      undoneBy: expect.any(String),
    });
    expect(audit.every((a) => a.actor)).toBe(true);
    expect(audit.some((a) => a.actorEmail?.includes('@'))).toBe(true);
    // Nothing was ever deleted: every read and its void markers are still there.
    const rows = await app.database.query("SELECT 1 FROM passings WHERE passing_id = 'm:desk-0100'");
    expect(rows.length).toBe(2);
  });

  it('statuses: DSQ and DNF with a reason change the public card; a read clears DNS; undo restores', async () => {
    const dsq = await post(`/races/${DEMO_RACE}/status`, {
      bib: '170',
      status: 'DSQ',
      reason: 'cut the course',
    });
    expect(dsq.statusCode).toBe(201);
    expect((await finishOf('170')).status).toBe('DSQ');
    expect(
      (await post(`/races/${DEMO_RACE}/status`, { bib: '171', status: 'DNF', reason: '' })).statusCode,
    ).toBe(400);
    await post(`/races/${DEMO_RACE}/status`, { bib: '172', status: 'DNS', reason: 'not at the start' });
    expect((await finishOf('172')).status).toBe('DNS');
    await post('/manual', {
      entries: [{ clientId: 'desk-0200', bib: '172', pointKey: 'finish', timeMs: Date.now() - 500 }],
    });
    expect((await finishOf('172')).status).toBe('finished');
    const undo = await app.inject({
      method: 'POST',
      url: url(`/audit/${dsq.json().auditId}/undo`),
      headers: { authorization: auth.owner },
      payload: { reason: 'appeal upheld' },
    });
    expect(undo.statusCode).toBe(201);
    expect((await finishOf('170')).status).not.toBe('DSQ');
    const runners = (await get('/runners')).json() as { bib: string; status: string }[];
    expect(runners.find((r) => r.bib === '172')?.status).toBe('registered');
  });

  it('start control: gun now, corrected gun time, individual starts; results recompute', async () => {
    const bib = '180';
    const t = Date.now() - 1_000;
    await post('/manual', { entries: [{ clientId: 'desk-0300', bib, pointKey: 'finish', timeMs: t }] });
    const gun = Date.now() - 3_600_000;
    const set = await post(`/races/${DEMO_RACE}/start`, {
      action: 'gun',
      timeMs: gun,
      reason: 'official gun',
    });
    expect(set.statusCode).toBe(201);
    const card = await app.inject({
      method: 'GET',
      url: `/api/results/contexts/${DEMO_DB}/participants/${bib}`,
    });
    const finish = card.json().splits.find((s: { pointKey: string }) => s.pointKey === 'finish');
    expect(finish.gunMs).toBe(t - gun);
    const now = await post(`/races/${DEMO_RACE}/start`, { action: 'gun', reason: '' });
    expect(now.json().gunTimeMs).toBeGreaterThan(gun);
    const starts = await post(`/races/${DEMO_RACE}/start`, {
      action: 'individual',
      starts: [{ bib, startTimeMs: gun + 60_000 }],
      reason: 'time trial list',
    });
    expect(starts.json()).toMatchObject({ updated: 1 });
    const missing = await post(`/races/${DEMO_RACE}/start`, {
      action: 'individual',
      starts: [{ bib: 'nobody', startTimeMs: gun }],
      reason: '',
    });
    expect(missing.statusCode).toBe(400);
    expect((await post(`/races/${DEMO_RACE}/start`, { action: 'gun', timeMs: 'soon' })).statusCode).toBe(400);
  });

  it('unknown chips are listed and assigned to a bib: the read then counts for that runner', async () => {
    const created = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/devices`,
      headers: { authorization: auth.owner },
      payload: { name: 'Finish mat', pointKey: 'finish' },
    });
    const key = created.json().key as string;
    const t = Date.now() + 5_000; // after the gun the start-control test fired
    await app.inject({
      method: 'POST',
      url: '/api/ingest/passings',
      headers: { 'x-device-key': key },
      payload: { passings: [{ chip: 'SWAP-77', time: t }] },
    });
    const unknown = (await get('/unknown')).json() as { chip: string | null; reads: number }[];
    expect(unknown.find((u) => u.chip === 'SWAP-77')).toMatchObject({ reads: 1 });
    const assigned = await post('/unknown/assign', { chip: 'SWAP-77', raceId: DEMO_RACE, bib: '190' });
    expect(assigned.statusCode).toBe(201);
    expect((await finishOf('190')).finish).toBe(t);
    expect(
      ((await get('/unknown')).json() as { chip: string | null }[]).some((u) => u.chip === 'SWAP-77'),
    ).toBe(false);
    expect(
      (await post('/unknown/assign', { chip: 'SWAP-77', raceId: DEMO_RACE, bib: '190' })).statusCode,
    ).toBe(404);
    // The desk's bib filter finds the chip-only read through the runner's chips.
    const byBib = (await get('/passings?bib=190')).json() as {
      reads: { chip: string | null; bib: string | null; runner: { bib: string } | null }[];
    };
    expect(byBib.reads.find((r) => r.chip === 'SWAP-77')).toMatchObject({
      bib: null,
      runner: { bib: '190' },
    });
    const other = (await get('/passings?bib=191')).json() as { reads: { chip: string | null }[] };
    expect(other.reads.some((r) => r.chip === 'SWAP-77')).toBe(false);
  });

  it('device PATCH is partial: disabling keeps the address, renaming keeps the point map and offset', async () => {
    const created = await post('/devices', {
      name: 'Wiclax km 10',
      kind: 'wiclax',
      host: '10.20.0.9',
      port: 9,
      enabled: false,
      clockOffsetMs: -1_250,
      pointMap: { L1: 'finish' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: string }).id;
    const patch = (payload: unknown) =>
      app.inject({
        method: 'PATCH',
        url: url(`/devices/${id}`),
        payload: payload as object,
        headers: { authorization: auth.timekeeper },
      });
    const disabled = await patch({ enabled: false });
    expect(disabled.statusCode, disabled.body).toBe(200);
    const renamed = await patch({ name: 'Wiclax 10 km' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const list = (await get('/devices')).json() as { devices: Record<string, unknown>[] };
    expect(list.devices.find((d) => d.id === id)).toMatchObject({
      name: 'Wiclax 10 km',
      kind: 'wiclax',
      host: '10.20.0.9',
      port: 9,
      enabled: false,
      clockOffsetMs: -1_250,
      pointMap: { L1: 'finish' },
    });
    // The device's time zone and chip format (the front door's settings), checked.
    expect((await patch({ timeZone: 'Mars/Olympus' })).statusCode).toBe(400);
    expect((await patch({ chipFormat: 'hex' })).statusCode).toBe(400);
    expect((await patch({ timeZone: 'Europe/Paris', chipFormat: 'strip-zeros' })).statusCode).toBe(200);
    const zoned = (await get('/devices')).json() as { devices: Record<string, unknown>[] };
    expect(zoned.devices.find((d) => d.id === id)).toMatchObject({
      timeZone: 'Europe/Paris',
      chipFormat: 'strip-zeros',
      clockOffsetMs: -1_250,
    });
    // A patch that removes the address is still refused.
    expect((await patch({ host: null })).statusCode).toBe(400);
    expect((await patch({ clockOffsetMs: 'soon' })).statusCode).toBe(400);
  });
});
