/**
 * Transport parity (issue 26): the same reads through every transport — HTTP passings, the TCP
 * line decoder, Impinj, the RaceResult exporter, and the RaceResult, Wiclax, MYLAPS and
 * ChronoTrack connectors — give the same stored passings and the same effects. Each device's clock
 * runs 2 s slow (offset +2 s); the wall-clock protocols show Brussels time (device time zone; the
 * TCP decoder names its zone in AUTH); one runner was marked DNS (a read clears it), one is known
 * by chip only, one read comes twice. Each transport has its own two runners (a read of the same
 * chip at the same point and time is one passing, whichever device sent it).
 */
import net from 'node:net';
import { zoneOffsetMs } from '@tempora/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { DEMO_DB, DEMO_RACE } from '../../seed/demo-races.ts';
import { ChronoTrackSim, MylapsSim, RaceResultDecoderSim, WiclaxDeviceSim } from './testing/simulators.ts';

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
const ZONE = 'Europe/Brussels';
const SLOW_MS = 2_000;
const chipOf = (bib: number) => `C${String(bib).padStart(5, '0')}`;
const p2 = (n: number) => String(n).padStart(2, '0');

async function until(check: () => Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('timed out');
}

/** `dd-mm-yyyy hh:mm:ss.ccc` of a wall-clock reading written as UTC. */
function dmy(wall: number) {
  const d = new Date(wall);
  return `${p2(d.getUTCDate())}-${p2(d.getUTCMonth() + 1)}-${d.getUTCFullYear()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.${String(d.getUTCMilliseconds()).padStart(3, '0')}`;
}

