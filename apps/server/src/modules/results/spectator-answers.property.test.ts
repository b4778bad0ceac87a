import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';

/**
 * Issue 41, "response validation turns a data edge into an outage": the time-trial board answered
 * 500 for a finisher without a net time. Random races as an organiser may leave them — mass, wave
 * and individual starts, no gun, individual starts missing, DNS/DNF/DSQ, reads at the start mat
 * and the points, re-reads and corrections, road, lap, multisport and relay formats — and every
 * spectator answer of each (reports, stats, leaders, time trial, laps, legs, teams, course,
 * athlete cards by bib and by tracking key) through the API: the server checks each answer
 * against its declared schema (a mismatch is a 500 in tests), and here it must be a 200, or the
 * 404 a route gives for another format.
 */

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
const GUN = Date.UTC(2026, 5, 1, 8, 0, 0);
const S = 1000;

const FORMATS = {
  road: {
    points: [
      ['p1', 2500],
      ['finish', 5000],
    ] as [string, number][],
    format: undefined,
  },
  laps: {
    points: [['lap', 400]] as [string, number][],
    format: { kind: 'laps', lapPointKey: 'lap', minLapS: 0, lapLengthM: 400, targetLaps: 3 },
  },
  multisport: {
    points: [
      ['swim', 750],
      ['t1', 760],
      ['bike', 20_760],
      ['t2', 20_770],
      ['run', 25_770],
    ] as [string, number][],
    format: {
      kind: 'multisport',
      legs: ['swim', 't1', 'bike', 't2', 'run'].map((key, k) => ({
        pointKey: key,
        kind: k % 2 ? 'transition' : 'discipline',
        name: { en: key, fr: key },
      })),
    },
  },
  relay: {
    points: [
      ['x1', 5000],
      ['x2', 10_000],
    ] as [string, number][],
    format: {
      kind: 'relay',
      legs: [
        { pointKey: 'x1', name: { en: 'Leg 1', fr: 'Relais 1' } },
        { pointKey: 'x2', name: { en: 'Leg 2', fr: 'Relais 2' }, massStartMinutes: 1 },
      ],
    },
  },
} as const;

