import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { migratedDataDir } from '../../test/helpers.ts';
import { serverArgs } from '../../test/server-entry.ts';
import { prettyLogs, startBanner } from './log-output.ts';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

describe('log output (issue 29: the first minute of a newcomer)', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('is readable in development on a terminal, JSON otherwise, as LOG_FORMAT overrides', () => {
    expect(prettyLogs({ NODE_ENV: 'development', LOG_FORMAT: 'auto' }, true)).toBe(true);
    expect(prettyLogs({ NODE_ENV: 'development', LOG_FORMAT: 'auto' }, false)).toBe(false);
    expect(prettyLogs({ NODE_ENV: 'production', LOG_FORMAT: 'auto' }, true)).toBe(false);
    expect(prettyLogs({ NODE_ENV: 'production', LOG_FORMAT: 'pretty' }, false)).toBe(true);
    expect(prettyLogs({ NODE_ENV: 'development', LOG_FORMAT: 'json' }, true)).toBe(false);
    expect(
      startBanner({ publicUrl: 'http://localhost:8080', NODE_ENV: 'development', SMTP_URL: undefined }),
    ).toBe(
      'Tempora is ready: open http://localhost:8080/ — e-mail links (sign-up, password reset, invitations) are printed in this console as "e-mail link: …"',
    );
  });

  it('prints readable lines, one per request, and where to open the app', async () => {
    const port = await freePort();
    // A migrated data directory: no initdb nor migrations at its start (helpers.ts).
    const dataDir = await migratedDataDir('tempora-log-');
    child = spawn(process.execPath, serverArgs(), {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        NODE_ENV: 'development',
        LOG_FORMAT: 'pretty',
        SEED_DEMO: 'false',
        SEED_BOSTON: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout?.on('data', (d) => {
      out += String(d);
    });
    child.stderr?.on('data', (d) => {
      out += String(d);
    });
    for (let k = 0; k < 600 && !out.includes('Tempora is ready'); k++)
      await new Promise((r) => setTimeout(r, 100));
    expect(out).toContain(`Tempora is ready: open http://127.0.0.1:${port}/`);
    expect(out).toContain('e-mail links');
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
    for (let k = 0; k < 50 && !out.includes('GET /api/health'); k++)
      await new Promise((r) => setTimeout(r, 100));
    const lines = out.split('\n').filter(Boolean);
    // No JSON line; the request on one line with its status.
    expect(lines.filter((l) => l.trimStart().startsWith('{'))).toEqual([]);
    expect(lines.some((l) => /INFO.*GET \/api\/health 200 [\d.]+ ms/.test(l))).toBe(true);
    expect(out).not.toContain('incoming request');
  }, 90_000);
});
