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
      const died = Date.now();
      let answer = await b.acquire('ctx-3');
      while (answer === 'other' && Date.now() - died < 10_000) {
        await new Promise((r) => setTimeout(r, 50));
        answer = await b.acquire('ctx-3');
      }
      expect(answer).toBe('taken');
      expect(b.holds('ctx-3')).toBe(true);
      // A's own view lapses within the lease time, before B could take it.
      expect(a.holds('ctx-3')).toBe(false);
    });
  });
});
