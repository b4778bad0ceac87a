import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
const GUN = Date.UTC(2026, 10, 28, 14);
const MIN = 60_000;

describe('lap race live table (issue 31)', () => {
  let app: FastifyInstance;
  let owner: string;
  const post = (url: string, payload: unknown) =>
    app.inject({ method: 'POST', url, headers: { authorization: owner }, payload: payload as object });
  const table = async () => app.inject(`/api/results/contexts/${DEMO_DB}/races/crit/laps`);

  beforeAll(async () => {
    app = await buildTestApp();
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
    const created = await post(`/api/results/contexts/${DEMO_DB}/races`, {
      id: 'crit',
      name: 'Criterium',
      date: '2026-11-28',
      distanceM: 6000,
      startType: 'mass',
      gunTimeMs: GUN,
      categories: [],
      points: [{ key: 'line', name: 'Line', distanceM: 1200 }],
    });
    expect(created.statusCode).toBe(201);
    const people = await post(`/api/results/contexts/${DEMO_DB}/races/crit/participants`, {
      participants: [
        { bib: '1', firstName: 'Ann', lastName: 'Fast', gender: 'F' },
        { bib: '2', firstName: 'Bob', lastName: 'Steady', gender: 'M' },
        { bib: '3', firstName: 'Cid', lastName: 'Lapped', gender: 'M' },
      ],
    });
    expect(people.statusCode).toBe(201);
  });
  afterAll(() => app.close());

  it('is refused while the race is a road race', async () => {
    const res = await table();
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_A_LAP_RACE');
  });

  it('counts laps from the reads, ignores re-reads inside the minimum lap, ranks by laps then time', async () => {
    const format = await app.inject({
      method: 'PUT',
      url: '/api/console/races/crit/format',
      headers: { authorization: owner },
      payload: { kind: 'laps', lapPointKey: 'line', minLapS: 60, lapLengthM: 1200, targetLaps: 3 },
    });
    expect(format.statusCode).toBe(200);
    const read = (bib: string, minutes: number) => ({
      id: `${bib}-${minutes}`,
      bib,
      point: 'line',
      time: GUN + minutes * MIN,
    });
    const passings = [
      read('1', 2),
      read('1', 2.5), // a re-read within the minute
      read('1', 4),
      read('1', 6), // the leader's third lap: the race is over
      read('2', 2.1),
      read('2', 4.2),
      read('2', 6.3),
      read('3', 3),
      read('3', 6.5), // lapped: finishes on this crossing with 2 laps
      read('3', 9), // after their finish: never counted
    ];
    const ingest = await post(`/api/results/contexts/${DEMO_DB}/passings`, { passings });
    expect(ingest.json().accepted).toBe(passings.length);
    const res = await table();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ raceId: 'crit', format: 'laps', leaderLaps: 3, lapsToGo: 0 });
    expect(
      body.rows.map((r: Record<string, unknown>) => [
        r.rank,
        r.bib,
        r.laps,
        r.lastLapMs,
        r.bestLapMs,
        r.lapsDown,
        r.status,
      ]),
    ).toEqual([
      [1, '1', 3, 2 * MIN, 2 * MIN, 0, 'finished'],
      [2, '2', 3, 2.1 * MIN, 2.1 * MIN, 0, 'finished'],
      [3, '3', 2, 3.5 * MIN, 3 * MIN, 1, 'finished'],
    ]);
  });

  it('says provisional until published, then open to protests, then official again after a take-back', async () => {
    expect((await table()).json().publication).toEqual({ state: 'provisional' });
    const publish = (payload: unknown) =>
      app.inject({
        method: 'PUT',
        url: '/api/console/races/crit/publication',
        headers: { authorization: owner },
        payload: payload as object,
      });
    const open = await publish({ official: true, protestWindowMinutes: 30 });
    expect(open.statusCode).toBe(200);
    expect(open.json().publication.protestWindowMs).toBe(30 * MIN);
    const during = (await table()).json().publication;
    expect(during.state).toBe('protestOpen');
    expect(during.protestEndsMs).toBe(open.json().publication.publishedAtMs + 30 * MIN);
    expect((await publish({ official: true })).json().publication.protestWindowMs).toBe(0);
    expect((await table()).json().publication).toEqual({ state: 'official' });
    // Re-opening official results needs a reason (issue 43: kept as a correction spectators see).
    const unexplained = await publish({ official: false });
    expect(unexplained.statusCode).toBe(400);
    expect((await table()).json().publication).toEqual({ state: 'official' });
    expect((await publish({ official: false, reason: 'a lap was missed' })).json().publication).toBeNull();
    expect((await table()).json().publication).toEqual({ state: 'provisional' });
    expect((await publish({ official: 'yes' })).statusCode).toBe(400);
  });
});
