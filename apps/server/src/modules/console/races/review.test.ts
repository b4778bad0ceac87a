import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/helpers.ts';
import { createTestUser } from '../../../../test/identity-helpers.ts';
import { DEMO_ORG } from '../../../../test/routes/route-table.ts';
import { DEMO_DB } from '../../../seed/demo-races.ts';

const GUN = Date.UTC(2026, 10, 30, 9);
const MIN = 60_000;

describe('review before results are official (issue 31)', () => {
  let app: FastifyInstance;
  let owner: string;
  let timekeeper: string;
  const send = (url: string, payload: unknown, who = owner) =>
    app.inject({ method: 'POST', url, headers: { authorization: who }, payload: payload as object });
  const review = (who: string, query = '') =>
    app.inject({ url: `/api/console/races/half/review${query}`, headers: { authorization: who } });

  beforeAll(async () => {
    app = await buildTestApp();
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
    timekeeper = (
      await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'timekeeper' }] })
    ).authorization;
    await send(`/api/results/contexts/${DEMO_DB}/races`, {
      id: 'half',
      name: 'Half',
      date: '2026-11-30',
      distanceM: 21_097,
      startType: 'mass',
      gunTimeMs: GUN,
      categories: [],
      points: [
        { key: 'k5', name: '5 km', distanceM: 5000 },
        { key: 'k10', name: '10 km', distanceM: 10_000 },
        { key: 'finish', name: 'Finish', distanceM: 21_097 },
      ],
    });
    await send(`/api/results/contexts/${DEMO_DB}/races/half/participants`, {
      participants: ['1', '2', '3', '4'].map((bib) => ({ bib, firstName: 'R', lastName: bib, gender: 'M' })),
    });
    const read = (bib: string, point: string, minutes: number) => ({
      id: `${bib}-${point}`,
      bib,
      point,
      time: GUN + minutes * MIN,
    });
    const stored = await send(`/api/results/contexts/${DEMO_DB}/passings`, {
      passings: [
        read('1', 'k5', 25),
        read('1', 'k10', 50),
        read('1', 'finish', 105),
        read('2', 'k5', 26), // 2: the 10 km mat missed them
        read('2', 'finish', 110),
        read('3', 'k5', 27), // 3: 5 → 10 km in 6 minutes
        read('3', 'k10', 33),
        read('3', 'finish', 100),
        read('4', 'k5', 52), // 4: read at 10 km before 5 km
        read('4', 'k10', 49),
        read('4', 'finish', 108),
      ],
    });
    expect(stored.json().accepted).toBe(11);
  });
  afterAll(() => app.close());

  it('lists the seeded faults with the reads behind them, for the race’s timekeeper', async () => {
    const res = await review(timekeeper);
    expect(res.statusCode).toBe(200);
    const { anomalies } = res.json();
    expect(
      anomalies.map((a: { kind: string; bib: string; pointId: string }) => [a.kind, a.bib, a.pointId]),
    ).toEqual([
      ['missingRead', '2', 'k10'],
      ['tooFast', '3', 'k10'],
      ['outOfOrder', '4', 'k10'],
    ]);
    expect(anomalies[1].reads.map((r: { id: string }) => r.id)).toEqual(['3-k5', '3-k10']);
    expect(anomalies[1].paceMsPerKm).toBe(72_000);
  });

  it('forgets a fault the desk corrected, and takes a stricter pace on request', async () => {
    const voided = await send(
      `/api/results/contexts/${DEMO_DB}/passings`,
      { passings: [{ id: '3-k10', bib: '3', point: 'k10', time: GUN + 33 * MIN, deleted: true }] },
      timekeeper,
    );
    expect(voided.json().accepted).toBe(1);
    const kinds = (await review(timekeeper))
      .json()
      .anomalies.map((a: { kind: string; bib: string }) => `${a.kind} ${a.bib}`);
    expect(kinds).toEqual(['missingRead 2', 'missingRead 3', 'outOfOrder 4']);
    // At 5:10/km as the fastest plausible pace, runner 1's 5 km in 25 minutes is listed too.
    const strict = (await review(timekeeper, '?fastestPaceS=310')).json().anomalies;
    expect(strict.some((a: { kind: string; bib: string }) => a.kind === 'tooFast' && a.bib === '1')).toBe(
      true,
    );
    const bad = await review(timekeeper, '?fastestPaceS=5');
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
  });
});
