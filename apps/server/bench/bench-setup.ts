import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';

/** A real app on a fresh PGlite directory on disk (or DATABASE_URL), demo off, logs off. */
export async function benchApp(
  env: Record<string, string> = {},
): Promise<{ app: FastifyInstance; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tempora-bench-'));
  // Benches run with NODE_ENV=production, which requires a public URL and non-default secrets.
  const config = loadConfig({
    PUBLIC_URL: 'http://localhost:8080',
    REALTIME_SECRET: 'bench-only-realtime-secret',
    ...process.env,
    ...env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
  });
  const app = await buildApp(config, { logger: false });
  await app.database.query(
    `INSERT INTO organisations (id, slug, name) VALUES ('00000000-0000-4000-8000-0000000000be', 'bench', 'Bench')`,
  );
  await app.database.query(
    `INSERT INTO events (id, organisation_id, name, start_date, end_date, status)
     VALUES ('bench', '00000000-0000-4000-8000-0000000000be', 'Bench', '2017-04-17', '2017-04-17', 'live')`,
  );
  return { app, dataDir };
}

export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** Prints rows as a Markdown table. */
export function printTable(header: string[], rows: (string | number)[][]) {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  console.log(line(header));
  console.log(line(header.map(() => '---')));
  for (const row of rows) console.log(line(row));
}