describe('transport parity: one front door', () => {
  let app: FastifyInstance;
  let auth: string;
  let decoderPort: number;
  const T = Math.floor((Date.now() - 120_000) / 1_000) * 1_000 + 120; // to the hundredth (ChronoTrack)
  const zoff = zoneOffsetMs(T, ZONE);

  beforeAll(async () => {
    // A free port for the decoder outside the simulators' range (the configuration refuses a
    // clash; the system's ephemeral ports start inside it).
    do {
      const probe = net.createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      decoderPort = (probe.address() as net.AddressInfo).port;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
    } while (decoderPort >= 20000 && decoderPort <= 39999);
    // Local simulators on loopback, listening ports from a range (issue 25's egress policy).
    app = await buildTestApp({
      DECODER_TCP_PORT: String(decoderPort),
      DECODER_TCP_HOST: '127.0.0.1',
      DEVICE_ALLOW_LOOPBACK: 'true',
      DEVICE_LISTEN_PORTS: '20000-39999',
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    auth = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'timekeeper' }] }))
      .authorization;
  });
  afterAll(() => app.close());

  const api = (method: 'GET' | 'POST', path: string, payload?: unknown) =>
    app.inject({
      method,
      url: `/api/raceday/contexts/${DEMO_DB}${path}`,
      headers: { authorization: auth },
      ...(payload ? { payload: payload as object } : {}),
    });
  async function device(body: Record<string, unknown>) {
    const res = await api('POST', '/devices', { pointKey: 'finish', clockOffsetMs: SLOW_MS, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; key: string };
  }

  /** The reads of one transport: runner A (DNS) at T, runner B (chip only) at T + 1.23 s, twice. */
  const readsOf = (k: number) => {
    const a = 301 + 2 * k;
    const b = a + 1;
    return {
      a,
      b,
      reads: [
        { chip: chipOf(a), utc: T + k * 10_000 },
        { chip: chipOf(b), utc: T + k * 10_000 + 1_230 },
        { chip: chipOf(b), utc: T + k * 10_000 + 1_230 },
      ],
    };
  };
  /** What a device 2 s slow shows: in UTC, or its Brussels wall clock (written as UTC). */
  const utcClock = (utc: number) => utc - SLOW_MS;
  const wallClock = (utc: number) => utc + zoff - SLOW_MS;

  type Read = { chip: string; utc: number };
  const transports: [string, (reads: Read[]) => Promise<string>][] = [
    [
      'HTTP POST /api/ingest/passings',
      async (reads) => {
        const d = await device({ name: 'HTTP', kind: 'tempora' });
        const res = await app.inject({
          method: 'POST',
          url: '/api/ingest/passings',
          headers: { 'x-device-key': d.key },
          payload: { passings: reads.map((r) => ({ chip: r.chip, time: utcClock(r.utc) })) },
        });
        expect(res.json()).toEqual({ accepted: 2, duplicates: 1 });
        return d.id;
      },
    ],
    [
      'TCP line decoder',
      async (reads) => {
        const d = await device({ name: 'TCP decoder', kind: 'tempora' });
        const sign = zoff < 0 ? '-' : '+';
        const abs = Math.abs(zoff) / 60_000;
        const answer = await new Promise<string>((resolve, reject) => {
          const socket = net.connect(decoderPort, '127.0.0.1', () => {
            socket.write(`AUTH;${d.key};${sign}${p2(Math.floor(abs / 60))}:${p2(abs % 60)}\n`);
            for (const r of reads) socket.write(`${r.chip};${dmy(wallClock(r.utc))};\n`);
          });
          let text = '';
          socket.on('data', (chunk) => {
            text += chunk;
            if (text.includes(`ACK;${reads.length}`)) socket.end();
          });
          socket.on('close', () => resolve(text));
          socket.on('error', reject);
        });
        expect(answer).toContain(`ACK;${reads.length}`);
        return d.id;
      },
    ],
    [
      'Impinj Speedway Connect',
      async (reads) => {
        const d = await device({ name: 'Impinj', kind: 'impinj' });
        const res = await app.inject({
          method: 'POST',
          url: `/api/ingest/impinj?key=${d.key}`,
          payload: reads.map((r) => ({
            antennaPort: 1,
            epc: r.chip,
            firstSeenTimestamp: utcClock(r.utc) * 1000,
            isHeartBeat: false,
          })),
        });
        expect(res.json()).toEqual({ accepted: 2, duplicates: 1 });
        return d.id;
      },
    ],
    [
      'RaceResult exporter',
      async (reads) => {
        const d = await device({ name: 'RR exporter', kind: 'rrexporter' });
        const res = await app.inject({
          method: 'POST',
          url: '/api/ingest/raceresult',
          headers: { 'x-device-key': d.key },
          payload: reads.map((r, n) => ({
            ID: n + 1,
            Bib: 0,
            TimingPoint: 'X',
            Passing: {
              Transponder: r.chip,
              UTCTime: new Date(utcClock(r.utc)).toISOString(),
              DeviceID: 'D-1',
              FileNo: 1,
              PassingNo: n + 1,
            },
          })),
        });
        expect(res.json()).toEqual({ accepted: 2, duplicates: 1 });
        return d.id;
      },
    ],
    [
      'RaceResult decoder connector',
      async (reads) => {
        const sim = await new RaceResultDecoderSim().start();
        sim.skewMs = zoff - SLOW_MS;
        for (const r of reads) sim.add(r.chip, r.utc);
        const d = await device({
          name: 'RR decoder',
          kind: 'raceresult',
          host: '127.0.0.1',
          port: sim.port,
          timeZone: ZONE,
        });
        await until(async () => (await stored(d.id)).length === 2);
        await sim.stop();
        return d.id;
      },
    ],
    [
      'Wiclax connector',
      async (reads) => {
        const sim = await new WiclaxDeviceSim().start();
        sim.skewMs = zoff - SLOW_MS;
        for (const r of reads) sim.read(r.chip, r.utc, '', false); // in memory before the connection
        const d = await device({
          name: 'Wiclax',
          kind: 'wiclax',
          host: '127.0.0.1',
          port: sim.port,
          timeZone: ZONE,
        });
        await until(async () => (await stored(d.id)).length === 2);
        await sim.stop();
        return d.id;
      },
    ],
    [
      'MYLAPS connector',
      async (reads) => {
        const d = await device({
          name: 'MYLAPS',
          kind: 'mylaps',
          listenPort: 20_000 + Math.floor(Math.random() * 20_000),
          timeZone: ZONE,
        });
        const sim = await new MylapsSim(app.raceday.manager.connector(d.id)!.port!, 'Finish').connect();
        sim.send('Finish@Pong@$');
        sim.passing(reads.map((r) => ({ chip: r.chip, ms: wallClock(r.utc) })));
        await sim.settled();
        sim.close();
        return d.id;
      },
    ],
    [
      'ChronoTrack connector',
      async (reads) => {
        const d = await device({
          name: 'ChronoTrack',
          kind: 'chronotrack',
          listenPort: 20_000 + Math.floor(Math.random() * 20_000),
          timeZone: ZONE,
        });
        const sim = new ChronoTrackSim(app.raceday.manager.connector(d.id)!.port!);
        for (const r of reads) sim.read(r.chip, wallClock(r.utc));
        await sim.connect();
        await until(async () => (await stored(d.id)).length === 2);
        sim.drop();
        return d.id;
      },
    ],
  ];

  const stored = (deviceId: string) =>
    app.database.query<{ chip: string | null; bib: string | null; point: string; t: number }>(
      `SELECT chip, bib, point_key AS point, time_ms::float8 AS t FROM passings
        WHERE device_id = $1 AND NOT deleted ORDER BY time_ms, chip`,
      [deviceId],
    );
  const statusOf = async (bib: number) =>
    (
      await app.database.query<{ status: string }>(
        'SELECT status FROM participants WHERE race_id = $1 AND bib = $2',
        [DEMO_RACE, String(bib)],
      )
    )[0]!.status;

  it('every transport stores the same passings with the same effects', async () => {
    await app.raceday.manager.start();
    const outcomes: Record<string, unknown>[] = [];
    for (const [k, [name, send]] of transports.entries()) {
      const { a, b, reads } = readsOf(k);
      const dns = await api('POST', `/races/${DEMO_RACE}/status`, {
        bib: String(a),
        status: 'DNS',
        reason: 'did not collect the bib',
      });
      expect(dns.statusCode, dns.body).toBe(201);
      const deviceId = await send(reads);
      await until(async () => (await statusOf(a)) === 'registered');
      const rows = await stored(deviceId);
      const list = (await api('GET', '/devices')).json() as {
        devices: { id: string; status: { readsTotal: number; lastReadTimeMs: number | null } }[];
      };
      const status = list.devices.find((x) => x.id === deviceId)!.status;
      const base = T + k * 10_000;
      // Relative to the transport's own runners and time, so the outcomes compare one to one.
      outcomes.push({
        name,
        passings: rows.map((r) => ({
          runner: r.chip === chipOf(a) ? 'A' : r.chip === chipOf(b) ? 'B' : r.chip,
          bib: r.bib,
          point: r.point,
          at: r.t - base,
        })),
        dnsCleared: (await statusOf(a)) === 'registered',
        readsTotal: status.readsTotal,
        lastRead: (status.lastReadTimeMs ?? 0) - base,
      });
    }
    const expected = {
      passings: [
        { runner: 'A', bib: null, point: 'finish', at: 0 },
        { runner: 'B', bib: null, point: 'finish', at: 1_230 },
      ],
      dnsCleared: true,
      readsTotal: 2,
      lastRead: 1_230,
    };
    for (const o of outcomes) expect(o, String(o.name)).toEqual({ name: o.name, ...expected });
  }, 90_000);

  it('a result import clears a DNS too, and stores a re-imported read once', async () => {
    const owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
    expect(
      (await api('POST', `/races/${DEMO_RACE}/status`, { bib: '401', status: 'DNS', reason: 'x' }))
        .statusCode,
    ).toBe(201);
    const url = `/api/results/contexts/${DEMO_DB}/import/passings?bib=Bib&time=Time&defaultPoint=finish`;
    const body = `Bib,Time\n401,${new Date(T + 200_000).toISOString()}\n`;
    const post = () =>
      app.inject({
        method: 'POST',
        url,
        headers: { authorization: owner, 'content-type': 'text/csv' },
        payload: body,
      });
    expect((await post()).json()).toEqual({ accepted: 1, duplicates: 0 });
    expect(await statusOf(401)).toBe('registered');
    expect((await post()).json()).toEqual({ accepted: 0, duplicates: 1 });
  });
});
