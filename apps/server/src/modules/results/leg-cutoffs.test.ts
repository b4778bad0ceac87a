import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
const GUN = Date.UTC(2026, 10, 29, 8);
const MIN = 60_000;

describe('cut-offs on a leg table and the desk reinstating (issue 31)', () => {
  let app: FastifyInstance;
  let owner: string;
  const send = (method: 'POST' | 'PUT', url: string, payload: unknown) =>
    app.inject({ method, url, headers: { authorization: owner }, payload: payload as object });
  const legs = () => app.inject(`/api/results/contexts/${DEMO_DB}/races/cut/legs`);

  beforeAll(async () => {
    app = await buildTestApp();
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
    const points: [string, number][] = [
      ['swim', 1500],
      ['bike', 41_500],
      ['finish', 51_500],
    ];
    expect(
      (
        await send('POST', `/api/results/contexts/${DEMO_DB}/races`, {
          id: 'cut',
          name: 'Cut',
          date: '2026-11-29',
          distanceM: 51_500,
          startType: 'mass',
          gunTimeMs: GUN,
          categories: [],
          points: points.map(([key, distanceM]) => ({ key, name: key, distanceM })),
        })
      ).statusCode,
    ).toBe(201);
    await send('POST', `/api/results/contexts/${DEMO_DB}/races/cut/participants`, {
      participants: ['1', '2', '3'].map((bib) => ({ bib, firstName: 'A', lastName: bib, gender: 'M' })),
    });
    await send('POST', `/api/results/contexts/${DEMO_DB}/passings`, {
      passings: (
        [
          ['1', 'swim', 30],
          ['1', 'bike', 100],
          ['1', 'finish', 150],
          ['2', 'swim', 50], // past the 45-minute swim cut-off
          ['2', 'bike', 110],
          ['2', 'finish', 140],
          ['3', 'swim', 40],
          ['3', 'bike', 120],
          ['3', 'finish', 170],
        ] as const
      ).map(([bib, point, m]) => ({ id: `${bib}-${point}`, bib, point, time: GUN + m * MIN })),
    });
  });
  afterAll(() => app.close());

  it('refuses a cut-off at a point the race does not have, or without a time', async () => {
    const legsOf = ['swim', 'bike', 'finish'].map((k) => ({
      pointKey: k,
      kind: 'discipline',
      name: { en: k, fr: k },
    }));
    const bad = await send('PUT', '/api/console/races/cut/format', {
      kind: 'multisport',
      legs: legsOf,
      cutoffs: [{ pointKey: 'nowhere', afterGunMinutes: 45 }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('cutoffs.0.pointKey');
    const none = await send('PUT', '/api/console/races/cut/format', {
      kind: 'multisport',
      legs: legsOf,
      cutoffs: [{ pointKey: 'swim' }],
    });
    expect(none.statusCode).toBe(400);
  });

  it('a late swimmer is DNF with the reason, the others re-ranked; the desk reinstates and undoes', async () => {
    const legsOf = ['swim', 'bike', 'finish'].map((k) => ({
      pointKey: k,
      kind: 'discipline',
      name: { en: k, fr: k },
    }));
    await send('PUT', '/api/console/races/cut/format', { kind: 'multisport', legs: legsOf });
    const before = (await legs()).json();
    expect(before.rows.map((r: { bib: string }) => r.bib)).toEqual(['2', '1', '3']);
    const set = await send('PUT', '/api/console/races/cut/format', {
      kind: 'multisport',
      legs: legsOf,
      cutoffs: [
        { pointKey: 'swim', afterGunMinutes: 45 },
        { pointKey: 'bike', elapsedMinutes: 115, outcome: 'overTime' },
      ],
    });
    expect(set.statusCode).toBe(200);
    const body = (await legs()).json();
    const row = (bib: string) => body.rows.find((r: { bib: string }) => r.bib === bib);
    expect(row('2')).toMatchObject({
      rank: null,
      status: 'DNF',
      cutoff: {
        pointKey: 'swim',
        outcome: 'DNF',
        reason: 'late',
        deadlineMs: GUN + 45 * MIN,
        readMs: GUN + 50 * MIN,
      },
    });
    expect(row('2').legs[0].timeMs).toBe(50 * MIN); // the leg time stays
    expect(row('3')).toMatchObject({
      rank: null,
      status: 'overTime',
      cutoff: { pointKey: 'bike', reason: 'late' },
    });
    expect(row('1')).toMatchObject({ rank: 1, cutoff: null });
    expect(body.publication.state).toBe('provisional');

    // The desk reinstates 2 at the swim: shown, not applied; 2 is first again.
    const reinstate = await send('PUT', '/api/console/races/cut/cutoff-overrides', {
      bib: '2',
      pointKey: 'swim',
      reinstated: true,
    });
    expect(reinstate.statusCode).toBe(200);
    expect(reinstate.json().cutoffOverrides).toEqual([{ bib: '2', pointKey: 'swim' }]);
    const after = (await legs()).json();
    expect(after.rows[0]).toMatchObject({ bib: '2', rank: 1, cutoff: { overridden: true } });
    expect(after.rows[1]).toMatchObject({ bib: '1', rank: 2 });

    // Undone: DNF again.
    await send('PUT', '/api/console/races/cut/cutoff-overrides', {
      bib: '2',
      pointKey: 'swim',
      reinstated: false,
    });
    const undone = (await legs()).json();
    expect(undone.rows.find((r: { bib: string }) => r.bib === '2')).toMatchObject({
      status: 'DNF',
      rank: null,
    });
  });
});
