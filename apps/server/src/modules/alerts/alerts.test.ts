import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryDatabase, testConfig } from '../../../test/helpers.ts';
import { captureMails, createTestUser } from '../../../test/identity-helpers.ts';
import { pushReceiver } from '../../../test/push-receiver.ts';
import { buildApp } from '../../app.ts';
import type { Database } from '../../db/database.ts';
import { addParticipants, createRace, hashKey, insertContext, insertDevice } from '../results/port.ts';

// Issue 40, alerts for followers: a follower subscribed by web push (a subscription made with
// the test's own keys, its endpoint a local push service that decrypts per RFC 8291) and by
// e-mail (confirmed once) gets one message per chosen point, with two server nodes on one
// database, a read sent to both, and a correction in between.
const EVENT = 'alerts-run';
const DB = 'alerts-run-10k';
const RACE = 'alerts-10k';
const KEY = 'tdk_alerts_test_device_0001';
const GUN = Date.parse('2026-06-14T08:00:00Z');
const min = (m: number) => GUN + m * 60_000;

interface Push {
  title: string;
  body: string;
  pointKey: string;
  corrected: boolean;
  unsubscribeUrl: string;
}

describe('alerts for followers (two nodes, push and e-mail)', () => {
  let database: Database;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let push: Awaited<ReturnType<typeof pushReceiver>>;
  let mailsA: ReturnType<typeof captureMails>;
  let mailsB: ReturnType<typeof captureMails>;
  let trackingKey: string;

  const ingest = (app: FastifyInstance, passings: unknown[]) =>
    app.inject({
      method: 'POST',
      url: '/api/ingest/passings',
      headers: { 'x-device-key': KEY, 'content-type': 'application/json' },
      payload: JSON.stringify({ passings }),
    });
  const idle = async () => {
    await a.alerts.idle();
    await b.alerts.idle();
    await a.outbox.flush();
  };
  const alertMails = () =>
    [...mailsA.sent, ...mailsB.sent].filter(
      (m) => m.to === 'fan@example.org' && !m.link?.includes('/alerts/confirm/'),
    );

  beforeAll(async () => {
    database = await memoryDatabase();
    const config = testConfig({ SEED_DEMO: 'false', WEBHOOK_ALLOW_PRIVATE: 'true' });
    a = await buildApp(config, { database, logger: false });
    b = await buildApp(config, { database, logger: false });
    mailsA = captureMails(a);
    mailsB = captureMails(b);
    push = await pushReceiver();
    await database.query(
      `INSERT INTO organisations (id, slug, name) VALUES ('00000000-0000-4000-8000-0000000000c1', 'alerts', 'Alerts')`,
    );
    await database.query(
      `INSERT INTO events (id, organisation_id, name, start_date, end_date, status, visibility)
       VALUES ($1, '00000000-0000-4000-8000-0000000000c1', 'Alerts Run', '2026-06-14', '2026-06-14', 'live', 'public')`,
      [EVENT],
    );
    await insertContext(database, { db: DB, eventId: EVENT, name: '10 km' });
    await database.transaction(async (sql) => {
      await createRace(sql, DB, {
        id: RACE,
        name: '10 km',
        date: '2026-06-14',
        distanceM: 10_000,
        startType: 'mass',
        gunTimeMs: GUN,
        points: [
          { key: 'start', name: 'Start', distanceM: 0, isStart: true },
          { key: '5k', name: '5 km', distanceM: 5000 },
          { key: 'finish', name: 'Finish', nameFr: 'Arrivée', distanceM: 10_000 },
        ],
      });
      await addParticipants(sql, RACE, [
        { bib: '7', firstName: 'Léa', lastName: 'Martin', gender: 'F', age: 31, status: 'registered' },
        { bib: '8', firstName: 'Hugo', lastName: 'Roux', gender: 'M', age: 45, status: 'registered' },
      ]);
    });
    await insertDevice(database, { db: DB, name: 'mats', keyHash: hashKey(KEY), pointKey: null });
    [{ tracking_key: trackingKey }] = (await database.query<{ tracking_key: string }>(
      `SELECT tracking_key FROM participants WHERE race_id = $1 AND bib = '7'`,
      [RACE],
    )) as [{ tracking_key: string }];
  }, 120_000);
  afterAll(async () => {
    await a.close();
    await b.close();
    await push.close();
    await database.close();
  });

  it('subscribes by push (no account) and by e-mail, confirmed once', async () => {
    const vapid = await a.inject('/api/alerts/vapid');
    expect(vapid.json()).toEqual({ publicKey: expect.stringMatching(/^[A-Za-z0-9_-]{87}$/) });
    // Both nodes sign with the same keys.
    expect((await b.inject('/api/alerts/vapid')).json()).toEqual(vapid.json());

    const bad = await a.inject({
      method: 'POST',
      url: '/api/alerts',
      payload: { trackingKey, channel: 'push', points: ['5k'], subscription: { endpoint: 'nope', keys: {} } },
    });
    expect(bad.statusCode).toBe(400);
    const unknown = await a.inject({
      method: 'POST',
      url: '/api/alerts',
      payload: {
        trackingKey: 'nosuchkey',
        channel: 'push',
        points: ['5k'],
        subscription: push.subscription(),
      },
    });
    expect(unknown.statusCode).toBe(404);

    const byPush = await a.inject({
      method: 'POST',
      url: '/api/alerts',
      payload: {
        trackingKey,
        channel: 'push',
        points: ['start', '5k', 'finish'],
        lng: 'en',
        subscription: push.subscription(),
      },
    });
    expect(byPush.statusCode).toBe(201);
    expect(byPush.json()).toEqual({ channel: 'push', confirmationNeeded: false });

    const byMail = await b.inject({
      method: 'POST',
      url: '/api/alerts',
      payload: {
        trackingKey,
        channel: 'email',
        points: ['5k', 'finish'],
        lng: 'fr',
        email: 'Fan@Example.org',
      },
    });
    expect(byMail.json()).toEqual({ channel: 'email', confirmationNeeded: true });
    const confirmation = mailsB.sent.find((m) => m.link?.includes('/alerts/confirm/'))!;
    expect(confirmation.to).toBe('fan@example.org');
    const token = /confirm\/([\w-]+)/.exec(confirmation.link!)![1]!;
    expect((await a.inject({ method: 'POST', url: `/api/alerts/confirm/${token}` })).statusCode).toBe(204);
    // Once: another runner followed from the same address needs no confirmation.
    const again = await a.inject({
      method: 'POST',
      url: '/api/alerts',
      payload: {
        trackingKey,
        channel: 'email',
        points: ['5k', 'finish'],
        lng: 'fr',
        email: 'fan@example.org',
      },
    });
    expect(again.json()).toEqual({ channel: 'email', confirmationNeeded: false });
  });

  it('one message per chosen point across two nodes; a correction sends one corrected message', async () => {
    expect(
      (
        await ingest(a, [
          { bib: '7', point: 'start', time: GUN + 4_000 },
          { bib: '8', point: 'start', time: GUN + 3_000 },
        ])
      ).statusCode,
    ).toBe(200);
    // The same 5 km read reaches both nodes (two transports): one passing.
    expect((await ingest(a, [{ bib: '7', point: '5k', time: min(24) }])).statusCode).toBe(200);
    expect((await ingest(b, [{ bib: '7', point: '5k', time: min(24) }])).statusCode).toBe(200);
    expect((await ingest(b, [{ bib: '8', point: '5k', time: min(23) }])).statusCode).toBe(200);
    expect((await ingest(b, [{ bib: '7', point: 'finish', time: min(50) }])).statusCode).toBe(200);
    await idle();
    // The finish read was wrong: withdrawn and read again 30 s earlier, on the other node (net
    // times: the runner crossed the start mat 4 s after the gun).
    expect(
      (
        await ingest(a, [
          { bib: '7', point: 'finish', time: min(50), deleted: true },
          { bib: '7', point: 'finish', time: min(49.5) },
        ])
      ).statusCode,
    ).toBe(200);
    // The replaced read once more (a transport retrying): nothing more.
    expect((await ingest(b, [{ bib: '7', point: 'finish', time: min(49.5) }])).statusCode).toBe(200);
    await idle();

    expect(push.errors).toEqual([]);
    const payloads = push.received.map((r) => r.payload as Push);
    expect(payloads.map((p) => [p.pointKey, p.corrected])).toEqual([
      ['start', false],
      ['5k', false],
      ['finish', false],
      ['finish', true],
    ]);
    expect(push.received.every((r) => r.vapidValid)).toBe(true);
    expect(payloads[1]!.title).toBe('Léa Martin: 5 km in 23:56');
    expect(payloads[1]!.body).toContain('passed 5 km at 10:24:00: 23:56, rank 1');
    expect(payloads[1]!.body).toMatch(/Predicted finish: \d+:\d\d/);
    expect(payloads[3]!.title).toBe('Corrected: Léa Martin at the finish in 49:26');

    const mails = alertMails();
    // Sent by whichever node stored the read (mails of each node in order): one each.
    expect(mails.map((m) => m.subject).sort()).toEqual(
      [
        'Tempora — Léa Martin : 5 km en 23:56',
        'Tempora — Léa Martin : l’arrivée en 49:56',
        'Tempora — Corrigé : Léa Martin à l’arrivée en 49:26',
      ].sort(),
    );
    for (const m of mails) expect(m.text).toMatch(/#\/alerts\/unsubscribe\/[\w-]+/);
    const [{ n }] = (await database.query<{ n: number }>('SELECT count(*)::int AS n FROM alert_sends')) as [
      { n: number },
    ];
    expect(n).toBe(5);
  });

  it('unsubscribes in one click, and a runner may turn alerts about themselves off', async () => {
    const unsubscribe = (push.received.at(-1)!.payload as Push).unsubscribeUrl;
    const token = /unsubscribe\/([\w-]+)/.exec(unsubscribe)![1]!;
    expect((await b.inject({ method: 'POST', url: `/api/alerts/unsubscribe/${token}` })).statusCode).toBe(
      204,
    );
    expect((await b.inject({ method: 'POST', url: `/api/alerts/unsubscribe/${token}` })).statusCode).toBe(
      404,
    );
    const before = push.received.length;
    const mailsBefore = alertMails().length;
    await ingest(a, [
      { bib: '7', point: 'finish', time: min(49.5), deleted: true },
      { bib: '7', point: 'finish', time: min(49.6) },
    ]);
    await idle();
    expect(push.received.length).toBe(before);
    expect(alertMails().length).toBe(mailsBefore + 1);

    // The runner's own switch: their account turns alerts off; nothing more is sent or accepted.
    const runner = await createTestUser(a);
    await database.query(`UPDATE participants SET account_id = $1 WHERE tracking_key = $2`, [
      runner.sub,
      trackingKey,
    ]);
    const off = await a.inject({
      method: 'PUT',
      url: '/api/me/alerts',
      headers: { authorization: runner.authorization },
      payload: { off: true },
    });
    expect(off.json()).toEqual({ off: true });
    const refused = await a.inject({
      method: 'POST',
      url: '/api/alerts',
      payload: {
        trackingKey,
        channel: 'push',
        points: ['finish'],
        subscription: push.subscription('/push/2'),
      },
    });
    expect(refused.statusCode).toBe(409);
    await ingest(a, [
      { bib: '7', point: 'finish', time: min(49.6), deleted: true },
      { bib: '7', point: 'finish', time: min(49.7) },
    ]);
    await idle();
    expect(alertMails().length).toBe(mailsBefore + 1);
  });
});
