import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/helpers.ts';
import { createTestUser } from '../../../../test/identity-helpers.ts';
import { DEMO_ORG } from '../../../../test/routes/route-table.ts';
import { DEMO_DB } from '../../../seed/demo-races.ts';
import { hashKey, insertDevice } from '../../results/port.ts';

const GUN = Date.UTC(2026, 11, 4, 9);
const MIN = 60_000;
const RACE = 'tenk43';
const DEVICE_KEY = 'tdk_review_field_device_1';

/**
 * Issue 43, "a review that catches what a timer would": a 10 km seeded with one fault of each
 * kind the issue lists; the review finds exactly those, and each one-click fix (the desk's
 * corrections and statuses, as the console's review panel sends them) clears its fault.
 */
describe('the review catches what a timer would (issue 43)', () => {
  let app: FastifyInstance;
  let owner: string;
  const send = (url: string, payload: unknown) =>
    app.inject({ method: 'POST', url, headers: { authorization: owner }, payload: payload as object });
  const review = async () => {
    const res = await app.inject({
      url: `/api/console/races/${RACE}/review`,
      headers: { authorization: owner },
    });
    expect(res.statusCode).toBe(200);
    return res.json().anomalies as {
      kind: string;
      bib: string;
      pointId: string | null;
      reads: { id: string }[];
    }[];
  };
  const listed = async () =>
    (await review()).map((a) => `${a.kind} ${a.bib}${a.pointId ? ` ${a.pointId}` : ''}`);

  beforeAll(async () => {
    app = await buildTestApp();
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
    const race = (id: string, points: { key: string; name: string; distanceM: number }[]) =>
      send(`/api/results/contexts/${DEMO_DB}/races`, {
        id,
        name: id,
        date: '2026-12-04',
        distanceM: points.at(-1)!.distanceM,
        startType: 'mass',
        gunTimeMs: GUN,
        categories: [],
        points,
      });
    await race(RACE, [
      { key: 't5', name: '5 km', distanceM: 5000 },
      { key: 'tfin', name: 'Finish', distanceM: 10_000 },
    ]);
    await race('fivek43', [{ key: 'f2', name: '2 km', distanceM: 2000 }]);
    const runner = (bib: string, chips: string[] = []) => ({
      bib,
      firstName: 'R',
      lastName: bib,
      gender: 'M',
      ...(chips.length ? { chips } : {}),
    });
    const added = await send(`/api/results/contexts/${DEMO_DB}/races/${RACE}/participants`, {
      participants: [
        runner('T1'),
        runner('T2'),
        runner('T3'),
        runner('T4'),
        runner('T5'),
        runner('T6'),
        runner('T7'),
        runner('T8'),
        runner('T9', ['C9']),
        runner('T10', ['C9']),
        runner('T11'),
      ],
    });
    expect(added.statusCode).toBe(201);
    const read = (who: { bib?: string; chip?: string }, point: string, minutes: number) => ({
      id: `${who.bib ?? who.chip}-${point}-${minutes}`,
      ...who,
      point,
      time: GUN + Math.round(minutes * MIN),
    });
    const both = (bib: string, k5: number, fin: number) => [
      read({ bib }, 't5', k5),
      read({ bib }, 'tfin', fin),
    ];
    const stored = await send(`/api/results/contexts/${DEMO_DB}/passings`, {
      passings: [
        ...both('T1', 19, 38),
        ...both('T2', 20, 40),
        ...both('T3', 21, 826.7), // 13:46:42 over 10 km: slower than 3 × the median
        ...both('T4', 12.5, 25), // 25 minutes, the next one 38: ahead of the field
        // T5: no read at all (a DNS candidate)
        read({ bib: 'T6' }, 't5', 22), // started, never finished (a DNF candidate)
        read({ bib: 'T7' }, 'tfin', 42), // finished without the 5 km (a short cut?)
        read({ bib: 'T8' }, 't5', -1), // read before the gun
        read({ bib: 'T8' }, 'tfin', 41),
        ...both('T9', 20.5, 41.5),
        ...both('T10', 21.5, 43.5),
        ...both('T11', 19.5, 39),
        read({ bib: 'T11' }, 'f2', 8), // on the 5 km's course
        read({ bib: '99' }, 'tfin', 44), // nobody's bib
      ],
    });
    expect(stored.json(), stored.body).toMatchObject({ accepted: 20 });
    // The chip both T9 and T10 carry, read by the 5 km mat's decoder.
    await insertDevice(app.database, {
      db: DEMO_DB,
      name: '5 km',
      keyHash: hashKey(DEVICE_KEY),
      pointKey: 't5',
    });
    const chip = await app.inject({
      method: 'POST',
      url: '/api/ingest/passings',
      headers: { 'x-device-key': DEVICE_KEY },
      payload: { passings: [{ id: 'c9-t5', chip: 'C9', time: GUN + 20.7 * MIN }] },
    });
    expect(chip.json()).toMatchObject({ accepted: 1 });
  });
  afterAll(() => app.close());

  it('names a point of another race’s course as that race does', async () => {
    const off = (await review()).find((a) => a.kind === 'otherCourse') as unknown;
    expect(off).toMatchObject({ bib: 'T11', pointId: 'f2', pointName: { en: '2 km', fr: '2 km' } });
  });

  it('lists each seeded fault and nothing else', async () => {
    const found = (await listed()).map((a) => a.replace(/^sharedChip T(9|10) /, 'sharedChip T9|T10 '));
    expect(found.sort()).toEqual(
      [
        'missingRead T7 t5',
        'tooSlow T3 tfin',
        'aheadOfField T4 tfin',
        'dnsCandidate T5',
        'dnfCandidate T6',
        'beforeStart T8 t5',
        'sharedChip T9|T10 t5',
        'otherCourse T11 f2',
        'unknownRead 99 tfin',
      ].sort(),
    );
  });

  it('clears each fault with its one-click fix through the desk', async () => {
    const desk = `/api/raceday/contexts/${DEMO_DB}`;
    const reason = 'review';
    const anomalies = await review();
    const of = (kind: string) => anomalies.find((a) => a.kind === kind)!;
    const voidRead = (id: string) => send(`${desk}/corrections`, { action: 'void', passingId: id, reason });
    const status = (bib: string, s: string) =>
      send(`${desk}/races/${RACE}/status`, { bib, status: s, reason });
    for (const kind of ['tooSlow', 'beforeStart', 'sharedChip', 'otherCourse', 'unknownRead'])
      expect((await voidRead(of(kind).reads[0]!.id)).statusCode).toBe(201);
    expect((await status('T4', 'DSQ')).statusCode).toBe(201);
    expect((await status('T5', 'DNS')).statusCode).toBe(201);
    expect((await status('T6', 'DNF')).statusCode).toBe(201);
    expect(
      (
        await send(`${desk}/corrections`, {
          action: 'add',
          bib: 'T7',
          pointKey: 't5',
          timeMs: GUN + 21 * MIN,
          reason,
        })
      ).statusCode,
    ).toBe(201);
    // What the fixes reveal: T3's implausible finish voided, T3 has no finish left (a DNF?); T8's
    // read before the gun voided, T8 has no 5 km read (added from the reads around it).
    expect((await listed()).sort()).toEqual(['dnfCandidate T3', 'missingRead T8 t5']);
    expect((await status('T3', 'DNF')).statusCode).toBe(201);
    const add = { action: 'add', bib: 'T8', pointKey: 't5', timeMs: GUN + 20 * MIN, reason };
    expect((await send(`${desk}/corrections`, add)).statusCode).toBe(201);
    expect(await listed()).toEqual([]);
  });
});

