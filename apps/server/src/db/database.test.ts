import { count } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { type Backend, backends, memoryDatabase } from '../../test/helpers.ts';
import { seedDemo } from '../seed/demo.ts';
import { openDatabase } from './database.ts';
import { migrate } from './migrate.ts';
import type { Procedure } from './procedure.ts';
import { events } from './schema/index.ts';
import { inBackground } from './turns.ts';

/** PGlite on a thread of its own (`PGLITE_THREAD=worker`, pglite-thread.ts). */
const pgliteThread: Backend = {
  name: 'pglite',
  async fresh() {
    const [pglite] = backends();
    const made = await pglite!.fresh();
    return { ...made, open: () => openDatabase({ dataDir: made.dataDir, thread: 'worker' }) };
  },
};

// The same suite on PGlite (on the caller's thread and on its own) and, when TEST_DATABASE_URL
// is set (CI), on real PostgreSQL.
describe.each([
  ...backends().map((b) => [b.name, b] as const),
  ['PGlite on its own thread', pgliteThread] as const,
])('database on %s', (_name, backend) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });
  /** A fresh database of this backend, migrated, closed and dropped after the suite. */
  const migrated = async () => {
    const fresh = await backend.fresh();
    cleanups.push(fresh.drop);
    const database = await fresh.open();
    cleanups.push(() => database.close());
    await migrate(database);
    return database;
  };

  it('applies migrations once, and a second run applies nothing', async () => {
    const fresh = await backend.fresh();
    cleanups.push(fresh.drop);
    const database = await fresh.open();
    cleanups.push(() => database.close());
    const first = await migrate(database);
    expect(first).toContain('0000_core.sql');
    expect(await migrate(database)).toEqual([]);
  });

  it('keeps data across a restart and seeds the demo only into an empty database', async () => {
    const fresh = await backend.fresh();
    cleanups.push(fresh.drop);
    const first = await fresh.open();
    await migrate(first);
    expect(await seedDemo(first)).toBe(true);
    expect(await seedDemo(first)).toBe(false);
    await first.close();

    const second = await fresh.open();
    cleanups.push(() => second.close());
    expect(await migrate(second)).toEqual([]);
    const [row] = await second.db.select({ n: count() }).from(events);
    expect(row?.n).toBe(1);
    expect(await seedDemo(second)).toBe(false);
  });

  it('rolls a failed transaction back entirely', async () => {
    const database = await migrated();
    await expect(
      database.transaction(async (sql) => {
        await sql.query(`INSERT INTO organisations (slug, name) VALUES ('a', 'A')`);
        await sql.query(`INSERT INTO organisations (slug, name) VALUES ('a', 'duplicate slug')`);
      }),
    ).rejects.toThrow();
    const rows = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM organisations');
    expect(rows[0]?.n).toBe(0);
  });

  it('runs a procedure in one transaction: plain data in and out, rolled back entirely when it throws', async () => {
    const database = await migrated();
    // Run where the database runs (with PGlite on its thread, there: registered in src/procedures.ts).
    const { procedures } = await import('../procedures.ts');
    const hold = procedures.get('entries.holdBatch');
    expect(hold).toBeDefined();
    // An unregistered procedure runs in the caller's transaction on PGlite's main thread and on
    // PostgreSQL; on the database's thread it is refused by name, and nothing is written.
    const slugs: Procedure<{ slugs: string[]; at: Date }, { made: number; at: Date }> = {
      name: 'test.slugs',
      async run(sql, args) {
        for (const slug of args.slugs)
          await sql.query('INSERT INTO organisations (slug, name) VALUES ($1, $1)', [slug]);
        return { made: args.slugs.length, at: args.at };
      },
    };
    const at = new Date('2026-12-05T10:00:00Z');
    let asked = 0;
    const outcome = database
      .procedure(slugs, () => {
        asked++;
        return { slugs: ['p1', 'p2'], at };
      })
      .then(
        (r) => ({ ok: r }),
        (error: Error) => ({ error: error.message }),
      );
    const result = await outcome;
    expect(asked).toBe(1);
    const count = async () =>
      (await database.query<{ n: number }>('SELECT count(*)::int AS n FROM organisations'))[0]?.n;
    if ('ok' in result) {
      expect(result.ok).toEqual({ made: 2, at });
      expect(await count()).toBe(2);
    } else {
      expect(result.error).toMatch(/No procedure 'test.slugs'/);
      expect(await count()).toBe(0);
    }
    // A procedure that fails half-way leaves nothing (a duplicate slug after a new one).
    const before = await count();
    const failing: Procedure<string[], number> = {
      name: slugs.name,
      run: (sql, s) => slugs.run(sql, { slugs: s, at }).then((r) => r.made),
    };
    await expect(database.procedure(failing, () => ['p3', 'p3'])).rejects.toThrow();
    expect(await count()).toBe(before);
  });

  it('answers with PostgreSQL error fields a caller reads (code, constraint)', async () => {
    const database = await migrated();
    await database.query(`INSERT INTO organisations (slug, name) VALUES ('dup', 'A')`);
    const error = await database.query(`INSERT INTO organisations (slug, name) VALUES ('dup', 'B')`).then(
      () => null,
      (e: { code?: string; constraint?: string }) => e,
    );
    expect(error?.code).toBe('23505');
    expect(error?.constraint).toMatch(/slug/);
    // Typed values come back typed: a timestamp as a Date, JSON as an object, a bigint as text.
    const [row] = await database.query<{ at: Date; doc: { a: number[] }; big: string }>(
      `SELECT '2026-12-05T10:00:00Z'::timestamptz AS at, '{"a":[1,2]}'::jsonb AS doc, 9007199254740993::bigint::text AS big`,
    );
    expect(row?.at).toBeInstanceOf(Date);
    expect(row?.at.toISOString()).toBe('2026-12-05T10:00:00.000Z');
    expect(row?.doc).toEqual({ a: [1, 2] });
    expect(row?.big).toBe('9007199254740993');
  });

  it.runIf(backend.name === 'postgres')('migrates safely from several nodes at once', async () => {
    const fresh = await backend.fresh();
    cleanups.push(fresh.drop);
    const nodes = await Promise.all([fresh.open(), fresh.open(), fresh.open()]);
    cleanups.push(async () => {
      await Promise.all(nodes.map((n) => n.close()));
    });
    const results = await Promise.all(nodes.map((n) => migrate(n)));
    // Exactly one node applied the migrations; the others waited on the lock and found them done.
    expect(results.filter((r) => r.length > 0)).toHaveLength(1);
    const seeded = await Promise.all(nodes.map((n) => seedDemo(n)));
    expect(seeded.filter(Boolean)).toHaveLength(1);
  });

  it.runIf(backend.name === 'pglite')(
    'keeps the write-ahead log small on disk: 64 MB limit from the first open, checkpoint on demand',
    async () => {
      const fresh = await backend.fresh();
      cleanups.push(fresh.drop);
      const database = await fresh.open();
      cleanups.push(() => database.close());
      const settings = await database.query<{ name: string; setting: string }>(
        "SELECT name, setting FROM pg_settings WHERE name IN ('max_wal_size', 'min_wal_size') ORDER BY name",
      );
      expect(settings).toEqual([
        { name: 'max_wal_size', setting: '64' },
        { name: 'min_wal_size', setting: '32' },
      ]);
      await migrate(database);
      await database.housekeep();
      expect((await database.query<{ n: number }>('SELECT 1 AS n'))[0]?.n).toBe(1);
    },
  );
});

