import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';
import { ChronoTrackSim, MylapsSim, RaceResultDecoderSim, WiclaxDeviceSim } from './testing/simulators.ts';

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
const chip = (k: number) => `C${String(101 + k).padStart(5, '0')}`;

async function until(check: () => Promise<boolean>, ms = 8_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('timed out');
}

describe('device connectors against simulated devices over real sockets', () => {
  let app: FastifyInstance;
  let owner: string;
  const base = Date.now() - 60_000;

  beforeAll(async () => {
    // The simulators run on loopback (allowed explicitly, issue 25); listeners use 20000-39999.
    app = await buildTestApp({ DEVICE_ALLOW_LOOPBACK: 'true', DEVICE_LISTEN_PORTS: '20000-39999' });
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'timekeeper' }] }))
      .authorization;
    await app.raceday.manager.start();
  });
  afterAll(() => app.close());

  async function device(body: Record<string, unknown>) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/raceday/contexts/${DEMO_DB}/devices`,
      headers: { authorization: owner },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; key: string };
  }
  const stored = async (deviceId: string) =>
    app.database.query<{ chip: string; point: string; t: number }>(
      'SELECT chip, point_key AS point, time_ms::float8 AS t FROM passings WHERE device_id = $1 ORDER BY seq',
      [deviceId],
    );

  it('RaceResult: fetches by number, pushes, survives a drop mid-burst and a skewed clock, never twice', async () => {
    const sim = await new RaceResultDecoderSim().start();
    sim.skewMs = 2_000; // the decoder's clock runs 2 s fast; the device's offset corrects it
    for (let k = 0; k < 30; k++) sim.add(chip(k), base + k * 100);
    sim.dropAfterRecords = 12; // the first fetch is cut after 12 records
    const { id } = await device({
      name: 'RR finish',
      kind: 'raceresult',
      host: '127.0.0.1',
      port: sim.port,
      pointKey: 'finish',
      clockOffsetMs: -2_000,
    });
    await until(async () => (await stored(id)).length === 30);
    for (let k = 30; k < 60; k++) sim.add(chip(k), base + k * 100); // pushed live
    await until(async () => (await stored(id)).length === 60);
    sim.raw('garbage;that;is;no;record\r\n#P;x;y\r\n');
    sim.add(chip(60), base + 6_000);
    await until(async () => (await stored(id)).length === 61);
    const rows = await stored(id);
    expect(new Set(rows.map((r) => r.chip)).size).toBe(61);
    expect(rows[0]).toEqual({ chip: chip(0), point: 'finish', t: base });
    const [cursor] = await app.database.query<{ f: number; n: number }>(
      'SELECT cursor_file AS f, cursor_passing AS n FROM device_connectors WHERE device_id = $1',
      [id],
    );
    expect(cursor).toEqual({ f: 17, n: 61 });
    const status = app.raceday.manager.status(id).view();
    expect(status.state).toBe('connected');
    expect(status.battery).toBe(87);
    expect(Math.abs(status.driftMs ?? 99_999)).toBeLessThan(1_000);
    expect(sim.commands).toContain(`SETPROTOCOL;3.2`);
    expect(sim.commands.filter((c) => /^\d+:\d+$/.test(c)).length).toBeGreaterThanOrEqual(2);
    await sim.stop();
  });

  it('Wiclax: reads, REWIND after a reconnection recovers the gap, garbage is skipped', async () => {
    const sim = await new WiclaxDeviceSim().start();
    const { id } = await device({
      name: 'Wiclax 5k',
      kind: 'wiclax',
      host: '127.0.0.1',
      port: sim.port,
      pointKey: '5k',
    });
    await until(async () => sim.commands.includes('STARTREAD'));
    for (let k = 0; k < 10; k++) sim.read(chip(k), base + k * 1000);
    sim.raw('not a read at all\r');
    await until(async () => (await stored(id)).length === 10);
    sim.drop();
    for (let k = 10; k < 20; k++) sim.read(chip(k), base + k * 1000, '', false); // made while cut off
    await until(async () => (await stored(id)).length === 20);
    expect(sim.commands.some((c) => c.startsWith('REWIND '))).toBe(true);
    expect(new Set((await stored(id)).map((r) => r.chip)).size).toBe(20);
    expect(app.raceday.manager.status(id).view().rejected).toBeGreaterThanOrEqual(1);
    await sim.stop();
  });

  it('Wiclax: the memory made before the first connection is fetched whole, each read stored once', async () => {
    const sim = await new WiclaxDeviceSim().start();
    sim.skewMs = -3_000; // the device's clock runs 3 s slow; its offset corrects it
    for (let k = 0; k < 60; k++) sim.read(chip(500 + k), base - 3_600_000 + k * 1000, '', false);
    const { id } = await device({
      name: 'Wiclax memory',
      kind: 'wiclax',
      host: '127.0.0.1',
      port: sim.port,
      pointKey: 'finish',
      clockOffsetMs: 3_000,
    });
    await until(async () => (await stored(id)).length === 60);
    for (let k = 60; k < 65; k++) sim.read(chip(500 + k), base + k * 1000); // live after it
    await until(async () => (await stored(id)).length === 65);
    sim.drop(); // the reconnection's REWIND sends the last reads again: nothing twice
    await until(async () => sim.commands.filter((c) => c.startsWith('REWIND ')).length >= 2);
    await new Promise((r) => setTimeout(r, 200));
    const rows = await stored(id);
    expect(rows.length).toBe(65);
    expect(new Set(rows.map((r) => r.chip)).size).toBe(65);
    expect(rows.find((r) => r.chip === chip(500))!.t).toBe(base - 3_600_000);
    await sim.stop();
  });

  it('MYLAPS: acknowledges each frame once stored, re-sent frames after a drop are stored once', async () => {
    const { id } = await device({
      name: 'MYLAPS',
      kind: 'mylaps',
      listenPort: 20_000 + Math.floor(Math.random() * 20_000),
      pointMap: { Finish: 'finish', Km5: '5k' },
    });
    const port = app.raceday.manager.connector(id)!.port!;
    const sim = await new MylapsSim(port, 'Finish').connect();
    sim.send('Finish@Pong@$'); // the hello: answered with the V2 version
    sim.send('Finish@Ping@$');
    for (let f = 0; f < 5; f++)
      sim.passing([0, 1, 2, 3].map((k) => ({ chip: chip(100 + f * 4 + k), ms: base + f * 4000 + k })));
    await sim.settled();
    expect(sim.acked).toEqual([1, 2, 3, 4, 5]);
    expect(sim.received.some((r) => r.includes('AckPing'))).toBe(true);
    expect(sim.received).toContain('Tempora@AckPong@Version2.1@');
    sim.passing([{ chip: chip(140), ms: base + 40_000 }], true); // cut in the middle of the frame
    await new Promise((r) => setTimeout(r, 100));
    await sim.connect(); // re-sends the unacknowledged frame
    sim.passing([{ chip: chip(141), ms: base + 41_000 }]);
    sim.send('Finish@Passing@t=xx|c=@garbage@7@$');
    await sim.settled();
    await until(async () => (await stored(id)).length === 22);
    const rows = await stored(id);
    expect(new Set(rows.map((r) => r.chip)).size).toBe(22);
    expect(rows.every((r) => r.point === 'finish')).toBe(true);
    expect(sim.acked).toContain(6);
    sim.close();
  });

  it('ChronoTrack: greets with its settings, streams, resumes after a reconnection without doubles', async () => {
    const { id } = await device({
      name: 'ChronoTrack',
      kind: 'chronotrack',
      listenPort: 20_000 + Math.floor(Math.random() * 20_000),
      pointMap: { FINISH: 'finish' },
      clockOffsetMs: 1_000,
    });
    const port = app.raceday.manager.connector(id)!.port!;
    const sim = new ChronoTrackSim(port);
    for (let k = 0; k < 8; k++) sim.read(chip(200 + k), base + k * 10);
    await sim.connect();
    await until(async () => (await stored(id)).length === 8);
    expect(sim.received.slice(0, 6)).toEqual([
      'Tempora~1.0~4',
      'guntimes=true',
      'newlocations=true',
      'stream-mode=push',
      'time-format=iso',
      'getlocations',
    ]);
    expect(sim.received).toContain('start'); // nothing stored yet: the whole session
    sim.read(chip(208), base + 80);
    await until(async () => (await stored(id)).length === 9);
    sim.send('CT01_33~x~~~garbage\r\n');
    sim.drop();
    await new Promise((r) => setTimeout(r, 50));
    sim.read(chip(209), base + 90); // made while cut off
    sim.received = [];
    await sim.connect();
    await until(async () => (await stored(id)).length === 10);
    // The reconnection resumes after the last stored read: no replay of the session.
    expect(sim.received).toContain('start~FINISH~10');
    expect(sim.received).not.toContain('start');
    expect(sim.sessionLines).toBe(1);
    const rows = await stored(id);
    expect(new Set(rows.map((r) => r.chip)).size).toBe(10);
    expect(rows[0]!.t).toBe(Math.floor(base / 10) * 10 + 1_000); // ISO times to the hundredth
    sim.drop();
  });

  it('clock drift from the reads where the protocol has no clock query: MYLAPS, ChronoTrack, Impinj, exporter', async () => {
    // Each device's clock is off by a known amount; its reads are made "now" on that clock.
    const mylaps = await device({
      name: 'MYLAPS fast',
      kind: 'mylaps',
      listenPort: 20_000 + Math.floor(Math.random() * 20_000),
      pointKey: 'finish',
    });
    const msim = await new MylapsSim(app.raceday.manager.connector(mylaps.id)!.port!, 'Finish').connect();
    for (let k = 0; k < 5; k++) {
      msim.passing([{ chip: chip(400 + k), ms: Date.now() + 3_000 }]); // 3 s fast
      await new Promise((r) => setTimeout(r, 20));
    }
    await msim.settled();
    msim.close();

    const chrono = await device({
      name: 'ChronoTrack slow',
      kind: 'chronotrack',
      listenPort: 20_000 + Math.floor(Math.random() * 20_000),
      pointKey: 'finish',
    });
    const csim = new ChronoTrackSim(app.raceday.manager.connector(chrono.id)!.port!);
    await csim.connect();
    for (let k = 0; k < 5; k++) {
      csim.read(chip(410 + k), Date.now() - 4_000); // 4 s slow
      await new Promise((r) => setTimeout(r, 20));
    }
    await until(async () => (await stored(chrono.id)).length === 5);
    csim.drop();

    // The same reader 4 s slow, corrected by its clock offset: no drift left.
    const corrected = await device({
      name: 'ChronoTrack corrected',
      kind: 'chronotrack',
      listenPort: 20_000 + Math.floor(Math.random() * 20_000),
      pointKey: 'finish',
      clockOffsetMs: 4_000,
    });
    const c2 = new ChronoTrackSim(app.raceday.manager.connector(corrected.id)!.port!);
    await c2.connect();
    c2.read(chip(420), Date.now() - 4_000);
    await until(async () => (await stored(corrected.id)).length === 1);
    c2.drop();

    const impinj = await device({ name: 'Impinj slow', kind: 'impinj', pointKey: 'finish' });
    const res = await app.inject({
      method: 'POST',
      url: `/api/ingest/impinj?key=${impinj.key}`,
      payload: [
        {
          antennaPort: 1,
          epc: chip(430),
          firstSeenTimestamp: (Date.now() - 2_000) * 1000,
          isHeartBeat: false,
        },
      ],
    });
    expect(res.json()).toEqual({ accepted: 1, duplicates: 0 });
    const exporter = await device({ name: 'Exporter fast', kind: 'rrexporter', pointKey: 'finish' });
    const at = new Date(Date.now() + 1_500).toISOString();
    const rr = await app.inject({
      method: 'POST',
      url: `/api/ingest/raceresult?key=${exporter.key}`,
      payload: {
        ID: 1,
        Bib: 0,
        TimingPoint: 'X',
        Passing: { Transponder: chip(431), UTCTime: at, DeviceID: 'D-2', FileNo: 1, PassingNo: 1 },
      },
    });
    expect(rr.json()).toEqual({ accepted: 1, duplicates: 0 });

    // The estimate is the promptest read's lead: the true drift less at most the delivery delay.
    const drift = async (id: string) => {
      const list = await app.inject({
        method: 'GET',
        url: `/api/raceday/contexts/${DEMO_DB}/devices`,
        headers: { authorization: owner },
      });
      const d = (
        list.json() as { devices: { id: string; status: { driftMs: number; driftSource: string } }[] }
      ).devices.find((x) => x.id === id)!;
      expect(d.status.driftSource).toBe('reads');
      return d.status.driftMs;
    };
    const within = (value: number, truth: number) => {
      expect(value).toBeLessThanOrEqual(truth + 50);
      expect(value).toBeGreaterThan(truth - 1_000);
    };
    within(await drift(mylaps.id), 3_000);
    within(await drift(chrono.id), -4_000);
    within(await drift(corrected.id), 0);
    within(await drift(impinj.id), -2_000);
    within(await drift(exporter.id), 1_500);
    // A device with a clock query keeps the asked drift (the RaceResult test's decoder).
    const rrClock = app.raceday.manager.status(mylaps.id);
    rrClock.clockDrift(120);
    rrClock.readLead(Date.now() + 9_000);
    expect(rrClock.view()).toMatchObject({ driftMs: 120, driftSource: 'clock' });
  });

  it('the timer applies a measured drift (or a clock sync) to a device, audited with old and new offset', async () => {
    const impinj = await device({ name: 'Impinj drifting', kind: 'impinj', pointKey: 'finish' });
    const read = (epc: string, deviceMs: number) =>
      app.inject({
        method: 'POST',
        url: `/api/ingest/impinj?key=${impinj.key}`,
        payload: [{ antennaPort: 1, epc, firstSeenTimestamp: deviceMs * 1000, isHeartBeat: false }],
      });
    const clock = (payload: unknown) =>
      app.inject({
        method: 'POST',
        url: `/api/raceday/contexts/${DEMO_DB}/devices/${impinj.id}/clock`,
        headers: { authorization: owner },
        payload: payload as object,
      });
    // Nothing measured yet: nothing to apply.
    expect((await clock({ action: 'applyDrift' })).statusCode).toBe(409);
    await read(chip(600), Date.now() - 5_000); // the reader's clock is 5 s slow
    const applied = await clock({ action: 'applyDrift', reason: 'reader 5 s slow' });
    expect(applied.statusCode, applied.body).toBe(201);
    const body = applied.json() as { auditId: string; previousOffsetMs: number; clockOffsetMs: number };
    expect(body.previousOffsetMs).toBe(0);
    expect(body.clockOffsetMs).toBeGreaterThanOrEqual(5_000 - 50);
    expect(body.clockOffsetMs).toBeLessThan(6_000);
    // The next read of the same slow clock lands on server time.
    const before = Date.now();
    await read(chip(601), Date.now() - 5_000);
    const [row] = await app.database.query<{ t: number }>(
      'SELECT time_ms::float8 AS t FROM passings WHERE chip = $1',
      [chip(601)],
    );
    expect(Math.abs(row!.t - before)).toBeLessThan(1_000);
    // A clock sync's correction is set as given; both are in the audit with who and the offsets.
    expect((await clock({ action: 'set', clockOffsetMs: 4_990, reason: 'GPS sync' })).statusCode).toBe(201);
    expect((await clock({ action: 'set', clockOffsetMs: 'x' })).statusCode).toBe(400);
    const audit = (
      await app.inject({
        method: 'GET',
        url: `/api/raceday/contexts/${DEMO_DB}/audit`,
        headers: { authorization: owner },
      })
    ).json() as {
      id: string;
      action: string;
      actor: string | null;
      before: Record<string, unknown>;
      after: Record<string, unknown>;
      reason: string;
    }[];
    const entries = audit.filter((a) => a.action === 'clock' && a.after.deviceId === impinj.id);
    expect(entries).toHaveLength(2);
    const first = entries.find((a) => a.id === body.auditId)!;
    expect(first).toMatchObject({
      reason: 'reader 5 s slow',
      before: { clockOffsetMs: 0, driftSource: 'reads' },
    });
    expect(first.actor).not.toBeNull();
    expect(first.after.clockOffsetMs).toBe(body.clockOffsetMs);
    const list = await app.inject({
      method: 'GET',
      url: `/api/raceday/contexts/${DEMO_DB}/devices`,
      headers: { authorization: owner },
    });
    const d = (list.json() as { devices: { id: string; clockOffsetMs: number }[] }).devices.find(
      (x) => x.id === impinj.id,
    );
    expect(d!.clockOffsetMs).toBe(4_990);
  });

  it('Impinj and RaceResult exporter POSTs: antenna and timing point mapped, duplicates counted', async () => {
    const impinj = await device({ name: 'Impinj', kind: 'impinj', pointMap: { '1': '2k5', '2': '7k5' } });
    const body = [
      {
        antennaPort: 1,
        epc: chip(300),
        firstSeenTimestamp: new Date(base).toISOString(),
        peakRssi: -50,
        isHeartBeat: false,
      },
      { antennaPort: 2, epc: chip(301), firstSeenTimestamp: (base + 5) * 1000, isHeartBeat: false },
      { isHeartBeat: true },
    ];
    const first = await app.inject({
      method: 'POST',
      url: `/api/ingest/impinj?key=${impinj.key}`,
      payload: body,
    });
    expect(first.json()).toEqual({ accepted: 2, duplicates: 0 });
    const again = await app.inject({
      method: 'POST',
      url: '/api/ingest/impinj',
      headers: { 'x-device-key': impinj.key },
      payload: body,
    });
    expect(again.json()).toEqual({ accepted: 0, duplicates: 2 });
    expect((await stored(impinj.id)).map((r) => [r.chip, r.point, r.t])).toEqual([
      [chip(300), '2k5', base],
      [chip(301), '7k5', base + 5],
    ]);
    const bad = await app.inject({
      method: 'POST',
      url: `/api/ingest/impinj?key=${impinj.key}`,
      payload: [{ epc: 'x' }],
    });
    expect(bad.statusCode).toBe(400);
    const rr = await device({
      name: 'RR12 exporter',
      kind: 'rrexporter',
      pointMap: { FINISHLINE: 'finish' },
    });
    const record = {
      ID: 1,
      Bib: 0,
      TimingPoint: 'FINISHLINE',
      Passing: {
        Transponder: chip(302),
        UTCTime: new Date(base + 7).toISOString(),
        DeviceID: 'D-1',
        FileNo: 1,
        PassingNo: 1,
      },
    };
    const res = await app.inject({
      method: 'POST',
      url: '/api/ingest/raceresult',
      headers: { 'x-device-key': rr.key, 'content-type': 'text/plain' },
      payload: `${JSON.stringify(record)}\n${JSON.stringify(record)}\n`,
    });
    expect(res.json()).toEqual({ accepted: 1, duplicates: 1 });
    const wrongKind = await app.inject({
      method: 'POST',
      url: `/api/ingest/raceresult?key=${impinj.key}`,
      payload: record,
    });
    expect(wrongKind.statusCode).toBe(400);
    const anonymous = await app.inject({ method: 'POST', url: '/api/ingest/impinj', payload: body });
    expect(anonymous.statusCode).toBe(401);
  });
});
