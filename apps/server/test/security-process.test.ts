import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migratedDataDir } from './helpers.ts';
import { serverArgs } from './server-entry.ts';

// Issue 13, as an operator sees it: the real server process (`npm start` runs the same entry).

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, serverArgs(), {
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

async function waitFor<T>(
  what: () => Promise<T | undefined> | T | undefined,
  label: string,
  seconds = 150,
): Promise<T> {
  for (let i = 0; i < seconds * 10; i++) {
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
  it('refuses the publicly known realtime secret (exit 78), naming the variable', async () => {
    const p = run({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://tempora.example',
      REALTIME_SECRET: 'tempora-dev-secret-change-me',
    });
    expect(await p.exited).toBe(78);
    expect(p.output()).toMatch(/Invalid configuration:[\s\S]*REALTIME_SECRET: is a publicly known secret/);
  }, 180_000);
});

describe('development start', () => {
  it('prints the verification link on the console; dev/outbox stays closed to loopback', async () => {
    const port = freePort();
    const url = `http://127.0.0.1:${port}`;
    // A migrated data directory: no initdb nor migrations at its start (helpers.ts).
    const DATA_DIR = await migratedDataDir('tsec-');
    const p = run({ NODE_ENV: 'development', LOG_LEVEL: 'info', PORT: String(port), DATA_DIR });
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
  }, 240_000);
});

describe('kill -9 during ingest', () => {
  it('loses no acknowledged passing', async () => {
    const port = freePort();
    const url = `http://127.0.0.1:${port}`;
    const dataDir = await migratedDataDir('tsec-kill-');
    const env = {
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED_DEMO: 'true',
      DEMO_REPLAY: 'false',
      SEED_BOSTON: 'false',
      PLATFORM_STAFF_EMAILS: 'staff@example.org',
    };
    const first = run(env);
    await waitFor(async () => ((await fetch(`${url}/api/ready`)).ok ? true : undefined), 'ready').catch(
      (e) => {
        throw new Error(`${e.message}\n${first.output().slice(-2000)}`);
      },
    );
    const post = (p: string, body: unknown, token?: string) =>
      fetch(`${url}${p}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
    const email = 'staff@example.org';
    const password = 'a long staff password';
    expect((await post('/api/auth/sign-up', { email, password, lng: 'en' })).status).toBe(201);
    const line = await waitFor(
      () =>
        first
          .output()
          .split('\n')
          .find((l) => l.includes(email) && l.includes('"link"')),
      'the link',
    );
    const code = /oobCode=([\w-]+)/.exec((JSON.parse(line) as { link: string }).link)?.[1];
    expect((await post('/api/auth/verify-email', { code })).status).toBe(200);
    const { idToken } = (await (await post('/api/auth/sign-in', { email, password })).json()) as {
      idToken: string;
    };
    const device = await post(
      '/api/results/contexts/demo-city-run-10k/devices',
      { name: 'mat', pointKey: 'finish' },
      idToken,
    );
    const { key } = (await device.json()) as { key: string };

    // Batches of 200 reads, several in flight; each acknowledged one is remembered.
    const gun = Date.UTC(2026, 10, 23, 9, 0, 0);
    const batch = (b: number) =>
      Array.from({ length: 200 }, (_, k) => ({
        id: `kill-${b}-${k}`,
        bib: String(1 + ((b * 200 + k) % 1200)),
        time: gun + b * 1000 + k,
      }));
    const ingest = (b: number) =>
      fetch(`${url}/api/ingest/passings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-device-key': key },
        body: JSON.stringify({ passings: batch(b) }),
      });
    const acknowledged: number[] = [];
    let next = 0;
    let killed = false;
    const worker = async () => {
      while (!killed) {
        const b = next++;
        try {
          const res = await ingest(b);
          if (res.status === 200 && !killed) acknowledged.push(b);
        } catch {
          return; // the server is gone
        }
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    await waitFor(() => (acknowledged.length >= 10 ? true : undefined), 'ten acknowledged batches');
    killed = true;
    first.child.kill('SIGKILL');
    await first.exited;
    await Promise.allSettled(workers);
    expect(acknowledged.length).toBeGreaterThanOrEqual(10);

    const second = run(env);
    await waitFor(async () => ((await fetch(`${url}/api/ready`)).ok ? true : undefined), 'ready again');
    // Every acknowledged read is there: sending its batch again stores nothing new.
    for (const b of acknowledged) {
      const res = await ingest(b);
      expect(await res.json()).toEqual({ accepted: 0, duplicates: 200 });
    }
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 400_000);
});
