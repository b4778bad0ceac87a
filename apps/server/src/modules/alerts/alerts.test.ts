import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, memoryDatabase, testConfig } from '../../../test/helpers.ts';
import { captureMails, createTestUser } from '../../../test/identity-helpers.ts';
import { pushReceiver } from '../../../test/push-receiver.ts';
import { buildApp } from '../../app.ts';
import type { Database } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { eventually } from '../../realtime/test-harness.ts';
import { addParticipants, createRace, hashKey, insertContext, insertDevice } from '../results/port.ts';
import * as repo from './repository.ts';

// Issue 40, alerts for followers: a follower subscribed by web push (a subscription made with
// the test's own keys, its endpoint a local push service that decrypts per RFC 8291) and by
// e-mail (confirmed once) gets one message per chosen point, with two server nodes, a read sent
// to both, and a correction in between. Twice: two nodes on one PGlite database (no Redis: each
// node applies the reads it stored), and, when TEST_DATABASE_URL and TEST_REDIS_URL are set, two
// nodes on one PostgreSQL and one Redis (one node publishes the context; the other applies its
// own reads when that publication comes, and sends their alerts then).
const EVENT = 'alerts-run';
const DB = 'alerts-run-10k';
const RACE = 'alerts-10k';
const KEY = 'tdk_alerts_test_device_0001';
const GUN = Date.parse('2026-06-14T08:00:00Z');
const min = (m: number) => GUN + m * 60_000;

interface Push {
  title: string;
  unsubscribeLabel: string;
  body: string;
  pointKey: string;
  corrected: boolean;
  unsubscribeUrl: string;
}

const redisUrl = process.env.TEST_REDIS_URL;
const postgres = backends().find((b) => b.name === 'postgres');

/** Two nodes sharing their storage, and how to take them down. */
interface Nodes {
  a: FastifyInstance;
  b: FastifyInstance;
  database: Database;
  close(): Promise<void>;
}

const config = (extra: Record<string, string> = {}) =>
  testConfig({ SEED_DEMO: 'false', WEBHOOK_ALLOW_PRIVATE: 'true', ...extra });

const suites: { name: string; skip: boolean; nodes: () => Promise<Nodes> }[] = [
  {
    name: 'two nodes on one PGlite database',
    skip: false,
    nodes: async () => {
      const database = await memoryDatabase();
      const c = config();
      const a = await buildApp(c, { database, logger: false });
      const b = await buildApp(c, { database, logger: false });
      return {
        a,
        b,
        database,
        close: async () => {
          await a.close();
          await b.close();
          await database.close();
        },
      };
    },
  },
  {
    name: 'two nodes on one PostgreSQL and one Redis',
    skip: !redisUrl || !postgres,
    nodes: async () => {
      const fresh = await postgres!.fresh();
      const prefix = `tempora-test:${randomUUID()}:`;
      const c = config({
        REDIS_URL: redisUrl!,
        REALTIME_REDIS_PREFIX: `${prefix}rt:`,
        RESULTS_LEASE_REDIS_PREFIX: `${prefix}lease:`,
        RESULTS_PUBLISH_MS: '100',
      });
      const databases = [await fresh.open(), await fresh.open()] as const;
      const a = await buildApp(c, { database: databases[0], logger: false });
      const b = await buildApp(c, { database: databases[1], logger: false });
      return {
        a,
        b,
        database: databases[0],
        close: async () => {
          await a.close();
          await b.close();
          for (const database of databases) await database.close();
          await fresh.drop();
          const r = new Redis(redisUrl!);
          const keys = await r.keys(`${prefix}*`);
          if (keys.length) await r.del(...keys);
          await r.quit();
        },
      };
    },
  },
];