/**
 * Issue 43, "slower than a cut-off": a road race's cut-off is a race setting; the review flags a
 * finish slower than it when set, and a multiple of the field's median otherwise.
 */
describe('a road race’s cut-off in the review (issue 43)', () => {
  let app: FastifyInstance;
  let owner: string;
  const CUT = 'cut43';
  const send = (method: 'POST' | 'PUT', url: string, payload: unknown) =>
    app.inject({ method, url, headers: { authorization: owner }, payload: payload as object });
  const slow = async () => {
    const res = await app.inject({
      url: `/api/console/races/${CUT}/review`,
      headers: { authorization: owner },
    });
    expect(res.statusCode).toBe(200);
    return (res.json().anomalies as { kind: string; bib: string }[])
      .filter((a) => a.kind === 'tooSlow')
      .map((a) => a.bib);
  };

  beforeAll(async () => {
    app = await buildTestApp();
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
    expect(
      (
        await send('POST', `/api/results/contexts/${DEMO_DB}/races`, {
          id: CUT,
          name: CUT,
          date: '2026-12-04',
          distanceM: 10_000,
          startType: 'mass',
          gunTimeMs: GUN,
          categories: [],
          points: [{ key: 'cfin', name: 'Finish', distanceM: 10_000 }],
        })
      ).statusCode,
    ).toBe(201);
    const bibs = ['K1', 'K2', 'K3', 'K4'];
    await send('POST', `/api/results/contexts/${DEMO_DB}/races/${CUT}/participants`, {
      participants: bibs.map((bib) => ({ bib, firstName: 'K', lastName: bib, gender: 'F' })),
    });
    // 40, 42, 44 and 75 minutes: 75 is under three times the median (126), over a 70-minute cut-off.
    const stored = await send('POST', `/api/results/contexts/${DEMO_DB}/passings`, {
      passings: [40, 42, 44, 75].map((m, k) => ({
        id: `k-${k}`,
        bib: bibs[k],
        point: 'cfin',
        time: GUN + m * MIN,
      })),
    });
    expect(stored.json()).toMatchObject({ accepted: 4 });
  });
  afterAll(() => app.close());

  it('uses the median without a cut-off, the race’s cut-off once set, and refuses a bad one', async () => {
    expect(await slow()).toEqual([]);
    const set = await send('PUT', `/api/console/races/${CUT}/format`, { kind: 'road', cutoffMinutes: 70 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().format).toEqual({ kind: 'road', cutoffMinutes: 70 });
    expect(await slow()).toEqual(['K4']);
    const bad = await send('PUT', `/api/console/races/${CUT}/format`, { kind: 'road', cutoffMinutes: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
    expect(await slow()).toEqual(['K4']);
    // A cut-off above every finish flags nobody.
    await send('PUT', `/api/console/races/${CUT}/format`, { kind: 'road', cutoffMinutes: 90 });
    expect(await slow()).toEqual([]);
  });
});
