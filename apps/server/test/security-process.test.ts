import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// Issue 13, as an operator sees it: the real server process (`npm start` runs the same entry).

const serverEntry = path.resolve(import.meta.dirname, '../src/server.ts');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'tsec-')),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitFor<T>(what: () => Promise<T | undefined> | T | undefined, label: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    try {
      const value = await what();
      if (value !== undefined) return value;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${label}`);
}

const freePort = () => 20000 + Math.floor(Math.random() * 20000);

describe('production start', () => {
  it('refuses the development realtime secret (exit 78), naming the variable', async () => {
    const p = run({ NODE_ENV: 'production', PUBLIC_URL: 'https://tempora.example' });
    expect(await p.exited).toBe(78);
    expect(p.output()).toMatch(
      /Invalid configuration:[\s\S]*REALTIME_SECRET: still holds its development default/,
    );
  }, 30_000);
});

describe('development start', () => {
  it('prints the verification link on the console; dev/outbox stays closed to loopback', async () => {
    const port = freePort();
    const url = `http://127.0.0.1:${port}`;
    const p = run({ NODE_ENV: 'development', LOG_LEVEL: 'info', PORT: String(port) });
    await waitFor(async () => ((await fetch(`${url}/api/ready`)).ok ? true : undefined), 'ready');
    const signUp = await fetch(`${url}/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-host': 'evil.example' },
      body: JSON.stringify({ email: 'newcomer@example.org', password: 'a long password', lng: 'en' }),
    });
    expect(signUp.status).toBe(201);
    const line = await waitFor(
      () =>
        p
          .output()
          .split('\n')
          .find((l) => l.includes('newcomer@example.org') && l.includes('"link"')),
      'the link on the console',
    );
    const { link } = JSON.parse(line) as { link: string };
    expect(link).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:${port}/#/auth/action\\?mode=verifyEmail&oobCode=[\\w-]{20,}$`),
    );
    const outbox = await fetch(`${url}/api/dev/outbox`, { headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(outbox.status).toBe(401);
    const code = /oobCode=([\w-]+)/.exec(link)?.[1];
    const verified = await fetch(`${url}/api/auth/verify-email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect(verified.status).toBe(200);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  }, 60_000);
});
