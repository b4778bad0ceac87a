import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, buildTestApp, testConfig } from '../../../test/helpers.ts';
import { createTestUser, type TestUser } from '../../../test/identity-helpers.ts';
import { buildApp } from '../../app.ts';
import type { Database, Sql } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { organisers } from '../content/test-helpers.ts';
import { coalesced } from './service/sweep.ts';
import { createEntriesService } from './service.ts';
import { EVENT, MARATHON, registrationSettings, runner, TEN_K } from './test-helpers.ts';

/**
 * The registration rush (issue 38): orders arriving together are held in batches, in order of
 * arrival (each order all its units or none), never past a stock; refused runners of a full race
 * share one read of the counts. Through the entries service on the real database, its statements
 * counted.
 */
describe('the registration rush', () => {
  let app: FastifyInstance;
  let service: ReturnType<typeof createEntriesService>;
  const statements: string[] = [];
  /** Called with each statement noted, as it is sent (a test's probe). */
  let onStatement: ((text: string) => void) | undefined;
  const runners: TestUser[] = [];

  beforeAll(async () => {
    app = await buildTestApp();
    const { a: staff } = await organisers(app);
    const res = await app.inject({
      method: 'PUT',
      url: `/api/entries/staff/events/${EVENT}/settings`,
      headers: staff,
      payload: registrationSettings({ places: 3, shirts: 1, uses: 1 }),
    });
    expect(res.statusCode).toBe(200);
    for (let k = 0; k < 24; k++)
      runners.push(await createTestUser(app, { email: `rush${k}@example.test`, profileComplete: true }));
    // The same database, each statement noted (in and out of transactions).
    const note = (sql: Sql): Sql => ({
      query: (text, params) => {
        statements.push(text);
        onStatement?.(text);
        return sql.query(text, params);
      },
      exec: (text) => sql.exec(text),
    });
    const counted: Database = {
      ...app.database,
      ...note(app.database),
      transaction: (fn) => app.database.transaction((sql) => fn(note(sql))),
      procedure: (p, args) => app.database.transaction((sql) => p.run(note(sql), args())),
    };
    service = createEntriesService({
      database: counted,
      outbox: app.outbox,
      results: app.results,
      payments: app.payments,
      publicUrl: undefined,
    });
  });
  afterAll(async () => {
    await app.close();
  });

  const order = (k: number, extra: Record<string, unknown> = {}, family = 1) =>
    service.enter.placeOrder(runners[k]!, EVENT, {
      lang: 'en',
      runners: Array.from({ length: family }, (_, n) => runner(k * 10 + n, extra)),
    } as never);
  const counts = async (raceId: string) =>
    (
      await app.database.query<{ taken: number; held: number; entries: number; orders: number }>(
        `SELECT (SELECT taken FROM registration_races WHERE race_id = $1) AS taken,
                (SELECT held FROM registration_races WHERE race_id = $1) AS held,
                (SELECT count(*) FROM registration_entries WHERE race_id = $1)::int AS entries,
                (SELECT count(*) FROM orders WHERE registration)::int AS orders`,
        [raceId],
      )
    )[0]!;
  const codeOf = (r: PromiseSettledResult<unknown>) =>
    r.status === 'fulfilled' ? 'held' : r.reason instanceof AppError ? r.reason.code : String(r.reason);

  it('N orders at once for M < N places: exactly M held, the first M to arrive', async () => {
    const before = await counts(TEN_K);
    const out = await Promise.allSettled(Array.from({ length: 8 }, (_, k) => order(k)));
    expect(out.map(codeOf)).toEqual(['held', 'held', 'held', ...Array(5).fill('RACE_FULL')]);
    const after = await counts(TEN_K);
    expect(after).toMatchObject({ held: 3, taken: 0, entries: 3, orders: before.orders + 3 });
    // Each refusal names its field.
    const refused = (out[3] as PromiseRejectedResult).reason as AppError;
    expect(refused.status).toBe(409);
    expect(refused.errors).toEqual([{ field: 'runners.0.raceId', message: 'RACE_FULL' }]);
  });

  it('orders arriving together are written in batches: one INSERT of orders per batch, not per order', async () => {
    statements.length = 0;
    const out = await Promise.allSettled(
      Array.from({ length: 12 }, (_, k) => order(k, { raceId: MARATHON })),
    );
    expect(out.every((r) => r.status === 'fulfilled')).toBe(true);
    const inserts = statements.filter((s) => /^\s*INSERT INTO orders/.test(s)).length;
    // The first order goes at once; the eleven that arrive meanwhile go in one batch.
    expect(inserts).toBeLessThanOrEqual(2);
    expect(await counts(MARATHON)).toMatchObject({ held: 12, entries: 12 });
    // Each order has its own entry and structured communication; ids follow the order of arrival.
    const ids = out.map((r) => Number((r as PromiseFulfilledResult<{ orderId: string }>).value.orderId));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const [{ n }] = (await app.database.query<{ n: number }>(
      `SELECT count(DISTINCT structured)::int AS n FROM orders WHERE id = ANY($1::bigint[])`,
      [ids],
    )) as [{ n: number }];
    expect(n).toBe(12);
  });

  it('pay steps start once the orders waiting for their batch are held, four at a time', async () => {
    statements.length = 0;
    const entryInserts = () =>
      statements.filter((t) => /^\s*INSERT INTO registration_entries/.test(t)).length;
    const started: number[] = [];
    const releases: (() => void)[] = [];
    let asked: Promise<void>[] = [];
    // Five pay steps asked while the first batch of six orders is in the database.
    onStatement = (text) => {
      if (!/^\s*INSERT INTO orders/.test(text) || asked.length) return;
      asked = Array.from({ length: 5 }, () =>
        service.enter.payTurn().then((release) => {
          started.push(entryInserts());
          releases.push(release);
        }),
      );
    };
    const orders = await Promise.allSettled(
      Array.from({ length: 6 }, (_, k) => order(12 + k, { raceId: MARATHON })),
    );
    onStatement = undefined;
    expect(orders.every((r) => r.status === 'fulfilled')).toBe(true);
    for (let k = 0; k < 10 && started.length < 4; k++) await new Promise((r) => setTimeout(r, 20));
    expect(asked).toHaveLength(5);
    // Each started after every batch (no entry inserted after a pay step began), four at once.
    expect(started).toEqual([entryInserts(), entryInserts(), entryInserts(), entryInserts()]);
    releases[0]!();
    releases[0]!(); // a second call changes nothing
    await Promise.all(asked);
    expect(started).toHaveLength(5);
    for (const release of releases) release();
  });

  it('a batch gives each stock to the first order that fits; an order gets all its units or none', async () => {
    const before = await counts(MARATHON);
    const [shirts, codes] = await Promise.all([
      app.database.query<{ held: number }>(`SELECT held FROM registration_addons WHERE key = 'tshirt-m'`),
      app.database.query<{ held: number }>(`SELECT held FROM registration_codes WHERE code = 'EARLY20'`),
    ]);
    expect([shirts[0]!.held, codes[0]!.held]).toEqual([0, 0]);
    const shirt = { addOns: [{ key: 'tshirt-m', quantity: 1 }] };
    const out = await Promise.allSettled([
      order(12, { raceId: MARATHON, ...shirt, discountCode: 'EARLY20' }),
      order(13, { raceId: MARATHON, ...shirt }),
      order(14, { raceId: MARATHON, discountCode: 'EARLY20' }),
      order(15, { raceId: MARATHON }, 2),
    ]);
    expect(out.map(codeOf)).toEqual(['held', 'ADDON_SOLD_OUT', 'CODE_USED_UP', 'held']);
    expect(((out[1] as PromiseRejectedResult).reason as AppError).errors).toEqual([
      { field: 'runners.0.addOns', message: 'ADDON_SOLD_OUT' },
    ]);
    expect(await counts(MARATHON)).toMatchObject({
      held: before.held + 3,
      entries: before.entries + 3,
      orders: before.orders + 2,
    });
    const [after] = await app.database.query<{ shirts: number; uses: number }>(
      `SELECT (SELECT held FROM registration_addons WHERE key = 'tshirt-m') AS shirts,
              (SELECT held FROM registration_codes WHERE code = 'EARLY20') AS uses`,
    );
    expect(after).toEqual({ shirts: 1, uses: 1 });
  });

  it('runners refused by a full race share one fresh read of the counts, and nothing is written', async () => {
    // The counts read before they arrive say the race is full: each refusal is checked against
    // counts read after its arrival, one statement for all of them (was: the event's rules read
    // again, five statements, per runner).
    statements.length = 0;
    const before = await counts(TEN_K);
    const out = await Promise.allSettled(Array.from({ length: 16 }, (_, k) => order(k + 8)));
    expect(out.map(codeOf)).toEqual(Array(16).fill('RACE_FULL'));
    const rulesReads = statements.filter((s) => /FROM registration_waivers/.test(s)).length;
    const recounts = statements.filter((s) => /UNION ALL SELECT 'addOn'/.test(s)).length;
    expect(rulesReads).toBeLessThanOrEqual(1);
    expect(recounts).toBeLessThanOrEqual(2);
    expect(statements.some((s) => /^\s*(INSERT|UPDATE)/.test(s))).toBe(false);
    expect(await counts(TEN_K)).toEqual(before);
  });

  it('a place freed after the counts were read is offered to the next runner', async () => {
    // A hold given back (as an expiry does) while the counts in hand still say full.
    await app.database.query(`UPDATE registration_races SET held = held - 1 WHERE race_id = $1`, [TEN_K]);
    await expect(order(20)).resolves.toMatchObject({ state: 'awaiting_payment' });
    await expect(order(21)).rejects.toMatchObject({ code: 'RACE_FULL' });
    expect(await counts(TEN_K)).toMatchObject({ held: 3 });
  });

  it('a confirmation and its mark are stored together: a failed store mails it later, two passes mail it once', async () => {
    // Entries of the marathon (100 places), confirmed as a payment would (the mails' concern only).
    const orders = [];
    for (let k = 0; k < 3; k++) orders.push(await order(k, { raceId: MARATHON }));
    const ids = orders.map((o) => (o as { orderId: string }).orderId);
    await app.database.query(
      `UPDATE registration_entries SET state = 'confirmed' WHERE order_id = ANY($1::bigint[])`,
      [ids],
    );
    const codes = orders.flatMap((o) => (o as { entries: { code: string }[] }).entries.map((e) => e.code));
    const mailed = async () =>
      (
        await app.database.query<{ n: number; marked: number }>(
          `SELECT (SELECT count(*) FROM outbox WHERE text_body LIKE ANY($1::text[]))::int AS n,
                  (SELECT count(*) FROM registration_entries WHERE code = ANY($2::text[]) AND mailed_at IS NOT NULL)::int AS marked`,
          [codes.map((c) => `%${c}%`), codes],
        )
      )[0]!;
    // The outbox fails to store (the process stops, the database refuses): nothing is marked.
    const failing = createEntriesService({
      database: app.database,
      outbox: {
        ...app.outbox,
        send: async () => {
          throw new Error('stopped');
        },
        storeMany: async () => {
          throw new Error('stopped');
        },
      },
      results: app.results,
      payments: app.payments,
      publicUrl: undefined,
    });
    await expect(failing.sweep.afterPaid(ids[0]!)).rejects.toThrow('stopped');
    expect(await mailed()).toEqual({ n: 0, marked: 0 });
    // Two passes at once (a webhook's and the sweep's, or two nodes): each mail once.
    const other = createEntriesService({
      database: app.database,
      outbox: app.outbox,
      results: app.results,
      payments: app.payments,
      publicUrl: undefined,
    });
    await Promise.all([service.sweep.afterPaid(ids[0]!), other.sweep.run()]);
    expect(await mailed()).toEqual({ n: 3, marked: 3 });
    await service.sweep.afterPaid(ids[1]!);
    expect(await mailed()).toEqual({ n: 3, marked: 3 });
  });

  it('calls made during a pass after payments share the next pass, which begins after them', async () => {
    const runs: number[] = [];
    let release: () => void = () => {};
    const pass = coalesced(async () => {
      runs.push(runs.length);
      if (runs.length === 1) await new Promise<void>((r) => (release = r));
    });
    const first = pass();
    const during = [pass(), pass(), pass()];
    await Promise.resolve();
    expect(runs).toEqual([0]);
    release();
    await Promise.all([first, ...during]);
    expect(runs).toEqual([0, 1]);
  });
});

