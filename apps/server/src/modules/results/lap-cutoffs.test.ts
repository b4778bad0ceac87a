import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
const GUN = Date.UTC(2026, 10, 28, 15);
const MIN = 60_000;

describe('cut-offs on a lap race, the lap chart and the desk reinstating (issue 31)', () => {
  let app: FastifyInstance;
  let owner: string;
  const send = (method: 'POST' | 'PUT', url: string, payload: unknown) =>
    app.inject({ method, url, headers: { authorization: owner }, payload: payload as object });
  const table = async () => (await app.inject(`/api/results/contexts/${DEMO_DB}/races/lapcut/laps`)).json();
  const format = (extra: object) =>
    send('PUT', '/api/console/races/lapcut/format', {
      kind: 'laps',
      lapPointKey: 'line',
      minLapS: 60,
      lapLengthM: 1200,
      targetLaps: 3,
      ...extra,
    });

  beforeAll(async () => {
    app = await buildTestApp();
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
    const created = await send('POST', `/api/results/contexts/${DEMO_DB}/races`, {
      id: 'lapcut',
      name: 'Criterium',
      date: '2026-11-28',
      distanceM: 3600,
      startType: 'mass',
      gunTimeMs: GUN,
      categories: [],
      points: [{ key: 'line', name: 'Line', distanceM: 1200 }],
    });
    expect(created.statusCode).toBe(201);
    await send('POST', `/api/results/contexts/${DEMO_DB}/races/lapcut/participants`, {
      participants: [
        { bib: '1', firstName: 'Ann', lastName: 'Fast', gender: 'F' },
        { bib: '2', firstName: 'Bob', lastName: 'Steady', gender: 'M' },
        { bib: '3', firstName: 'Cid', lastName: 'Lapped', gender: 'M' },
      ],
    });
    const read = (bib: string, minutes: number) => ({
      id: `${bib}-${minutes}`,
      bib,
      point: 'line',
      time: GUN + minutes * MIN,
    });
    const ingest = await send('POST', `/api/results/contexts/${DEMO_DB}/passings`, {
      passings: [
        read('1', 2),
        read('1', 4),
        read('1', 6),
        read('2', 2.5),
        read('2', 4.2),
        read('2', 6.3),
        read('3', 3),
        read('3', 6.5), // lap 2 done after the 5-minute cut-off
      ],
    });
    expect(ingest.json().accepted).toBe(8);
  });
  afterAll(() => app.close());

  it('refuses a lap cut-off without a time, naming the field', async () => {
    const bad = await format({ lapCutoffs: [{ laps: 2 }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
    expect(bad.json().errors[0].field).toBe('lapCutoffs.0.afterGunMinutes');
    expect((await format({ lapCutoffs: [{ laps: 0, elapsedMinutes: 5 }] })).statusCode).toBe(400);
  });

  it('ranks everyone without a cut-off, and draws the lap chart of the top riders', async () => {
    expect((await format({})).statusCode).toBe(200);
    const body = await table();
    expect(body.rows.map((r: { bib: string; rank: number }) => [r.bib, r.rank])).toEqual([
      ['1', 1],
      ['2', 2],
      ['3', 3],
    ]);
    expect(body.rows.every((r: { cutoff: unknown }) => r.cutoff === null)).toBe(true);
    expect(body.chart).toEqual([
      { bib: '1', name: 'Ann Fast', positions: [1, 1, 1] },
      { bib: '2', name: 'Bob Steady', positions: [2, 2, 2] },
      { bib: '3', name: 'Cid Lapped', positions: [3, 3] },
    ]);
  });

  it('puts a rider late at the lap cut-off out with the reason, and the desk reinstates them', async () => {
    const set = await format({ lapCutoffs: [{ laps: 2, elapsedMinutes: 5 }] });
    expect(set.statusCode).toBe(200);
    expect(set.json().format.lapCutoffs).toEqual([{ laps: 2, elapsedMinutes: 5, outcome: 'DNF' }]);
    const cut = await table();
    expect(
      cut.rows.map((r: { bib: string; rank: number | null; status: string }) => [r.bib, r.rank, r.status]),
    ).toEqual([
      ['1', 1, 'finished'],
      ['2', 2, 'finished'],
      ['3', null, 'DNF'],
    ]);
    expect(cut.rows[2].cutoff).toEqual({
      lap: 2,
      pointKey: 'lap:2',
      outcome: 'DNF',
      reason: 'late',
      deadlineMs: GUN + 5 * MIN,
      readMs: GUN + 6.5 * MIN,
      overridden: false,
    });
    expect(cut.chart.map((r: { bib: string }) => r.bib)).toEqual(['1', '2']);
    // A later deadline never adds one: at 7 minutes nobody is out.
    await format({ lapCutoffs: [{ laps: 2, elapsedMinutes: 7, outcome: 'overTime' }] });
    expect((await table()).rows.every((r: { cutoff: unknown }) => r.cutoff === null)).toBe(true);

    await format({ lapCutoffs: [{ laps: 2, afterGunMinutes: 5, outcome: 'overTime' }] });
    expect((await table()).rows[2]).toMatchObject({ bib: '3', status: 'overTime', rank: null });
    const reinstate = await send('PUT', '/api/console/races/lapcut/cutoff-overrides', {
      bib: '3',
      pointKey: 'lap:2',
      reinstated: true,
    });
    expect(reinstate.statusCode).toBe(200);
    const back = await table();
    expect(back.rows[2]).toMatchObject({
      bib: '3',
      rank: 3,
      status: 'finished',
      cutoff: { overridden: true },
    });
    await send('PUT', '/api/console/races/lapcut/cutoff-overrides', {
      bib: '3',
      pointKey: 'lap:2',
      reinstated: false,
    });
    expect((await table()).rows[2]).toMatchObject({ status: 'overTime', cutoff: { overridden: false } });
  });
});
