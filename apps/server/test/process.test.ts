import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { memoryDatabase, testConfig } from './helpers.ts';
import { serverArgs } from './server-entry.ts';

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, serverArgs(), {
    // The demo is seeded (what the restart test checks) but neither replayed live nor joined by
    // Boston's 26,410 runners in the background: CPU the assertions never read (CI's 20 minutes).
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      DEMO_REPLAY: 'false',
      SEED_BOSTON: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitReady(url: string) {
  // A cold `tsx` start of the whole server can take a minute on a loaded CI machine.
  for (let i = 0; i < 1500; i++) {
    try {
      if ((await fetch(`${url}/api/ready`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('not ready');
}

describe('the server process', () => {
  it('refuses to start on a bad value and names the variable', async () => {
    const p = run({ PORT: 'not-a-port', DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'tp-')) });
    expect(await p.exited).toBe(78);
    expect(p.output()).toMatch(/Invalid configuration:[\s\S]*PORT:/);
  }, 180_000);

  it('exits 0 on SIGTERM and keeps its data across a restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-'));
    const port = 20000 + Math.floor(Math.random() * 20000);
    const url = `http://127.0.0.1:${port}`;
    const p = run({ PORT: String(port), DATA_DIR: dataDir });
    await waitReady(url);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(true);

    // Restart on the same data directory: migrations already applied, demo not seeded twice.
    const again = run({ PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    await waitReady(url);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    expect(again.output()).not.toContain('migrations applied');
    expect(again.output()).not.toContain('demo content seeded');
  }, 360_000);

  it('finishes in-flight requests when closing, and refuses new ones', async () => {
    const database = await memoryDatabase();
    const app = await buildApp(testConfig(), { database, logger: false });
    app.get('/api/slow', async () => {
      await new Promise((r) => setTimeout(r, 500));
      return { done: true };
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    // As a load balancer would: no traffic before the node has warmed up (issue 20).
    while (app.readiness.pending().length) await new Promise((r) => setTimeout(r, 20));
    const slow = fetch(`${address}/api/slow`).then(async (r) => ({ status: r.status, body: await r.json() }));
    await new Promise((r) => setTimeout(r, 100));
    const closed = app.close();
    const answer = await slow;
    expect(answer).toEqual({ status: 200, body: { done: true } });
    await closed;
    await expect(fetch(`${address}/api/health`)).rejects.toThrow();
    await database.close();
  });
});
