import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { liveChannels, unbundleResults } from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, testConfig } from '../../test/helpers.ts';
import { createTestUser } from '../../test/identity-helpers.ts';
import { buildApp } from '../app.ts';
import { DEMO_ORG_ID } from '../seed/demo.ts';
import { DEMO_DB } from '../seed/demo-races.ts';
import { eventually, pusherClient, subscribed } from './test-harness.ts';

/**
 * Issue 42: no frame of a draft reaches a spectator. An anonymous pusher-js client subscribes to
 * every channel kind of a context's live views (contracts/live-channels.ts) and to the event's
 * photos; a timekeeper enters passings at the desk. Public: frames arrive (the test can hear).
 * Draft: nothing arrives, on subscriptions made before and after. Published again: the same
 * subscriptions hear again. On one node, and on two nodes sharing PostgreSQL and Redis (the
 * passing entered on either node, the client on the other).
 */
const EVENT = 'demo-city-run';
const GROUP = 'city-10k';
const redisUrl = process.env.TEST_REDIS_URL;
const postgres = backends().find((b) => b.name === 'postgres');

/** Every channel kind of the context, for a runner `bib` (issue 28's table). */
function channelsOf(bib: string): string[] {
  return [
    liveChannels.all(DEMO_DB),
    liveChannels.report(DEMO_DB, GROUP, 'LIVE1'),
    liveChannels.reportTop(DEMO_DB, GROUP, 'LIVE1'),
    liveChannels.reportWindow(DEMO_DB, GROUP, 'LIVE1', 1),
    liveChannels.report(DEMO_DB, GROUP, 'LAST'),
    liveChannels.runner(DEMO_DB, bib),
    liveChannels.passings(DEMO_DB),
    liveChannels.changes(DEMO_DB),
    `photos-${EVENT}`,
  ];
}

interface Setup {
  /** The node a spectator's sockets are on, and the nodes passings are entered on. */
  listener: FastifyInstance;
  writers: FastifyInstance[];
  close(): Promise<void>;
}

