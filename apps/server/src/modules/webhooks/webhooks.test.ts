import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';
import * as resultsRepo from '../results/repository.ts';
import { hashKey } from '../results/service.ts';
import * as webhooksRepo from './repository.ts';
import { backoffMs, RETRY_BASE_MS } from './service.ts';

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
const OTHER_ORG = '00000000-0000-4000-8000-0000000000fd';
const EVENT = 'demo-city-run';
const DEVICE_KEY = 'tdk_webhooks_test_device_123';

interface Call {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real receiver: answers each request with what `answer` says (status, or a held promise). */
async function receiver() {
  const calls: Call[] = [];
  let answer: (call: Call) => number | Promise<number> | [number, Record<string, string>] = () => 200;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c;
    });
    req.on('end', async () => {
      const call = { path: req.url ?? '', headers: req.headers, body };
      calls.push(call);
      const answered = await answer(call);
      const [status, headers] = Array.isArray(answered) ? answered : [answered, {}];
      res.writeHead(status, headers);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    calls,
    port: () => (server.address() as AddressInfo).port,
    url: (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    answerWith(fn: typeof answer) {
      answer = fn;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function waitFor<T>(probe: () => T | undefined | false, what: string, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Checks a delivery's signature as a receiver would (README "Webhooks"). */
function verifySignature(call: Call, secret: string): boolean {
  const header = String(call.headers['tempora-signature'] ?? '');
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const expected = crypto.createHmac('sha256', secret).update(`${match[1]}.${call.body}`).digest('hex');
  return crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(match[2]!));
}

describe('webhooks (WEBHOOK_ALLOW_PRIVATE: the receiver is on 127.0.0.1)', () => {
  let app: FastifyInstance;
  let owner: string;
  let staff: string;
  let timekeeper: string;
  let stranger: string;
  let gun: number;
  let bibs: string[];
  let rx: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    app = await buildTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    rx = await receiver();
    await app.database.query(`INSERT INTO organisations (id, slug, name) VALUES ($1, 'other-w', 'Other')`, [
      OTHER_ORG,
    ]);
    const user = async (organisationId: string, role: 'owner' | 'staff' | 'timekeeper') =>
      (await createTestUser(app, { memberships: [{ organisationId, role }] })).authorization;
    owner = await user(DEMO_ORG, 'owner');
    staff = await user(DEMO_ORG, 'staff');
    timekeeper = await user(DEMO_ORG, 'timekeeper');
    stranger = await user(OTHER_ORG, 'owner');
    await resultsRepo.insertDevice(app.database, {
      db: DEMO_DB,
      name: 'finish',
      keyHash: hashKey(DEVICE_KEY),
      pointKey: 'finish',
    });
    gun = (
      await app.database.query<{ gun: number }>(
        "SELECT gun_time_ms::float8 AS gun FROM races WHERE id = 'city-10k'",
      )
    )[0]!.gun;
    bibs = (
      await app.database.query<{ bib: string }>(
        "SELECT bib FROM participants WHERE race_id = 'city-10k' ORDER BY bib LIMIT 10",
      )
    ).map((r) => r.bib);
  });
  afterAll(async () => {
    await app.close();
    await rx.close();
  });

  const create = (authorization: string | undefined, payload: unknown) =>
    app.inject({
      method: 'POST',
      url: `/api/webhooks/events/${EVENT}`,
      headers: authorization ? { authorization } : {},
      payload: payload as object,
    });
  const finish = (bib: string, offsetMs: number, extra: Record<string, unknown> = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/ingest/passings',
      headers: { 'x-device-key': DEVICE_KEY },
      payload: { passings: [{ bib, time: gun + 2_400_000 + offsetMs, ...extra }] },
    });

  it('lets owners and staff register webhooks, nobody else; the secret is shown once', async () => {
    const payload = { url: rx.url('/a'), types: ['passing.stored', 'runner.finished'] };
    expect((await create(undefined, payload)).statusCode).toBe(401);
    expect((await create(timekeeper, payload)).statusCode).toBe(403);
    expect((await create(stranger, payload)).statusCode).toBe(403);
    expect((await create(owner, { ...payload, url: 'ftp://example.org/x' })).statusCode).toBe(400);
    expect((await create(owner, { ...payload, url: 'http://user:pw@example.org/x' })).statusCode).toBe(400);
    expect((await create(owner, { ...payload, types: ['everything'] })).statusCode).toBe(400);
    expect((await create(owner, { ...payload, types: [] })).statusCode).toBe(400);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/api/webhooks/events/nope',
          headers: { authorization: owner },
          payload,
        })
      ).statusCode,
    ).toBe(404);
    const created = await create(staff, payload);
    expect(created.statusCode).toBe(201);
    expect(created.json().secret).toMatch(/^whsec_/);
    const list = await app.inject({
      url: `/api/webhooks/events/${EVENT}`,
      headers: { authorization: owner },
    });
    expect(list.json()).toHaveLength(1);
    expect(list.json()[0]).not.toHaveProperty('secret');
    expect(JSON.stringify(list.json())).not.toContain(created.json().secret);
    for (const who of [undefined, timekeeper, stranger]) {
      const headers = who ? { authorization: who } : {};
      // Issue 25: another organisation's webhook answers as a missing one (404); the event is public (403).
      const onEvent = who ? 403 : 401;
      const expected = !who ? 401 : who === stranger ? 404 : 403;
      const id = created.json().id;
      expect((await app.inject({ url: `/api/webhooks/events/${EVENT}`, headers })).statusCode).toBe(onEvent);
      expect((await app.inject({ url: `/api/webhooks/${id}/deliveries`, headers })).statusCode).toBe(
        expected,
      );
      expect(
        (
          await app.inject({
            method: 'PATCH',
            url: `/api/webhooks/${id}`,
            headers,
            payload: { active: false },
          })
        ).statusCode,
      ).toBe(expected);
      expect(
        (await app.inject({ method: 'POST', url: `/api/webhooks/${id}/test`, headers })).statusCode,
      ).toBe(expected);
      expect(
        (await app.inject({ method: 'POST', url: `/api/webhooks/${id}/deliveries/1/replay`, headers }))
          .statusCode,
      ).toBe(expected);
      expect((await app.inject({ method: 'DELETE', url: `/api/webhooks/${id}`, headers })).statusCode).toBe(
        expected,
      );
    }
    expect(
      (await app.inject({ url: '/api/webhooks/not-a-uuid/deliveries', headers: { authorization: owner } }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await app.inject({
          url: `/api/webhooks/${crypto.randomUUID()}/deliveries`,
          headers: { authorization: owner },
        })
      ).statusCode,
    ).toBe(404);
    await app.inject({
      method: 'DELETE',
      url: `/api/webhooks/${created.json().id}`,
      headers: { authorization: owner },
    });
  });

  it('delivers signed occurrences; retries after a 500 with back-off; never twice after success', async () => {
    const created = (
      await create(owner, {
        url: rx.url('/hook'),
        types: ['passing.stored', 'runner.finished', 'passing.corrected'],
      })
    ).json();
    let failFirst = true;
    rx.answerWith(() => {
      if (failFirst) {
        failFirst = false;
        return 500;
      }
      return 200;
    });
    const bib = bibs[0]!;
    expect((await finish(bib, 1_000)).statusCode).toBe(200);
    // The first delivery answered 500: it is pending with a back-off of RETRY_BASE_MS.
    const first = await waitFor(() => rx.calls.find((c) => c.path === '/hook'), 'a first delivery');
    expect(verifySignature(first, created.secret)).toBe(true);
    expect(verifySignature({ ...first, body: first.body.replace('}', ',"x":1}') }, created.secret)).toBe(
      false,
    );
    const failedId = Number(first.headers['tempora-delivery']);
    const log = async () =>
      (
        await app.inject({ url: `/api/webhooks/${created.id}/deliveries`, headers: { authorization: owner } })
      ).json();
    const waiting = await waitForAsync(async () => {
      const d = (await log()).find((x: { id: number }) => x.id === failedId);
      return d?.log.length === 1 ? d : undefined;
    });
    expect(waiting).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 500 });
    const delay = Date.parse(waiting.nextAttemptAt) - Date.parse(waiting.log[0].at);
    expect(delay).toBeGreaterThan(RETRY_BASE_MS - 2_000);
    expect(backoffMs(2)).toBe(2 * RETRY_BASE_MS);
    // Both occurrences of the passing arrive (the other one at once), with their types.
    const types = await waitFor(() => {
      const seen = rx.calls.filter((c) => c.path === '/hook').map((c) => c.headers['tempora-event']);
      return seen.includes('runner.finished') ? seen : undefined;
    }, 'runner.finished');
    expect(types).toContain('passing.stored');
    const finished = JSON.parse(rx.calls.find((c) => c.headers['tempora-event'] === 'runner.finished')!.body);
    expect(finished).toMatchObject({
      type: 'runner.finished',
      eventId: EVENT,
      data: { bib, status: 'finished' },
    });
    expect(finished.data.netMs).toBeGreaterThan(0);
    // Time passes: the retry is due; it is delivered, once.
    await app.database.query('UPDATE webhook_deliveries SET next_attempt_at = now() WHERE id = $1', [
      failedId,
    ]);
    await app.webhooks.drain();
    await waitFor(
      () => rx.calls.filter((c) => Number(c.headers['tempora-delivery']) === failedId).length === 2,
      'the retry',
    );
    const done = await waitForAsync(async () => {
      const d = (await log()).find((x: { id: number }) => x.id === failedId);
      return d?.state === 'delivered' ? d : undefined;
    });
    expect(done.log.map((a: { status: number }) => a.status)).toEqual([500, 200]);
    await app.database.query("UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 hour'");
    await app.webhooks.drain();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(rx.calls.filter((c) => Number(c.headers['tempora-delivery']) === failedId)).toHaveLength(2);
    // The same read again is a duplicate: nothing new is delivered.
    const before = rx.calls.length;
    expect((await finish(bib, 1_000)).json().duplicates).toBe(1);
    await app.webhooks.flushed();
    await app.webhooks.drain();
    expect(rx.calls.length).toBe(before);
    // A replay sends it again, on request.
    const replay = await app.inject({
      method: 'POST',
      url: `/api/webhooks/${created.id}/deliveries/${failedId}/replay`,
      headers: { authorization: owner },
    });
    expect(replay.statusCode).toBe(202);
    await waitFor(
      () => rx.calls.filter((c) => Number(c.headers['tempora-delivery']) === failedId).length === 3,
      'the replay',
    );
    // A voided read is a correction.
    const passingId = JSON.parse(rx.calls.find((c) => c.headers['tempora-event'] === 'passing.stored')!.body)
      .data.id;
    await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/passings`,
      headers: { authorization: owner },
      payload: { passings: [{ id: passingId, bib, point: 'finish', time: gun + 2_401_000, deleted: true }] },
    });
    const corrected = await waitFor(
      () => rx.calls.find((c) => c.headers['tempora-event'] === 'passing.corrected'),
      'a correction',
    );
    expect(JSON.parse(corrected.body).data).toMatchObject({ bib, action: 'voided', deleted: true });
    await app.inject({
      method: 'DELETE',
      url: `/api/webhooks/${created.id}`,
      headers: { authorization: owner },
    });
  });

  it('never holds ingest for a slow receiver, and tells of DNS/DNF/DSQ', async () => {
    const created = (
      await create(owner, { url: rx.url('/slow'), types: ['passing.stored', 'runner.status'] })
    ).json();
    let release: () => void = () => undefined;
    const held = new Promise<number>((resolve) => {
      release = () => resolve(200);
    });
    rx.answerWith((call) => (call.path === '/slow' ? held : 200));
    const answered = await finish(bibs[1]!, 5_000);
    expect(answered.statusCode).toBe(200);
    // The receiver holds its answer: the delivery is in flight while ingest goes on.
    await waitFor(() => rx.calls.some((c) => c.path === '/slow'), 'the held delivery');
    expect((await finish(bibs[2]!, 6_000)).statusCode).toBe(200);
    expect((await finish(bibs[3]!, 7_000)).statusCode).toBe(200);
    release();
    await app.database.query(
      "UPDATE participants SET status = 'DNF' WHERE race_id = 'city-10k' AND bib = $1",
      [bibs[4]],
    );
    await app.results.reload(DEMO_DB);
    const status = await waitFor(
      // This runner's (a read of a runner marked DNS clears it and tells of it too: issue 26).
      () =>
        rx.calls.find(
          (c) =>
            c.path === '/slow' &&
            c.headers['tempora-event'] === 'runner.status' &&
            JSON.parse(c.body).data.bib === bibs[4],
        ),
      'runner.status',
    );
    expect(JSON.parse(status.body).data).toMatchObject({
      bib: bibs[4],
      status: 'DNF',
      previousStatus: 'notStarted',
    });
    const ping = await app.inject({
      method: 'POST',
      url: `/api/webhooks/${created.id}/test`,
      headers: { authorization: staff },
    });
    expect(ping.statusCode).toBe(202);
    await waitFor(
      () => rx.calls.find((c) => c.path === '/slow' && c.headers['tempora-event'] === 'ping'),
      'a ping',
    );
  });
  it('never follows a redirect: a 3xx is a failed attempt, its target never called', async () => {
    const created = (await create(owner, { url: rx.url('/bounce'), types: ['passing.stored'] })).json();
    rx.answerWith((call) => (call.path === '/bounce' ? [302, { location: rx.url('/internal') }] : 200));
    await app.webhooks.ping(created.id, EVENT);
    const attempt = await waitForAsync(async () => {
      const log = (
        await app.inject({ url: `/api/webhooks/${created.id}/deliveries`, headers: { authorization: owner } })
      ).json();
      return log[0]?.log.length ? log[0] : undefined;
    });
    expect(attempt).toMatchObject({ state: 'pending', lastStatus: 302, lastError: 'HTTP 302' });
    expect(rx.calls.some((c) => c.path === '/bounce')).toBe(true);
    expect(rx.calls.some((c) => c.path === '/internal')).toBe(false);
    await app.inject({
      method: 'DELETE',
      url: `/api/webhooks/${created.id}`,
      headers: { authorization: owner },
    });
  });
});

describe('webhooks to internal addresses (WEBHOOK_ALLOW_PRIVATE off, the default)', () => {
  let app: FastifyInstance;
  let owner: string;
  let rx: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    app = await buildTestApp();
    rx = await receiver();
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
  });
  afterAll(async () => {
    await app.close();
    await rx.close();
  });
  const list = async () =>
    (await app.inject({ url: `/api/webhooks/events/${EVENT}`, headers: { authorization: owner } })).json();

  it('refuses them at registration, whatever their spelling, with a problem+json naming the field', async () => {
    const port = rx.port();
    const internal = [
      rx.url('/hook'),
      `http://2130706433:${port}/hook`,
      `http://0x7f000001:${port}/hook`,
      `http://127.1:${port}/hook`,
      `http://[::ffff:127.0.0.1]:${port}/hook`,
      `http://[::1]:${port}/hook`,
      `http://0.0.0.0:${port}/hook`,
      `http://localhost:${port}/hook`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.5/hook',
      'http://172.20.1.1/hook',
      'http://192.168.1.1/hook',
      'http://[fd00::1]/hook',
      'http://[fe80::1]/hook',
    ];
    for (const url of internal) {
      const answer = await app.inject({
        method: 'POST',
        url: `/api/webhooks/events/${EVENT}`,
        headers: { authorization: owner },
        payload: { url, types: ['passing.stored'] },
      });
      expect(answer.statusCode, url).toBe(400);
      expect(answer.headers['content-type']).toContain('application/problem+json');
      expect(answer.json(), url).toMatchObject({ code: 'WEBHOOK_URL_REFUSED', errors: [{ field: 'url' }] });
    }
    expect(await list()).toEqual([]);
    // A public address is accepted; moving it to an internal one later is refused too.
    const created = await app.inject({
      method: 'POST',
      url: `/api/webhooks/events/${EVENT}`,
      headers: { authorization: owner },
      payload: { url: 'http://93.184.215.14/hook', types: ['passing.stored'] },
    });
    expect(created.statusCode).toBe(201);
    const moved = await app.inject({
      method: 'PATCH',
      url: `/api/webhooks/${created.json().id}`,
      headers: { authorization: owner },
      payload: { url: `http://[::ffff:7f00:1]:${port}/hook`, active: false },
    });
    expect(moved.statusCode).toBe(400);
    expect(await list()).toMatchObject([{ url: 'http://93.184.215.14/hook', active: true }]);
    await app.inject({
      method: 'DELETE',
      url: `/api/webhooks/${created.json().id}`,
      headers: { authorization: owner },
    });
  });

  it('refuses them again at delivery, after resolving the name (DNS rebinding)', async () => {
    const port = rx.port();
    // As if the names had pointed elsewhere at registration and were re-pointed since.
    const ids = [];
    for (const url of [`http://localhost:${port}/rebound`, `http://2130706433:${port}/literal`]) {
      ids.push(
        await webhooksRepo.insertWebhook(app.database, {
          eventId: EVENT,
          url,
          types: ['passing.stored'],
          secret: 'whsec_test',
          createdBy: null,
        }),
      );
    }
    for (const id of ids) await app.webhooks.ping(id, EVENT);
    for (const id of ids) {
      const delivery = await waitForAsync(async () => {
        const log = (
          await app.inject({ url: `/api/webhooks/${id}/deliveries`, headers: { authorization: owner } })
        ).json();
        return log[0]?.log.length ? log[0] : undefined;
      });
      expect(delivery).toMatchObject({ state: 'pending', lastStatus: null });
      expect(delivery.lastError).toMatch(/^refused: .*(loopback|not a public address)/);
    }
    expect(rx.calls).toEqual([]);
  });
});

async function waitForAsync<T>(probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
