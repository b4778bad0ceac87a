import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { liveChannels, type ResultCorrection } from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import type Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryDatabase, testConfig } from '../../../test/helpers.ts';
import { createTestUser, type TestUser } from '../../../test/identity-helpers.ts';
import { buildApp } from '../../app.ts';
import type { Database } from '../../db/database.ts';
import { eventually, pusherClient, subscribed } from '../../realtime/test-harness.ts';
import {
  addParticipants,
  createRace,
  hashKey,
  insertContext,
  insertDevice,
  recordCorrections,
} from '../results/port.ts';

// Issue 40, privacy by the runner's choice, where privacy.test.ts does not look: a runner who hid
// their name is absent from the realtime frames (pusher-js on the context's results, passings and
// runner channels), the webhooks' payloads (runner.finished, results.corrected), the corrections
// feed, the card and the event page — including a correction recorded while the name was shown.
// The runner beside them (not hidden) is named in the same frames and payloads: the check is not
// vacuous.
const ORG = '00000000-0000-4000-8000-0000000000b4';
const EVENT = 'privacy-feeds';
const DB = 'privacy-feeds-10k';
const RACE = 'privacy-feeds-10k';
const KEY = 'tdk_privacy_feeds_device_01';
const GUN = Date.now() - 3_600_000;