for (const suite of suites)
  describe.skipIf(suite.skip)(`alerts for followers (${suite.name}, push and e-mail)`, () => {
    let nodes: Nodes;
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
    /**
     * Waits for this many messages (push, e-mail) in all, then for anything more that could come:
     * a read stored by a node that does not publish is applied, and alerted, when the publication
     * comes back (every 100 ms here), so the nodes' alerts are idle only after it.
     */
    const settle = async (pushes: number, mails: number) => {
      await eventually(() => push.received.length >= pushes && alertMails().length >= mails, 15_000);
      await new Promise((r) => setTimeout(r, 400));
      await idle();
      expect(push.received.length).toBe(pushes);
      expect(alertMails().length).toBe(mails);
    };
    const alertMails = () =>
      [...mailsA.sent, ...mailsB.sent].filter(
        (m) => m.to === 'fan@example.org' && !m.link?.includes('/alerts/confirm/'),
      );

    beforeAll(async () => {
      nodes = await suite.nodes();
      ({ a, b, database } = nodes);
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
      await nodes?.close();
      await push?.close();
    });

    it('subscribes by push (no account) and by e-mail, confirmed once', async () => {
      const vapid = await a.inject('/api/alerts/vapid');
      expect(vapid.json()).toEqual({ publicKey: expect.stringMatching(/^[A-Za-z0-9_-]{87}$/) });
      // Both nodes sign with the same keys.
      expect((await b.inject('/api/alerts/vapid')).json()).toEqual(vapid.json());

      const bad = await a.inject({
        method: 'POST',
        url: '/api/alerts',
        payload: {
          trackingKey,
          channel: 'push',
          points: ['5k'],
          subscription: { endpoint: 'nope', keys: {} },
        },
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
      // Push: start, 5 km, finish; e-mail: 5 km, finish.
      await settle(3, 2);
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
      // One corrected message on each channel, nothing else.
      await settle(4, 3);

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
      expect(payloads[2]!.title).toBe('Léa Martin: the finish in 49:56');
      expect(payloads[3]!.title).toBe('Corrected: Léa Martin at the finish in 49:26');
      // One-click unsubscribe in every push message (the service worker's action opens it).
      for (const p of payloads) {
        expect(p.unsubscribeUrl).toMatch(/^http.*\/#\/alerts\/unsubscribe\/[\w-]+$/);
        expect(p.unsubscribeLabel).toBe('Unsubscribe');
      }

      const mails = alertMails();
      // Sent by whichever node stored the read (mails of each node in order): one each.
      expect(mails.map((m) => m.subject).sort()).toEqual(
        [
          'Tempora — Léa Martin : 5 km en 23:56',
          'Tempora — Léa Martin : l’arrivée en 49:56',
          'Tempora — Corrigé : Léa Martin à l’arrivée en 49:26',
        ].sort(),
      );
      // One-click unsubscribe in every e-mail, in its text and as a link of its HTML.
      for (const m of mails) {
        const link = /http\S+\/#\/alerts\/unsubscribe\/[\w-]+/.exec(m.text)?.[0];
        expect(link).toBeDefined();
        expect(m.html).toContain(`<a href="${link}">`);
      }
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
      // The e-mail subscription still gets the corrected time; the push one nothing.
      await settle(before, mailsBefore + 1);

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
      await settle(before, mailsBefore + 1);
    });
  });

describe('a late node never sends an older time as a correction', () => {
  it('replaces a sent time only from a read at least as new as the one it was sent for', async () => {
    const database = await memoryDatabase();
    await migrate(database);
    const [{ id }] = (await database.query<{ id: string }>(
      `INSERT INTO alert_subscriptions (tracking_key, channel, endpoint, p256dh, auth, points, lng, token)
       VALUES ('k', 'push', 'https://push.example/1', 'p', 'a', ARRAY['finish'], 'en', 't') RETURNING id`,
    )) as [{ id: string }];
    const claim = (timeMs: number, seq: number) =>
      repo.claimSends(database, [{ subscriptionId: id, pointKey: 'finish', timeMs, readAtMs: 0, seq }]);
    // Read 10 sent 50:00; read 12 (the correction, on another node) sent 49:30.
    expect([...(await claim(3_000_000, 10)).values()]).toEqual(['new']);
    expect([...(await claim(2_970_000, 12)).values()]).toEqual(['corrected']);
    // A node late with read 11 (its card still at 50:00): nothing.
    expect((await claim(3_000_000, 11)).size).toBe(0);
    // The same time again from a newer read: nothing; a newer different time: corrected.
    expect((await claim(2_970_000, 13)).size).toBe(0);
    expect([...(await claim(2_960_000, 14)).values()]).toEqual(['corrected']);
    await database.close();
  });
});
