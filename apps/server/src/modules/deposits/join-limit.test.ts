import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { depositCast } from './test-helpers.ts';

/**
 * Issue 25 (low): join codes (40 bits) were looked up anonymously at ~180/s with no limit. Now a
 * lookup needs a signed-in caller and is counted per address and per account: 30 per 15 minutes.
 */
describe('join-code lookups are limited', () => {
  let app: FastifyInstance;
  let cast: Awaited<ReturnType<typeof depositCast>>;
  beforeAll(async () => {
    app = await buildTestApp();
    cast = await depositCast(app);
  });
  afterAll(() => app.close());

  const guess = (who: { authorization: string }, remoteAddress: string, i: number, method = 'GET') =>
    app.inject(
      method === 'GET'
        ? { method: 'GET', url: `/api/deposits/join/GUESS${1000 + i}`, headers: who, remoteAddress }
        : {
            method: 'POST',
            url: '/api/deposits/join',
            headers: who,
            remoteAddress,
            payload: { code: `GUESS${i}` },
          },
    );

  it('per account, whatever the address, then per address, whatever the account', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 32; i++)
      codes.push((await guess(cast.stranger, `198.51.100.${i + 1}`, i, i % 2 ? 'POST' : 'GET')).statusCode);
    expect(codes.slice(0, 30)).toEqual(Array(30).fill(404));
    expect(codes.slice(30)).toEqual([429, 429]);
    const limited = await guess(cast.stranger, '198.51.100.200', 99);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['content-type']).toContain('application/problem+json');

    // One address, many accounts: the address runs out too.
    const people = [cast.ann, cast.bob, cast.captain];
    const fromOne: number[] = [];
    for (let i = 0; i < 31; i++) fromOne.push((await guess(people[i % 3]!, '203.0.113.9', i)).statusCode);
    expect(fromOne.slice(0, 30)).toEqual(Array(30).fill(404));
    expect(fromOne[30]).toBe(429);
  });
});
