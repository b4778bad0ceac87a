import { count } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { backends } from '../../test/helpers.ts';
import { seedDemo } from '../seed/demo.ts';
import { migrate } from './migrate.ts';
import { events } from './schema/index.ts';

// The same suite on PGlite and, when TEST_DATABASE_URL is set (CI), on real PostgreSQL.
describe.each(backends().map((b) => [b.name, b] as const))('database on %s', (_name, backend) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

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
    const fresh = await backend.fresh();
    cleanups.push(fresh.drop);
    const database = await fresh.open();
    cleanups.push(() => database.close());
    await migrate(database);
    await expect(
      database.transaction(async (sql) => {
        await sql.query(`INSERT INTO organisations (slug, name) VALUES ('a', 'A')`);
        await sql.query(`INSERT INTO organisations (slug, name) VALUES ('a', 'duplicate slug')`);
      }),
    ).rejects.toThrow();
    const rows = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM organisations');
    expect(rows[0]?.n).toBe(0);
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
