import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';

// Issue 13: a race without gun time where a runner has a finish read but no start read made
// `…/stats` answer 500 for everyone (a NaN finish time).

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
let app: FastifyInstance;
let owner: string;
beforeAll(async () => {
  app = await buildTestApp();
  owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
    .authorization;
});
afterAll(() => app.close());

describe('statistics of a race without gun time', () => {
  it('answer 200, the runner without a start read counted as finished, no NaN', async () => {
    const post = (url: string, payload: object) =>
      app.inject({ method: 'POST', url, headers: { authorization: owner }, payload });
    const base = `/api/results/contexts/${DEMO_DB}`;
    expect(
      (
        await post(`${base}/races`, {
          id: 'no-gun',
          name: 'No gun',
          date: '2026-11-23',
          distanceM: 5000,
          startType: 'mass',
          points: [
            { key: 'start', name: 'Start', distanceM: 0, isStart: true },
            { key: 'finish', name: 'Finish', distanceM: 5000 },
          ],
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await post(`${base}/races/no-gun/participants`, {
          participants: [
            { bib: '1', firstName: 'Ana', lastName: 'Lima', gender: 'F' },
            { bib: '2', firstName: 'Bo', lastName: 'Ek', gender: 'M' },
          ],
        })
      ).statusCode,
    ).toBe(201);
    const t = Date.UTC(2026, 10, 23, 9, 0, 0);
    expect(
      (
        await post(`${base}/passings`, {
          passings: [
            { bib: '1', point: 'finish', time: t + 1_500_000 },
            { bib: '2', point: 'start', time: t },
            { bib: '2', point: 'finish', time: t + 1_600_000 },
          ],
        })
      ).statusCode,
    ).toBeLessThan(300);
    const res = await app.inject(`${base}/races/no-gun/stats`);
    expect(res.statusCode).toBe(200);
    const stats = res.json();
    expect(stats.counts.finished).toBe(2);
    expect(stats.histogram.reduce((n: number, b: { count: number }) => n + b.count, 0)).toBe(1);
    expect(res.body).not.toContain('NaN');
  });
});