/**
 * PGlite's one connection (issue 38, the registration rush): statements of requests go before
 * those of background work waiting with them, and the event loop turns while statements queue.
 */
describe('PGlite turns', () => {
  it('runs the statement of a request before background statements queued before it', async () => {
    const database = await memoryDatabase();
    try {
      const done: string[] = [];
      const background = inBackground(() =>
        Promise.all(
          Array.from({ length: 10 }, (_, k) =>
            database.query('SELECT $1::int AS k', [k]).then(() => done.push(`b${k}`)),
          ),
        ),
      );
      const request = database.query('SELECT 1').then(() => done.push('request'));
      await Promise.all([background, request]);
      expect(done[0]).toBe('request');
      expect(done.slice(1)).toEqual(Array.from({ length: 10 }, (_, k) => `b${k}`));
    } finally {
      await database.close();
    }
  });

  it('gives background work a turn while requests never stop coming', async () => {
    const database = await memoryDatabase();
    try {
      let stop = false;
      let requests = 0;
      // Two requests' statements always waiting: each one done is followed by another.
      const stream = async () => {
        while (!stop) {
          await database.query('SELECT 1');
          requests++;
        }
      };
      const streams = [stream(), stream()];
      const started = performance.now();
      await inBackground(() => database.query('SELECT 2'));
      const waited = performance.now() - started;
      const during = requests;
      stop = true;
      await Promise.all(streams);
      // It did not wait for the requests to stop (they ran meanwhile), and not much longer than a
      // background turn's period.
      expect(during).toBeGreaterThan(0);
      expect(waited).toBeLessThan(5_000);
    } finally {
      await database.close();
    }
  });

  it('lets the event loop turn while hundreds of statements wait', async () => {
    const database = await memoryDatabase();
    try {
      let finished = 0;
      const all = Promise.all(
        Array.from({ length: 400 }, () =>
          database.query('SELECT count(*) FROM generate_series(1, 2000)').then(() => finished++),
        ),
      );
      // A timer (an HTTP request's read, `/api/health`) runs before the queue is through.
      const seen = await new Promise<number>((resolve) => setTimeout(() => resolve(finished), 0));
      await all;
      expect(seen).toBeLessThan(400);
    } finally {
      await database.close();
    }
  });
});

