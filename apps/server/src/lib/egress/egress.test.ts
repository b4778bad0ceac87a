import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { upsertConnector } from '../../modules/devices/repository.ts';
import * as resultsRepo from '../../modules/results/repository.ts';
import { hashKey } from '../../modules/results/service.ts';
import * as webhooksRepo from '../../modules/webhooks/repository.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';

/**
 * Issue 25, the egress test: every feature that opens a connection on a user's behalf (webhooks,
 * RaceResult and Wiclax connectors) is tried against every refused address, and must refuse
 * before any packet leaves — at registration (400 problem+json) and, for rows that got past it
 * (a name re-pointed since, a network closed since), at connection time. A TCP listener on
 * loopback (IPv4 and IPv6) proves it: it must see no connection at all.
 */

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
const EVENT = 'demo-city-run';
const CLIENT_KINDS = ['raceresult', 'wiclax'] as const;

/** A TCP listener counting connections, on 127.0.0.1 and (where the host has it) ::1, same port. */
async function counter() {
  let connections = 0;
  const servers: net.Server[] = [];
  const listen = (host: string, port: number) =>
    new Promise<number | null>((resolve) => {
      const server = net.createServer((socket) => {
        connections++;
        socket.destroy();
      });
      server.once('error', () => resolve(null));
      server.listen(port, host, () => {
        servers.push(server);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const port = (await listen('127.0.0.1', 0))!;
  await listen('::1', port);
  return {
    port,
    get connections() {
      return connections;
    },
    close: () => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))),
  };
}

/** This machine's name, when it resolves to loopback (Debian's /etc/hosts): a name, not `localhost`. */
async function loopbackName(): Promise<string[]> {
  const name = os.hostname();
  const found = await dns.promises.lookup(name, { all: true }).catch(() => []);
  return found.length && found.every((a) => a.address.startsWith('127.') || a.address === '::1')
    ? [name]
    : [];
}

/** The refused hosts, as a user would write them in a device's host field. */
const REFUSED = [
  '127.0.0.1',
  '127.0.0.2',
  'localhost',
  'LOCALHOST.',
  'api.localhost',
  '0.0.0.0',
  '0',
  '::1',
  '::',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:169.254.169.254',
  '169.254.169.254',
  'fd00:ec2::254',
  '100.100.100.200',
  '2130706433',
  '0x7f000001',
  '017700000001',
  '0x7f.1',
  '127.1',
  '224.0.0.1',
  '255.255.255.255',
  'ff02::1',
  'fe80::1',
  '10.0.0.5',
  '172.16.0.1',
  '192.168.1.20',
  '100.64.0.1',
  'fd12:3456::1',
  '64:ff9b::7f00:1',
];

/** A host in a URL (IPv6 in brackets). */
const inUrl = (host: string, port: number) => `http://${net.isIPv6(host) ? `[${host}]` : host}:${port}/hook`;

async function until(check: () => Promise<boolean> | boolean, what: string, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('egress: the default configuration refuses every internal address, before any packet leaves', () => {
  let app: FastifyInstance;
  let owner: string;
  let sink: Awaited<ReturnType<typeof counter>>;
  let refused: string[];

  beforeAll(async () => {
    app = await buildTestApp();
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
    sink = await counter();
    refused = [...REFUSED, ...(await loopbackName())];
  });
  afterAll(async () => {
    await app.close();
    await sink.close();
  });

  it('device connectors that connect (RaceResult, Wiclax): 400 at registration, nothing stored', async () => {
    for (const kind of CLIENT_KINDS)
      for (const host of refused) {
        const res = await app.inject({
          method: 'POST',
          url: `/api/raceday/contexts/${DEMO_DB}/devices`,
          headers: { authorization: owner },
          payload: { name: `${kind} ${host}`, kind, host, port: sink.port, pointKey: 'finish' },
        });
        expect(res.statusCode, `${kind} ${host}: ${res.body}`).toBe(400);
        expect(res.headers['content-type']).toContain('application/problem+json');
        expect(res.json(), host).toMatchObject({
          code: 'DEVICE_ADDRESS_REFUSED',
          errors: [{ field: 'host' }],
        });
      }
    const [stored] = await app.database.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM device_connectors WHERE port = $1',
      [sink.port],
    );
    expect(stored!.n).toBe(0);
    // The reason is said: loopback, metadata, a private network not opened.
    const said = async (host: string) =>
      (
        await app.inject({
          method: 'POST',
          url: `/api/raceday/contexts/${DEMO_DB}/devices`,
          headers: { authorization: owner },
          payload: { name: 'x', kind: 'raceresult', host, port: sink.port },
        })
      ).json().detail as string;
    expect(await said('0x7f000001')).toMatch(/127\.0\.0\.1 is the server itself \(loopback\)/);
    expect(await said('169.254.169.254')).toMatch(/cloud metadata/);
    expect(await said('192.168.1.20')).toMatch(/not in DEVICE_NETWORKS/);
    expect(sink.connections).toBe(0);
  });

  it('a device changed to an internal address (PATCH) is refused the same way', async () => {
    const created = await app.inject({
      method: 'POST',
      url: `/api/raceday/contexts/${DEMO_DB}/devices`,
      headers: { authorization: owner },
      payload: { name: 'public', kind: 'raceresult', host: '93.184.215.14', port: 3601, enabled: false },
    });
    expect(created.statusCode, created.body).toBe(201);
    for (const host of ['127.0.0.1', '2130706433', '::ffff:127.0.0.1', 'localhost']) {
      const moved = await app.inject({
        method: 'PATCH',
        url: `/api/raceday/contexts/${DEMO_DB}/devices/${created.json().id}`,
        headers: { authorization: owner },
        payload: { host, port: sink.port, enabled: true },
      });
      expect(moved.statusCode, host).toBe(400);
      expect(moved.json()).toMatchObject({ code: 'DEVICE_ADDRESS_REFUSED' });
    }
  });

  it('webhooks: 400 at registration for the same list', async () => {
    for (const host of refused) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/webhooks/events/${EVENT}`,
        headers: { authorization: owner },
        payload: { url: inUrl(host, sink.port), types: ['passing.stored'] },
      });
      expect(res.statusCode, `${host}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'WEBHOOK_URL_REFUSED' });
    }
    expect(sink.connections).toBe(0);
  });

  it('at connection time: stored connectors and webhooks to internal addresses never connect', async () => {
    // Rows past registration: a name that pointed elsewhere then, a network closed since.
    const devices: string[] = [];
    for (const kind of CLIENT_KINDS)
      for (const host of refused) {
        const deviceId = await resultsRepo.insertDevice(app.database, {
          db: DEMO_DB,
          name: `${kind} ${host}`,
          keyHash: hashKey(`tdk_${kind}_${host}_${devices.length}_egress`),
          pointKey: 'finish',
        });
        await upsertConnector(app.database, {
          deviceId,
          db: DEMO_DB,
          kind,
          host,
          port: sink.port,
          listenPort: null,
          clockOffsetMs: 0,
          enabled: true,
          pointMap: {},
        });
        devices.push(deviceId);
      }
    const hooks: string[] = [];
    for (const host of refused)
      hooks.push(
        await webhooksRepo.insertWebhook(app.database, {
          eventId: EVENT,
          url: inUrl(host, sink.port),
          types: ['passing.stored'],
          secret: 'whsec_egress',
          createdBy: null,
        }),
      );
    // A listening device stored with a port the operator has not opened (none by default).
    const listener = await resultsRepo.insertDevice(app.database, {
      db: DEMO_DB,
      name: 'mylaps stored',
      keyHash: hashKey('tdk_mylaps_stored_egress'),
      pointKey: 'finish',
    });
    await upsertConnector(app.database, {
      deviceId: listener,
      db: DEMO_DB,
      kind: 'mylaps',
      host: null,
      port: null,
      listenPort: 32658,
      clockOffsetMs: 0,
      enabled: true,
      pointMap: {},
    });
    await app.raceday.manager.start();
    expect(app.raceday.manager.status(listener).reason).toMatch(
      /^not listening: .*DEVICE_LISTEN_PORTS is empty/,
    );
    expect(app.raceday.manager.connector(listener)?.port).toBe(0);
    for (const id of hooks) await app.webhooks.ping(id, EVENT);
    const manager = app.raceday.manager;
    await until(
      () => devices.every((id) => manager.status(id).view().state === 'error'),
      'every connector refused',
    );
    for (const id of devices) expect(manager.status(id).reason, id).toMatch(/^refused: /);
    await until(async () => {
      const rows = await app.database.query<{ error: string | null }>(
        `SELECT last_error AS error FROM webhook_deliveries WHERE webhook_id = ANY($1::uuid[])`,
        [hooks],
      );
      return rows.length === hooks.length && rows.every((r) => r.error);
    }, 'every delivery attempted');
    const errors = await app.database.query<{ error: string }>(
      `SELECT last_error AS error FROM webhook_deliveries WHERE webhook_id = ANY($1::uuid[])`,
      [hooks],
    );
    for (const e of errors) expect(e.error).toMatch(/^refused: /);
    // A retry round later, still nothing reached the listener.
    await new Promise((r) => setTimeout(r, 1_200));
    expect(sink.connections).toBe(0);
    await manager.stop();
  });

  it('listening connectors are refused when the operator opened no port, naming it', async () => {
    for (const kind of ['mylaps', 'chronotrack']) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/raceday/contexts/${DEMO_DB}/devices`,
        headers: { authorization: owner },
        payload: { name: kind, kind, listenPort: 32658 },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'LISTEN_PORT_REFUSED', errors: [{ field: 'listenPort' }] });
      expect(res.json().detail).toMatch(/DEVICE_LISTEN_PORTS is empty/);
    }
  });
});

describe('egress: what the operator opens works, and only that', () => {
  let app: FastifyInstance;
  let owner: string;
  let sink: Awaited<ReturnType<typeof counter>>;
  let listenPort: number;

  beforeAll(async () => {
    sink = await counter();
    const probe = net.createServer();
    listenPort = await new Promise<number>((resolve) =>
      probe.listen(0, '127.0.0.1', () => resolve((probe.address() as net.AddressInfo).port)),
    );
    await new Promise((r) => probe.close(r));
    app = await buildTestApp({
      DEVICE_ALLOW_LOOPBACK: 'true',
      DEVICE_NETWORKS: '10.20.0.0/16, fd12:3456::/32',
      DEVICE_LISTEN_PORTS: `${listenPort}`,
    });
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
    await app.raceday.manager.start();
  });
  afterAll(async () => {
    await app.close();
    await sink.close();
  });

  const create = (payload: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: `/api/raceday/contexts/${DEMO_DB}/devices`,
      headers: { authorization: owner },
      payload: { pointKey: 'finish', ...payload },
    });

  it('loopback, when allowed, is connected to (local simulators)', async () => {
    for (const kind of CLIENT_KINDS) {
      const before = sink.connections;
      const res = await create({ name: kind, kind, host: '127.0.0.1', port: sink.port });
      expect(res.statusCode, res.body).toBe(201);
      await until(() => sink.connections > before, `${kind} connecting to loopback`);
    }
    expect(
      (
        await create({
          name: 'named',
          kind: 'raceresult',
          host: 'localhost',
          port: sink.port,
          enabled: false,
        })
      ).statusCode,
    ).toBe(201);
  });

  it('a listed private network is accepted; others, mapped forms, metadata and 0.0.0.0 are not', async () => {
    for (const host of ['10.20.30.40', 'fd12:3456::7'])
      expect((await create({ name: host, kind: 'raceresult', host, enabled: false })).statusCode, host).toBe(
        201,
      );
    for (const host of [
      '10.21.0.1',
      '192.168.1.20',
      '::ffff:127.0.0.1',
      '::ffff:10.20.30.40',
      '169.254.169.254',
      '0.0.0.0',
      'fe80::1',
      '224.0.0.1',
    ]) {
      const res = await create({ name: host, kind: 'wiclax', host, port: 9999, enabled: false });
      expect(res.statusCode, host).toBe(400);
      expect(res.json()).toMatchObject({ code: 'DEVICE_ADDRESS_REFUSED' });
    }
  });

  it('listening: only a port of DEVICE_LISTEN_PORTS, one device per port, on DEVICE_LISTEN_HOST (127.0.0.1)', async () => {
    const outside = await create({
      name: 'mylaps out',
      kind: 'mylaps',
      listenPort: listenPort === 65535 ? 65534 : listenPort + 1,
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toMatchObject({ code: 'LISTEN_PORT_REFUSED' });
    expect(outside.json().detail).toContain(String(listenPort));
    const first = await create({ name: 'mylaps in', kind: 'mylaps', listenPort });
    expect(first.statusCode, first.body).toBe(201);
    const taken = await create({ name: 'chrono same', kind: 'chronotrack', listenPort });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'LISTEN_PORT_TAKEN' });
    // It listens, on loopback only: reachable at 127.0.0.1, not at the machine's other addresses.
    expect(app.raceday.manager.connector(first.json().id)?.port).toBe(listenPort);
    const reach = (host: string) =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect({ host, port: listenPort }, () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
    expect(await reach('127.0.0.1')).toBe(true);
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    if (external) expect(await reach(external.address)).toBe(false);
  });
});
