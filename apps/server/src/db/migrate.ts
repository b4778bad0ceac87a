import fs from 'node:fs/promises';
import path from 'node:path';
import type { Database } from './database.ts';

const migrationsDir = path.join(import.meta.dirname, 'migrations');

/** An arbitrary constant: the advisory-lock key all nodes agree on for migrations. */
const MIGRATION_LOCK_KEY = 727_310_001;

/**
 * Applies the numbered SQL files in `migrations/` that have not run yet, in name order, in one
 * transaction holding a transaction-scoped advisory lock: safe to run twice, and on several nodes
 * at once (the second waits for the first, then finds nothing to do). Returns the names applied.
 */
export async function migrate(database: Database, dir = migrationsDir): Promise<string[]> {
  const files = (await fs.readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  return database.transaction(async (sql) => {
    await sql.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await sql.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await sql.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
    );
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      await sql.exec(await fs.readFile(path.join(dir, file), 'utf8'));
      await sql.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      applied.push(file);
    }
    return applied;
  });
}