/**
 * Two nodes on PostgreSQL (when TEST_DATABASE_URL is set): each its own pool and entries service
 * on one database, orders sent to both at once for fewer places than orders — never both take
 * the last unit (the batches' row locks and conditional UPDATEs).
 */
const postgres = backends().find((b) => b.name === 'postgres');
describe.skipIf(!postgres)('the registration rush on PostgreSQL, two nodes', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('24 orders at once through two nodes for 3 places and a T-shirt of 1: 3 held, 1 T-shirt, nothing oversold', async () => {
    const fresh = await postgres!.fresh();
    cleanups.push(fresh.drop);
    const dbA = await fresh.open();
    const app = await buildApp(testConfig(), { database: dbA, logger: false });
    cleanups.push(async () => {
      await app.close();
      await dbA.close();
    });
    const dbB = await fresh.open();
    cleanups.push(() => dbB.close());
    const { a: staff } = await organisers(app);
    const res = await app.inject({
      method: 'PUT',
      url: `/api/entries/staff/events/${EVENT}/settings`,
      headers: staff,
      payload: registrationSettings({ places: 3, shirts: 1, uses: 1 }),
    });
    expect(res.statusCode).toBe(200);
    const users: TestUser[] = [];
    for (let k = 0; k < 24; k++)
      users.push(await createTestUser(app, { email: `two${k}@example.test`, profileComplete: true }));
    const node = (database: Database) =>
      createEntriesService({
        database,
        outbox: app.outbox,
        results: app.results,
        payments: app.payments,
        publicUrl: undefined,
      });
    const nodes = [node(dbA), node(dbB)];
    const out = await Promise.allSettled(
      users.map((u, k) =>
        nodes[k % 2]!.enter.placeOrder(u, EVENT, {
          lang: 'en',
          runners: [runner(100 + k, k % 3 ? {} : { addOns: [{ key: 'tshirt-m', quantity: 1 }] })],
        } as never),
      ),
    );
    const held = out.filter((r) => r.status === 'fulfilled').length;
    expect(held).toBe(3);
    for (const r of out)
      if (r.status === 'rejected')
        expect(['RACE_FULL', 'ADDON_SOLD_OUT']).toContain((r.reason as AppError).code);
    const [row] = await dbA.query<{ held: number; shirts: number; entries: number; orders: number }>(
      `SELECT (SELECT held FROM registration_races WHERE race_id = $1) AS held,
              (SELECT held FROM registration_addons WHERE key = 'tshirt-m') AS shirts,
              (SELECT count(*) FROM registration_entries WHERE race_id = $1)::int AS entries,
              (SELECT count(*) FROM orders WHERE registration)::int AS orders`,
      [TEN_K],
    );
    expect(row).toEqual({ held: 3, shirts: expect.any(Number), entries: 3, orders: 3 });
    expect(row!.shirts).toBeLessThanOrEqual(1);
  });
});
