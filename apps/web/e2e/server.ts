import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from '@playwright/test';
import { serverArgs } from '../../server/test/server-entry.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** A running server process for a browser journey. */
export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  logs: string[];
  stop(): Promise<void>;
}

/** Asks the OS for a free TCP port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * What runs the server: the compiled bundle `npm start` runs (`apps/server/dist/server.mjs`, which
 * `npm test` builds before the journeys) when it is newer than every source it is built from —
 * a start costs a fraction of transpiling the sources with tsx —, else the TypeScript sources
 * (`E2E_SERVER=ts` forces them). The same choice as Vitest's spawning tests (one function).
 */
const serverEntry = () => serverArgs(process.env.E2E_SERVER === 'ts');

/**
 * A data directory every journey's server starts from (global-setup.ts): an embedded database
 * created and migrated once, with nothing in it (no event: each server seeds its own demo, timed
 * from its own start). A server started on a copy skips PGlite's initdb and the ~100 migrations —
 * about 12 s of CPU of the 23 s a fresh start costs, for each of the ~40 servers the journeys start
 * (measured 2026-12-05: CPU user+sys of a fresh start 22.7 s, of a start on a migrated directory
 * 10.0 s). Unset (a spec run without the global setup), each server creates its own.
 */
const TEMPLATE_ENV = 'TEMPORA_E2E_TEMPLATE_DIR';

/**
 * The migrated data directory made beforehand (`npm test` makes it beside Vitest, with
 * prepare-template.ts, so the journeys do not wait for it), or undefined.
 */
export function preparedTemplate(): string | undefined {
  const dir = process.env[TEMPLATE_ENV];
  return dir && fs.existsSync(path.join(dir, 'pglite')) ? dir : undefined;
}

/** Creates the migrated, empty data directory (global-setup.ts): a server started once and stopped. */
export async function prepareTemplate(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tempora-e2e-template-'));
  const server = await launch(dir, { SEED_DEMO: 'false', DEMO_REPLAY: 'false' });
  await server.stop({ keepData: true });
  process.env[TEMPLATE_ENV] = dir;
  return dir;
}

/**
 * Starts the server (`serverEntry`) on a free port with a fresh temporary data directory (a copy
 * of the migrated template when there is one), and waits until `/api/ready` answers.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tempora-e2e-'));
  const template = process.env[TEMPLATE_ENV];
  if (template && fs.existsSync(path.join(template, 'pglite')) && !env.DATABASE_URL)
    fs.cpSync(template, dataDir, { recursive: true });
  return launch(dataDir, env);
}

async function launch(
  dataDir: string,
  env: Record<string, string>,
): Promise<RunningServer & { stop(options?: { keepData?: boolean }): Promise<void> }> {
  const readyMs = Number(process.env.E2E_READY_TIMEOUT_MS ?? 120_000);
  try {
    // Inside a hook or a test (a `beforeAll` has the test's 60 s): the start has its own time.
    const info = test.info();
    info.setTimeout(info.timeout + readyMs);
  } catch {
    // A worker fixture: its timeout is its own (fixtures.ts).
  }
  const port = await freePort();
  const logs: string[] = [];
  const child: ChildProcess = spawn(process.execPath, serverEntry(), {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // Development at info: the server prints e-mail links on its console, which is where the
      // journeys read them (api.ts mailLink); the outbox never shows a code (issue 13).
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      SEED_BOSTON: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => logs.push(String(d)));
  child.stderr?.on('data', (d) => logs.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${logs.join('')}`);
    try {
      const res = await fetch(`${url}/api/ready`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      // Not left running behind the failure (it kept a core busy for the rest of the run).
      child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`server did not become ready:\n${logs.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    dataDir,
    logs,
    stop: async (options?: { keepData?: boolean }) => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!options?.keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
