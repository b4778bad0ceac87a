import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
const GUN = Date.UTC(2026, 10, 29, 8);
const MIN = 60_000;

describe('multisport and relay leg tables (issue 31)', () => {
  let app: FastifyInstance;
  let owner: string;
  const send = (method: 'POST' | 'PUT', url: string, payload: unknown) =>
    app.inject({ method, url, headers: { authorization: owner }, payload: payload as object });

  async function raceWith(id: string, points: [string, number][], bibs: [string, string][]) {
    const created = await send('POST', `/api/results/contexts/${DEMO_DB}/races`, {
      id,
      name: id,
      date: '2026-11-29',
      distanceM: points.at(-1)![1],
      startType: 'mass',
      gunTimeMs: GUN,
      categories: [],
      points: points.map(([key, distanceM]) => ({ key, name: key, distanceM })),
    });
    expect(created.statusCode).toBe(201);
    const people = await send('POST', `/api/results/contexts/${DEMO_DB}/races/${id}/participants`, {
      participants: bibs.map(([bib, gender]) => ({ bib, firstName: 'A', lastName: bib, gender })),
    });
    expect(people.statusCode).toBe(201);
  }
  const reads = (list: [string, string, number][]) =>
    send('POST', `/api/results/contexts/${DEMO_DB}/passings`, {
      passings: list.map(([bib, point, minutes]) => ({
        id: `${bib}-${point}`,
        bib,
        point,
        time: GUN + minutes * MIN,
      })),
    });
  const legs = (race: string) => app.inject(`/api/results/contexts/${DEMO_DB}/races/${race}/legs`);

  beforeAll(async () => {
    app = await buildTestApp();
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
  });
  afterAll(() => app.close());

  it('a triathlon: leg times, leg ranks overall and by gender, the athlete still on the bike', async () => {
    const points: [string, number][] = [
      ['swim', 750],
      ['t1', 760],
      ['bike', 20_760],
      ['t2', 20_770],
      ['finish', 25_770],
    ];
    await raceWith('tri', points, [
      ['1', 'F'],
      ['2', 'M'],
      ['3', 'M'],
    ]);
    expect((await legs('tri')).statusCode).toBe(404);
    const kinds = ['discipline', 'transition', 'discipline', 'transition', 'discipline'];
    const format = await send('PUT', '/api/console/races/tri/format', {
      kind: 'multisport',
      legs: points.map(([key], k) => ({ pointKey: key, kind: kinds[k], name: { en: key, fr: key } })),
    });
    expect(format.statusCode).toBe(200);
    const ok = await reads([
      ['1', 'swim', 12],
      ['1', 't1', 13.5],
      ['1', 'bike', 50],
      ['1', 't2', 51],
      ['1', 'finish', 72],
      ['2', 'swim', 11],
      ['2', 't1', 13],
      ['2', 'bike', 48],
      ['2', 't2', 49.5],
      ['2', 'finish', 71],
      ['3', 'swim', 10],
      ['3', 't1', 11],
    ]);
    expect(ok.json().accepted).toBe(12);
    const res = await legs('tri');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.format).toBe('multisport');
    expect(body.legs.map((l: { kind: string }) => l.kind)).toEqual(kinds);
    const row = (bib: string) => body.rows.find((r: { bib: string }) => r.bib === bib);
    expect(body.rows.map((r: { bib: string }) => r.bib)).toEqual(['2', '1', '3']);
    expect(row('2')).toMatchObject({ rank: 1, totalMs: 71 * MIN, status: 'finished' });
    expect(row('1').legs.map((l: { timeMs: number }) => l.timeMs / MIN)).toEqual([12, 1.5, 36.5, 1, 21]);
    // Swim: 3 (10 min) 1st, 2 (11) 2nd, 1 (12) 3rd overall and 1st woman.
    expect(row('1').legs[0]).toEqual({ timeMs: 12 * MIN, rank: 3, genderRank: 1 });
    expect(row('3')).toMatchObject({ rank: null, status: 'onCourse', currentLeg: 2 });
  });

  it('a relay: the team time is the sum of its legs, a late team goes off with the mass start', async () => {
    await raceWith(
      'relay',
      [
        ['x1', 5000],
        ['finish', 10_000],
      ],
      [
        ['T1', 'X'],
        ['T2', 'X'],
      ],
    );
    const format = await send('PUT', '/api/console/races/relay/format', {
      kind: 'relay',
      legs: [
        { pointKey: 'x1', name: { en: 'Leg 1', fr: 'Relais 1' } },
        { pointKey: 'finish', name: { en: 'Leg 2', fr: 'Relais 2' }, massStartMinutes: 30 },
      ],
    });
    expect(format.statusCode).toBe(200);
    await reads([
      ['T1', 'x1', 20],
      ['T1', 'finish', 41],
      ['T2', 'x1', 35], // after the leg-2 mass start at 30 min: leg 2 runs from 30
      ['T2', 'finish', 52],
    ]);
    const body = (await legs('relay')).json();
    expect(
      body.rows.map((r: { bib: string; rank: number; totalMs: number }) => [r.bib, r.rank, r.totalMs / MIN]),
    ).toEqual([
      ['T1', 1, 41],
      ['T2', 2, 57],
    ]);
    expect(body.rows[1].legs.map((l: { timeMs: number; rank: number }) => [l.timeMs / MIN, l.rank])).toEqual([
      [35, 2],
      [22, 2],
    ]);
  });
});
