import type { AddressInfo } from 'node:net';
import PusherServer from 'pusher';
import { afterAll, describe, expect, it } from 'vitest';
import { migratedMemoryDatabase, testConfig } from '../../test/helpers.ts';
import { buildApp } from '../app.ts';
import { KNOWN_SECRETS } from '../config/config.ts';
import type { Database } from './database.ts';

/**
 * Issue 42: no install runs with a publicly known secret. Without REALTIME_SECRET the server makes
 * its own on first start (32 random bytes, in the database: every node on one PostgreSQL and every
 * restart read the same), and the Pusher HTTP API refuses a request signed with the published
 * default while it accepts one signed with the install's secret.
 */
const config = () => testConfig({ DEMO_REPLAY: 'false', SEED_BOSTON: 'false' });
const closing: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closing.reverse()) await close();
});

async function start(database: Database, overrides: Record<string, string> = {}) {
  const app = await buildApp({ ...config(), ...overrides } as ReturnType<typeof config>, {
    database,
    logger: false,
  });
  closing.push(() => app.close());
  return app;
}

describe('per-install secrets (issue 42)', () => {
  it('makes the realtime secret on first start, keeps it, and never uses a known one', async () => {
    const database = await migratedMemoryDatabase();
    closing.push(() => database.close());
    const first = await start(database);
    const secret = first.config.REALTIME_SECRET;
    expect(secret).toMatch(/^[\w-]{43}$/);
    expect(Object.values(KNOWN_SECRETS).flat()).not.toContain(secret);
    const [row] = await database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM signing_secrets WHERE name = 'realtime'",
    );
    expect(row?.n).toBe(1);
    // A second node (or a restart) on the same database signs alike.
    expect((await start(database)).config.REALTIME_SECRET).toBe(secret);
    // Another install has another secret.
    const other = await migratedMemoryDatabase();
    closing.push(() => other.close());
    expect((await start(other)).config.REALTIME_SECRET).not.toBe(secret);
    // The environment's wins.
    const given = await start(database, { REALTIME_SECRET: 'an operator secret' });
    expect(given.config.REALTIME_SECRET).toBe('an operator secret');
  });

  it('refuses the Pusher HTTP API signed with the published default secret', async () => {
    const database = await migratedMemoryDatabase();
    closing.push(() => database.close());
    const app = await start(database);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = String((app.server.address() as AddressInfo).port);
    const sdk = (secret: string) =>
      new PusherServer({
        appId: app.config.REALTIME_APP_ID,
        key: app.config.REALTIME_KEY,
        secret,
        host: '127.0.0.1',
        port,
        useTLS: false,
      });
    const status = (secret: string) =>
      sdk(secret)
        .get({ path: '/channels' })
        .then(
          (res) => res.status,
          (error: { status?: number }) => error.status ?? 0,
        );
    for (const known of Object.values(KNOWN_SECRETS).flat()) expect(await status(known)).toBe(401);
    expect(await status(app.config.REALTIME_SECRET)).toBe(200);
  });
});
