import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addAcceptHandles } from './accept-handles.ts';

/**
 * A client process opens `n` connections to `port`, sends a request on each, writes `flag` once
 * every connection is established (the kernel's handshake: accepted or not by the server), and
 * prints how many answers it got.
 */
function client(port: number, n: number, flag: string) {
  const script = `
    const net = require('node:net'); const fs = require('node:fs');
    let connected = 0, answered = 0;
    for (let k = 0; k < ${n}; k++) {
      const s = net.connect(${port}, '127.0.0.1', () => {
        s.write('GET /x HTTP/1.1\\r\\nHost: t\\r\\nConnection: close\\r\\n\\r\\n');
        if (++connected === ${n}) fs.writeFileSync(${JSON.stringify(flag)}, 'ok');
      });
      s.on('data', (d) => { if (String(d).startsWith('HTTP/1.1 200')) answered++; });
      s.on('error', () => {});
    }
    setInterval(() => { if (answered === ${n}) { process.stdout.write(String(answered)); process.exit(0); } }, 20);
    setTimeout(() => { process.stdout.write(String(answered)); process.exit(0); }, 20000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  return new Promise<number>((resolve) => child.on('exit', () => resolve(Number(out))));
}

/** Blocks this thread until `flag` exists (the client's connections are all in the kernel's queue). */
function blockUntil(flag: string) {
  const end = Date.now() + 20_000;
  while (!fs.existsSync(flag) && Date.now() < end) {
    /* a busy event loop: nothing is accepted meanwhile */
  }
}

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** Connections accepted in the first turn of the event loop after a long busy stretch. */
async function acceptedInOneTurn(handles: number) {
  const server = http.createServer((_req, res) => res.end('ok'));
  servers.push(server);
  let accepted = 0;
  server.on('connection', () => accepted++);
  await new Promise<void>((r) => server.listen({ port: 0, host: '127.0.0.1', backlog: 512 }, r));
  const added = await addAcceptHandles(server, handles, 512);
  const port = (server.address() as net.AddressInfo).port;
  const flag = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'accept-')), 'connected');
  const answered = client(port, 40, flag);
  blockUntil(flag);
  // One whole turn: from one check phase (immediates) to the next, through a poll phase (accepts).
  const turn = () => new Promise<number>((r) => setImmediate(() => r(accepted)));
  const before = await turn();
  const inOneTurn = (await turn()) - before;
  return { added, inOneTurn, answered: await answered, accepted: () => accepted, server, port };
}

describe('addAcceptHandles', () => {
  it('accepts one connection per extra handle in a turn of a busy event loop, and all are served', async () => {
    const out = await acceptedInOneTurn(8);
    expect(out.added).toBe(8);
    // The listening handle and its 8 copies: 9 connections in one turn (Node alone takes 1).
    expect(out.inOneTurn).toBeGreaterThanOrEqual(9);
    expect(out.answered).toBe(40);
    expect(out.accepted()).toBe(40);
  });

  it('without extra handles Node takes one connection per turn (why they exist)', async () => {
    const out = await acceptedInOneTurn(0);
    expect(out.added).toBe(0);
    expect(out.inOneTurn).toBeLessThanOrEqual(2);
    expect(out.answered).toBe(40);
  });

  it('keeps the queue the server listens with (each listen() sets it; Node’s default is 511)', async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    servers.push(server);
    await new Promise<void>((r) => server.listen({ port: 0, host: '127.0.0.1', backlog: 1000 }, r));
    await addAcceptHandles(server, 4, 1000);
    const port = (server.address() as net.AddressInfo).port;
    // The listening socket's queue (Linux's `ss`: Send-Q of a LISTEN line is its length).
    const queue = () =>
      Number(
        execFileSync('ss', ['-ltnH', `sport = :${port}`])
          .toString()
          .trim()
          .split(/\s+/)[2],
      );
    const somaxconn = Number(fs.readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    expect(queue()).toBe(Math.min(1000, somaxconn));
  });

  it('close() stops every handle: the port refuses connections', async () => {
    const out = await acceptedInOneTurn(4);
    await new Promise((r) => out.server.close(r));
    servers.splice(servers.indexOf(out.server), 1);
    const refused = await new Promise<string>((resolve) => {
      const s = net.connect(out.port, '127.0.0.1', () => {
        s.destroy();
        resolve('connected');
      });
      s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });
});