function scenario(name: string, make: () => Promise<Setup>) {
  describe(name, () => {
    let setup: Setup;
    let client: Pusher;
    let owner: string;
    let timekeeper: string;
    let gun: number;
    const frames: { channel: string; event: string; data: unknown }[] = [];
    let nextBib = 600;

    beforeAll(async () => {
      setup = await make();
      const { listener } = setup;
      owner = (
        await createTestUser(listener, { memberships: [{ organisationId: DEMO_ORG_ID, role: 'owner' }] })
      ).authorization;
      timekeeper = (
        await createTestUser(listener, { memberships: [{ organisationId: DEMO_ORG_ID, role: 'timekeeper' }] })
      ).authorization;
      const [row] = await listener.database.query<{ gun: number }>(
        "SELECT gun_time_ms::float8 AS gun FROM races WHERE id = 'city-10k'",
      );
      gun = row!.gun;
      await listener.listen({ port: 0, host: '127.0.0.1' });
      const port = (listener.server.address() as AddressInfo).port;
      client = pusherClient({ app: listener, port, config: listener.config, close: async () => {} });
    }, 120_000);
    afterAll(async () => {
      client?.disconnect();
      await setup?.close();
    });

    const subscribeAll = async (bib: string) => {
      for (const channel of channelsOf(bib)) {
        if (client.channel(channel)?.subscribed) continue;
        const { channel: bound } = await subscribed(client, channel);
        bound.bind_global((event: string, data: unknown) => {
          if (!event.startsWith('pusher')) frames.push({ channel, event, data });
        });
      }
    };
    /** A passing of `bib` at the finish, entered at the desk of `node`. */
    const enter = async (node: FastifyInstance, bib: string) => {
      const res = await node.inject({
        method: 'POST',
        url: `/api/raceday/contexts/${DEMO_DB}/manual`,
        headers: { authorization: timekeeper, 'content-type': 'application/json' },
        payload: JSON.stringify({
          entries: [
            { clientId: `draft-${randomUUID()}`, bib, pointKey: 'finish', timeMs: gun + 40 * 60_000 },
          ],
        }),
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const setVisibility = async (visibility: 'draft' | 'public') => {
      const res = await setup.writers[0]!.inject({
        method: 'PATCH',
        url: `/api/console/events/${EVENT}`,
        headers: { authorization: owner, 'content-type': 'application/json' },
        payload: JSON.stringify({ visibility }),
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    it('hears a public event’s passing on its channels (the test can hear)', async () => {
      const bib = String(nextBib++);
      await subscribeAll(bib);
      await enter(setup.writers[0]!, bib);
      await eventually(() => frames.some((f) => f.channel === liveChannels.runner(DEMO_DB, bib)));
      await eventually(() => frames.some((f) => f.channel === liveChannels.passings(DEMO_DB)));
    }, 60_000);

    it('hears nothing of a draft, on subscriptions kept from before and made during it', async () => {
      await setVisibility('draft');
      await sleep(300);
      frames.length = 0;
      for (const writer of setup.writers) {
        const bib = String(nextBib++);
        // Subscriptions made while it is a draft succeed, as for a context that does not exist.
        await subscribeAll(bib);
        await enter(writer, bib);
      }
      // Well past the publication interval and the bus.
      await sleep(1_500);
      expect(frames).toEqual([]);
    }, 60_000);

    it('hears again once the event is published', async () => {
      await setVisibility('public');
      const bib = String(nextBib++);
      await subscribeAll(bib);
      await enter(setup.writers.at(-1)!, bib);
      await eventually(() => frames.some((f) => f.channel === liveChannels.runner(DEMO_DB, bib)));
    }, 60_000);

    it('carries no patch of a hidden report, on its own channel or the firehose', async () => {
      const res = await setup.writers[0]!.inject({
        method: 'POST',
        url: `/api/console/races/${GROUP}/reports/visibility`,
        headers: { authorization: owner, 'content-type': 'application/json' },
        payload: JSON.stringify({ keys: ['LAST'], hidden: true }),
      });
      expect(res.statusCode, res.body).toBe(200);
      await sleep(300);
      frames.length = 0;
      const bib = String(nextBib++);
      await enter(setup.writers.at(-1)!, bib);
      const live1 = liveChannels.report(DEMO_DB, GROUP, 'LIVE1');
      await eventually(() => frames.some((f) => f.channel === live1));
      await sleep(500);
      expect(frames.filter((f) => f.channel === liveChannels.report(DEMO_DB, GROUP, 'LAST'))).toEqual([]);
      const firehose = frames.filter((f) => f.channel === liveChannels.all(DEMO_DB));
      expect(firehose.length).toBeGreaterThan(0);
      const reports = firehose.flatMap((f) =>
        unbundleResults(f.data)
          .filter(([kind]) => kind === 'report-patch')
          .map(([, p]) => (p as { report: string }).report),
      );
      expect(reports).toContain('LIVE1');
      expect(reports).not.toContain('LAST');
    }, 60_000);
  });
}

const base = { DEMO_REPLAY: 'false', SEED_BOSTON: 'false', RESULTS_PUBLISH_MS: '50' };

scenario('a draft’s channels on one node', async () => {
  const fresh = await backends()[0]!.fresh();
  const database = await fresh.open();
  const app = await buildApp(testConfig(base), { database, logger: false });
  return {
    listener: app,
    writers: [app],
    close: async () => {
      await app.close();
      await database.close();
      await fresh.drop();
    },
  };
});

describe.skipIf(!redisUrl || !postgres)('with two nodes (PostgreSQL + Redis)', () => {
  scenario('a draft’s channels on two nodes', async () => {
    const fresh = await postgres!.fresh();
    const prefix = `tempora-test:${randomUUID()}:`;
    const config = testConfig({
      ...base,
      REDIS_URL: redisUrl!,
      REALTIME_REDIS_PREFIX: `${prefix}rt:`,
      RESULTS_LEASE_REDIS_PREFIX: `${prefix}lease:`,
      RESULTS_LEASE_MS: '1000',
    });
    const databases = [await fresh.open(), await fresh.open()];
    const a = await buildApp(config, { database: databases[0], logger: false });
    const b = await buildApp(config, { database: databases[1], logger: false });
    return {
      listener: b,
      // The draft is made on node A; passings are entered on A, then on B.
      writers: [a, b],
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
  });
});
