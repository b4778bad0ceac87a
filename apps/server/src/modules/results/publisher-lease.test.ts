import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { type PublisherLeases, redisLeases, soleLeases } from './publisher-lease.ts';

const url = process.env.TEST_REDIS_URL;

describe('publisher leases', () => {
  it('without Redis, the node always publishes', async () => {
    expect(await soleLeases.acquire('any')).toBe('held');
    expect(soleLeases.holds('any')).toBe(true);
  });

  describe.skipIf(!url)('in Redis', () => {
    const prefix = `tempora-test:${randomUUID()}:lease:`;
    const log = Fastify({ logger: false }).log;
    const open: PublisherLeases[] = [];
    /** Asks until the lease is not another's any more (or `withinMs` passed): the last answer. */
    const acquireUntilFree = async (leases: PublisherLeases, db: string, withinMs: number) => {
      const from = Date.now();
      let answer = await leases.acquire(db);
      while (answer === 'other' && Date.now() - from < withinMs) {
        await new Promise((r) => setTimeout(r, 20));
        answer = await leases.acquire(db);
      }
      return answer;
    };
    const node = (leaseMs: number) => {
      const leases = redisLeases({ url: url!, prefix, log, leaseMs });
      open.push(leases);
      return leases;
    };
    afterAll(async () => {
      for (const l of open) await l.close();
      const redis = new Redis(url!);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    });

    it('gives a context one holder at a time, and the next one when it is given back', async () => {
      const [a, b] = [node(1_000), node(1_000)];
      const answers = await Promise.all([a.acquire('ctx-1'), b.acquire('ctx-1')]);
      expect([...answers].sort()).toEqual(['other', 'taken']);
      const [holder, other] = answers[0] === 'taken' ? [a, b] : [b, a];
      expect(await holder.acquire('ctx-1')).toBe('held');
      expect(holder.holds('ctx-1')).toBe(true);
      expect(other.holds('ctx-1')).toBe(false);
      // Another context is independent.
      expect(await other.acquire('ctx-2')).toBe('taken');
      await holder.releaseAll();
      expect(holder.holds('ctx-1')).toBe(false);
      // The other node knew the lease taken until its expiry: it asks again after that.
      await new Promise((r) => setTimeout(r, 1_100));
      expect(await other.acquire('ctx-1')).toBe('taken');
    });

    it('renews a held lease past its time; one not renewed expires and is taken over', async () => {
      const [a, b] = [node(1_500), node(1_500)];
      expect(await a.acquire('ctx-3')).toBe('taken');
      // Three lease times: renewed all along.
      await new Promise((r) => setTimeout(r, 3_500));
      expect(a.holds('ctx-3')).toBe(true);
      expect(await b.acquire('ctx-3')).toBe('other');
      // Node A dies (no renewal, nothing given back): the lease expires, B takes it.
      await a.close();
      expect(await acquireUntilFree(b, 'ctx-3', 10_000)).toBe('taken');
      expect(b.holds('ctx-3')).toBe(true);
      // A's own view lapses within the lease time, before B could take it.
      expect(a.holds('ctx-3')).toBe(false);
    });

    it('takes over at once from a holder whose connection is gone, never from one still connected', async () => {
      const b = node(1_500);
      const raw = new Redis(url!);
      try {
        // A holder that died (its process killed: Redis dropped its connection): its lease has
        // 10 s left, and is taken over within a recheck, not when it expires.
        await raw.set(`${prefix}ctx-4`, `n:${randomUUID()}`, 'PX', 10_000);
        const asked = Date.now();
        expect(await acquireUntilFree(b, 'ctx-4', 5_000)).toBe('taken');
        expect(Date.now() - asked).toBeLessThan(1_000);
        expect(b.holds('ctx-4')).toBe(true);
        // A holder alive: its lease connection (named after it) is there — never taken over.
        const id = randomUUID();
        const alive = new Redis(url!, { connectionName: `${prefix}node:${id}` });
        await alive.ping();
        await raw.set(`${prefix}ctx-5`, `n:${id}`, 'PX', 10_000);
        // A lease of a node whose connection has no name (an older node): left until it expires.
        await raw.set(`${prefix}ctx-6`, randomUUID(), 'PX', 10_000);
        for (let k = 0; k < 5; k++) {
          expect(await b.acquire('ctx-5')).toBe('other');
          expect(await b.acquire('ctx-6')).toBe('other');
          await new Promise((r) => setTimeout(r, 120));
        }
        // Once its connection closes, the next look finds it gone.
        await alive.quit();
        const closed = Date.now();
        expect(await acquireUntilFree(b, 'ctx-5', 5_000)).toBe('taken');
        expect(Date.now() - closed).toBeLessThan(1_000);
      } finally {
        await raw.quit();
      }
    });

    it('stops counting its leases held the moment its connection to Redis closes', async () => {
      const a = node(3_000);
      expect(await a.acquire('ctx-7')).toBe('taken');
      expect(a.holds('ctx-7')).toBe(true);
      const raw = new Redis(url!);
      try {
        const holder = (await raw.get(`${prefix}ctx-7`))!;
        expect(holder).toMatch(/^n:/);
        const clients = (await raw.call('CLIENT', 'LIST', 'TYPE', 'normal')) as string;
        const line = clients.split('\n').find((l) => l.includes(` name=${prefix}node:${holder.slice(2)}`));
        const id = / id=(\d+) /.exec(` ${line}`)?.[1];
        expect(id).toBeDefined();
        // Redis drops the connection (as when the node is cut off): another node may take the
        // lease over from now, so this one no longer counts it held (two publishers never).
        await raw.call('CLIENT', 'KILL', 'ID', id!);
        const killed = Date.now();
        while (a.holds('ctx-7') && Date.now() - killed < 2_000) await new Promise((r) => setTimeout(r, 10));
        expect(a.holds('ctx-7')).toBe(false);
      } finally {
        await raw.quit();
      }
    });
  });
});