const scenario = fc.record({
  format: fc.constantFrom(...(Object.keys(FORMATS) as (keyof typeof FORMATS)[])),
  startType: fc.constantFrom('mass' as const, 'waves' as const, 'individual' as const),
  gun: fc.boolean(),
  startMat: fc.boolean(),
  people: fc.array(
    fc.record({
      gender: fc.constantFrom('M' as const, 'F' as const, 'X' as const),
      age: fc.option(fc.integer({ min: 10, max: 85 }), { nil: undefined }),
      status: fc.constantFrom('registered', 'registered', 'registered', 'DNS', 'DNF', 'DSQ'),
      club: fc.constantFrom(undefined, 'AC', 'RC'),
      /** Individual start offset in seconds; undefined: the start is missing. */
      start: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 8 },
  ),
  reads: fc.array(
    fc.record({
      who: fc.nat(9),
      /** -1: the start mat; else a point index (clamped). */
      at: fc.integer({ min: -1, max: 5 }),
      second: fc.integer({ min: -5, max: 900 }),
      deleted: fc.nat(9).map((n) => n === 0),
    }),
    { maxLength: 30 },
  ),
});

describe('every spectator answer keeps its declared schema on random races (issue 41)', () => {
  let app: FastifyInstance;
  let owner: string;
  let run = 0;
  beforeAll(async () => {
    app = await buildTestApp();
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
  }, 240_000);
  afterAll(() => app.close());

  const send = async (method: 'POST' | 'PUT', url: string, payload: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers: { authorization: owner },
      payload: payload as object,
    });
    if (res.statusCode >= 300)
      throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res.json();
  };

  it('answers 200 (or the 404 of another format) with a body of its declared shape', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        run += 1;
        const db = `prop-${run}`;
        await send('POST', '/api/console/events/demo-city-run/contexts', { db, name: `Prop ${run}` });
        const shape = FORMATS[s.format];
        const points = [...(s.startMat ? [['start', 0] as [string, number]] : []), ...shape.points];
        await send('POST', `/api/results/contexts/${db}/races`, {
          id: 'r',
          name: 'Race',
          date: '2026-06-01',
          distanceM: shape.points.at(-1)![1],
          startType: s.startType,
          gunTimeMs: s.gun ? GUN : null,
          ...(s.startType === 'waves' ? { waves: [{ id: 'w1', startTime: GUN }] } : {}),
          categories: [
            { id: 'young', name: 'Young', maxAge: 39 },
            { id: 'F40', name: 'F 40+', gender: 'F', minAge: 40 },
          ],
          points: points.map(([key, distanceM]) => ({
            key,
            name: key,
            distanceM,
            ...(key === 'start' ? { isStart: true } : {}),
          })),
        });
        const raceId = (
          await app.database.query<{ id: string }>('SELECT id FROM races WHERE db = $1', [db])
        )[0]!.id;
        if (shape.format) await send('PUT', `/api/console/races/${raceId}/format`, shape.format);
        await send('POST', `/api/results/contexts/${db}/races/${raceId}/participants`, {
          participants: s.people.map((p, i) => ({
            bib: String(i + 1),
            firstName: `F${i}`,
            lastName: `L${i}`,
            gender: p.gender,
            ...(p.age === undefined ? {} : { age: p.age }),
            ...(p.club ? { club: p.club } : {}),
            ...(s.startType === 'waves' ? { wave: 'w1' } : {}),
            ...(s.startType === 'individual' && p.start !== undefined
              ? { startTime: GUN + p.start * S }
              : {}),
            status: p.status,
          })),
        });
        const reads = s.reads.map((r, k) => {
          const point =
            r.at < 0 && s.startMat ? 'start' : shape.points[Math.max(0, r.at) % shape.points.length]![0];
          return {
            id: `r${k}`,
            bib: String((r.who % (s.people.length + 1)) + 1),
            point,
            time: GUN + r.second * S,
            ...(r.deleted ? { deleted: true } : {}),
          };
        });
        if (reads.length) await send('POST', `/api/results/contexts/${db}/passings`, { passings: reads });

        const race = `/api/results/contexts/${db}/races/${raceId}`;
        const urls = [
          `/api/results/contexts/${db}/races`,
          `${race}/stats`,
          `${race}/leaders`,
          `${race}/timetrial`,
          `${race}/teams`,
          `${race}/course`,
          ...s.people.map((_, i) => `/api/results/contexts/${db}/participants/${i + 1}`),
        ];
        const list = await app.inject(`/api/results/demo-city-run/reportlist`);
        expect(list.statusCode).toBe(200);
        const reports = await app.database.query<{ key: string; group: string }>(
          'SELECT key, group_key AS "group" FROM reports WHERE db = $1',
          [db],
        );
        for (const r of reports)
          urls.push(
            `/api/results/demo-city-run/groups/${r.group}/reports/${r.key}`,
            `/api/results/contexts/${db}/reports/${r.key}`,
          );
        const keys = await app.database.query<{ key: string }>(
          'SELECT tracking_key AS key FROM participants WHERE race_id = $1',
          [raceId],
        );
        urls.push(...keys.map((k) => `/api/tracking/${k.key}`));
        for (const url of urls) {
          const res = await app.inject(url);
          expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
        }
        const laps = await app.inject(`${race}/laps`);
        expect(laps.statusCode, laps.body.slice(0, 300)).toBe(s.format === 'laps' ? 200 : 404);
        const legs = await app.inject(`${race}/legs`);
        const legged = s.format === 'multisport' || s.format === 'relay';
        expect(legs.statusCode, legs.body.slice(0, 300)).toBe(legged ? 200 : 404);
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 40), seed: Number(process.env.PROPERTY_SEED ?? 41) },
    );
  }, 600_000);
});
