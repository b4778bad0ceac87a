import crypto from 'node:crypto';
import type { Sql } from './database.ts';

/**
 * A named per-install secret, made on first use (32 random bytes) and kept in the database (the
 * data directory's PGlite, or the PostgreSQL every node shares), so every node and every restart
 * signs alike. Concurrent first uses agree: the first insert wins. Certificates' verification
 * tokens (`certificates`) and, unless REALTIME_SECRET is set, the Pusher app secret (`realtime`)
 * use it (issue 42: no install runs with a publicly known secret).
 */
export async function secretOf(sql: Sql, name: string): Promise<Buffer> {
  await sql.query(
    'INSERT INTO signing_secrets (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
    [name, crypto.randomBytes(32).toString('base64')],
  );
  const [row] = await sql.query<{ secret: string }>('SELECT secret FROM signing_secrets WHERE name = $1', [
    name,
  ]);
  return Buffer.from(row!.secret, 'base64');
}

/**
 * The configuration with its unset secrets made the install's own (issue 42: no install runs
 * with a publicly known secret): REALTIME_SECRET from the environment, else the database's
 * `realtime` secret, made on first start. On PostgreSQL every node reads the same one.
 */
export async function withInstallSecrets<T extends { REALTIME_SECRET: string }>(
  config: T,
  sql: Sql,
): Promise<T> {
  if (config.REALTIME_SECRET) return config;
  return { ...config, REALTIME_SECRET: (await secretOf(sql, 'realtime')).toString('base64url') };
}