describe('a hidden name in frames, webhooks and the corrections feed', () => {
  let database: Database;
  let app: FastifyInstance;
  let runner: TestUser;
  let owner: TestUser;
  let client: Pusher;
  let participantId: string;
  const frames: string[] = [];
  const hooks: { body: string }[] = [];
  let receiver: http.Server;

  const correction = (bib: string, name: string): ResultCorrection => ({
    id: crypto.randomUUID(),
    raceId: RACE,
    atMs: Date.now(),
    kind: 'added',
    bib,
    name,
    point: { name: 'Finish', nameFr: 'Arrivée' },
    timeMs: GUN + 2_400_000,
    status: null,
    count: null,
    reason: 'Mat missed the read',
  });

  beforeAll(async () => {
    database = await memoryDatabase();
    const config = testConfig({ SEED_DEMO: 'false', WEBHOOK_ALLOW_PRIVATE: 'true' });
    app = await buildApp(config, { database, logger: false });
    await database.query(`INSERT INTO organisations (id, slug, name) VALUES ($1, 'privacy-feeds', 'Feeds')`, [
      ORG,
    ]);
    await database.query(
      `INSERT INTO events (id, organisation_id, name, start_date, end_date, status, visibility)
       VALUES ($1, $2, 'Feeds Run', current_date, current_date, 'live', 'public')`,
      [EVENT, ORG],
    );
    await database.query('INSERT INTO export_settings (event_id, spectator_exports) VALUES ($1, true)', [
      EVENT,
    ]);
    await insertContext(database, { db: DB, eventId: EVENT, name: '10 km' });
    await database.transaction(async (sql) => {
      await createRace(sql, DB, {
        id: RACE,
        name: '10 km',
        date: new Date(GUN).toISOString().slice(0, 10),
        distanceM: 10_000,
        startType: 'mass',
        gunTimeMs: GUN,
        points: [{ key: 'finish', name: 'Finish', nameFr: 'Arrivée', distanceM: 10_000 }],
      });
      await addParticipants(sql, RACE, [
        { bib: '7', firstName: 'Léa', lastName: 'Zanzibarova', gender: 'F', age: 31, status: 'registered' },
        { bib: '8', firstName: 'Hugo', lastName: 'Roux', gender: 'M', age: 45, status: 'registered' },
      ]);
    });
    await insertDevice(database, { db: DB, name: 'finish', keyHash: hashKey(KEY), pointKey: 'finish' });
    runner = await createTestUser(app);
    owner = await createTestUser(app, { memberships: [{ organisationId: ORG, role: 'owner' }] });
    [{ id: participantId }] = (await database.query<{ id: string }>(
      `UPDATE participants SET account_id = $1 WHERE race_id = $2 AND bib = '7' RETURNING id`,
      [runner.sub, RACE],
    )) as [{ id: string }];
    // A correction recorded while the name was shown (the desk names runners as the state did).
    await database.transaction((sql) => recordCorrections(sql, [correction('7', 'Léa Zanzibarova')]));
    await app.results.reload(DB);

    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c;
      });
      req.on('end', () => {
        hooks.push({ body });
        res.writeHead(200);
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hook = await app.inject({
      method: 'POST',
      url: `/api/webhooks/events/${EVENT}`,
      headers: { authorization: owner.authorization },
      payload: {
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        types: ['runner.finished', 'results.corrected', 'passing.stored'],
      },
    });
    expect(hook.statusCode).toBe(201);

    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    client = pusherClient({ app, port, config, close: () => app.close() });
    client.connection.bind('message', (message: { event: string; channel?: string; data?: unknown }) => {
      if (message.channel) frames.push(JSON.stringify(message));
    });
    for (const channel of [
      liveChannels.all(DB),
      liveChannels.passings(DB),
      liveChannels.runner(DB, '7'),
      liveChannels.runner(DB, '8'),
    ])
      await subscribed(client, channel);
  }, 120_000);
  afterAll(async () => {
    client?.disconnect();
    await app?.close();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
    await database?.close();
  });

  /** Whether a text names the hidden runner (tables write last names in capitals). */
  const named = (text: string) => text.toUpperCase().includes('ZANZIBAROVA');

  it('before hiding: the correction names the runner (what must not stay)', async () => {
    const feed = await app.inject(`/api/feeds/${DB}/races/${RACE}/corrections`);
    expect(feed.statusCode).toBe(200);
    expect(named(feed.body)).toBe(true);
  });

  it('after hiding: no frame, webhook, feed, card or event page names the runner', async () => {
    const hide = await app.inject({
      method: 'PUT',
      url: `/api/me/results/${participantId}/privacy`,
      headers: { authorization: runner.authorization },
      payload: { hidden: true },
    });
    expect(hide.statusCode).toBe(204);
    const before = frames.length;
    const ingest = await app.inject({
      method: 'POST',
      url: '/api/ingest/passings',
      headers: { 'x-device-key': KEY, 'content-type': 'application/json' },
      payload: JSON.stringify({
        passings: [
          { bib: '7', time: GUN + 2_400_000 },
          { bib: '8', time: GUN + 2_460_000 },
        ],
      }),
    });
    expect(ingest.statusCode).toBe(200);
    // A correction announced with the name a stale note carried: the webhook names the runner as
    // the state does now.
    await app.results.announceCorrections(DB, [correction('7', 'Léa Zanzibarova')]);

    // The other runner's finish reaches the frames and the webhooks: both carry names.
    await eventually(() => frames.slice(before).some((f) => f.toUpperCase().includes('ROUX')), 15_000);
    await eventually(
      () =>
        hooks.filter((h) => h.body.includes('"runner.finished"')).length >= 2 &&
        hooks.some((h) => h.body.includes('"results.corrected"')),
      15_000,
    );
    const fresh = frames.slice(before);
    // Frames about the runner came (their row, their passing), each without the name.
    expect(fresh.some((f) => f.includes('Hidden runner'))).toBe(true);
    expect(fresh.some((f) => f.includes('-runner-7'))).toBe(true);
    expect(fresh.filter(named)).toEqual([]);
    const finished = hooks
      .filter((h) => h.body.includes('"runner.finished"'))
      .map((h) => JSON.parse(h.body) as { data: { bib: string; firstName: string; lastName: string } });
    expect(finished.find((h) => h.data.bib === '8')!.data.lastName).toBe('Roux');
    expect(finished.find((h) => h.data.bib === '7')!.data.firstName).toBe('Hidden runner');
    const corrected = hooks.find((h) => h.body.includes('"results.corrected"'))!;
    expect(JSON.parse(corrected.body)).toMatchObject({ data: { bib: '7', name: 'Hidden runner' } });
    expect(hooks.filter((h) => named(h.body))).toEqual([]);

    // The corrections feed (its sentences in both languages), the card and the event page.
    const feed = await app.inject(`/api/feeds/${DB}/races/${RACE}/corrections`);
    expect(feed.statusCode).toBe(200);
    expect(named(feed.body)).toBe(false);
    const [entry] = feed.json() as { name: string; text: string; textFr: string }[];
    expect(entry!.name).toBe('Hidden runner');
    expect(entry!.text).toContain('Hidden runner');
    expect(entry!.textFr).toContain('Coureur masqué');
    const [{ key }] = (await database.query<{ key: string }>(
      'SELECT tracking_key AS key FROM participants WHERE id = $1',
      [participantId],
    )) as [{ key: string }];
    const card = await app.inject(`/api/tracking/${key}`);
    expect(card.statusCode).toBe(200);
    expect(named(card.body)).toBe(false);
    const page = await app.inject(`/api/events/${EVENT}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Mat missed the read');
    expect(named(page.body)).toBe(false);
  });

  it('shown again: the correction names the runner again', async () => {
    const show = await app.inject({
      method: 'PUT',
      url: `/api/me/results/${participantId}/privacy`,
      headers: { authorization: runner.authorization },
      payload: { hidden: false },
    });
    expect(show.statusCode).toBe(204);
    expect(named((await app.inject(`/api/feeds/${DB}/races/${RACE}/corrections`)).body)).toBe(true);
    expect(named((await app.inject(`/api/events/${EVENT}`)).body)).toBe(true);
  });
});