describe('PGlite prepared statements', () => {
  it('answers as PGlite does: typed values, nulls, errors with their code, DDL seen at once', async () => {
    const database = await memoryDatabase();
    try {
      await database.exec('CREATE TABLE t (id int PRIMARY KEY, doc jsonb, at timestamptz, tags text[])');
      const insert = 'INSERT INTO t (id, doc, at, tags) VALUES ($1, $2, $3, $4) RETURNING id, doc, at, tags';
      const at = new Date('2026-06-01T08:00:00.000Z');
      for (let k = 1; k <= 8; k++) {
        // The same text eight times: past PostgreSQL's five custom plans, the cached one answers.
        const [row] = await database.query(insert, [
          k,
          { k, list: [1, 2] },
          k % 2 ? at : null,
          ['a', `b${k}`],
        ]);
        expect(row).toEqual({ id: k, doc: { k, list: [1, 2] }, at: k % 2 ? at : null, tags: ['a', `b${k}`] });
      }
      const error = await database.query(insert, [1, null, null, null]).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: '23505', constraint: 't_pkey', query: insert });
      const select = 'SELECT * FROM t WHERE id = $1';
      expect(Object.keys((await database.query(select, [1]))[0]!)).toEqual(['id', 'doc', 'at', 'tags']);
      // A column added: the statement prepared before sees it (its plan would have failed).
      await database.exec('ALTER TABLE t ADD COLUMN note text');
      expect((await database.query(select, [1]))[0]).toMatchObject({ id: 1, note: null });
      await database.query('ALTER TABLE t DROP COLUMN note');
      expect(Object.keys((await database.query(select, [1]))[0]!)).toEqual(['id', 'doc', 'at', 'tags']);
      // A failed statement inside a transaction rolls it back; the statements stay usable after.
      await expect(
        database.transaction(async (sql) => {
          await sql.query(insert, [9, null, null, null]);
          await sql.query(insert, [1, null, null, null]);
        }),
      ).rejects.toMatchObject({ code: '23505' });
      expect(await database.query('SELECT count(*)::int AS n FROM t')).toEqual([{ n: 8 }]);
      expect(await database.query(select, [2])).toHaveLength(1);
    } finally {
      await database.close();
    }
  });

  it('keeps answering right past the most statements it keeps prepared', async () => {
    const database = await memoryDatabase();
    try {
      // 600 different texts (more than are kept), then the first ones again.
      for (let k = 0; k < 600; k++)
        expect(await database.query(`SELECT $1::int + ${k} AS n`, [1])).toEqual([{ n: 1 + k }]);
      for (let k = 0; k < 10; k++)
        expect(await database.query(`SELECT $1::int + ${k} AS n`, [2])).toEqual([{ n: 2 + k }]);
      const [{ prepared }] = (await database.query(
        'SELECT count(*)::int AS prepared FROM pg_prepared_statements',
      )) as [{ prepared: number }];
      expect(prepared).toBeLessThanOrEqual(401);
    } finally {
      await database.close();
    }
  });
});
