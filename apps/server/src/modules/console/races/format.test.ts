import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/helpers.ts';
import { createTestUser, type TestUser } from '../../../../test/identity-helpers.ts';
import { DEMO_ORG } from '../../../../test/routes/route-table.ts';

describe('race format in the console (issue 31)', () => {
  let app: FastifyInstance;
  let owner: TestUser;
  let timekeeper: TestUser;
  const url = '/api/console/races/city-10k/format';

  const put = async (who: TestUser, payload: unknown) => {
    const res = await app.inject({
      method: 'PUT',
      url,
      headers: { authorization: who.authorization },
      payload: payload as object,
    });
    // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field below
    return { status: res.statusCode, type: String(res.headers['content-type']), body: res.json() as any };
  };

  beforeAll(async () => {
    app = await buildTestApp();
    owner = await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] });
    timekeeper = await createTestUser(app, {
      memberships: [{ organisationId: DEMO_ORG, role: 'timekeeper' }],
    });
  });
  afterAll(() => app.close());

  it('is the road race until set, then keeps each format with its parameters', async () => {
    const race = await app.inject({
      method: 'GET',
      url: '/api/console/races/city-10k',
      headers: { authorization: owner.authorization },
    });
    const points: { key: string }[] = race.json().points;
    expect(race.json().format).toEqual({ kind: 'road' });
    const finish = points.at(-1)!.key;
    const laps = { kind: 'laps', lapPointKey: finish, minLapS: 60, lapLengthM: 1200, targetLaps: 30 };
    const set = await put(owner, laps);
    expect(set.status).toBe(200);
    expect(set.body.format).toEqual(laps);
    const relay = {
      kind: 'relay',
      legs: points.slice(1).map((p, k) => ({
        pointKey: p.key,
        name: { en: `Leg ${k + 1}`, fr: `Relais ${k + 1}` },
        ...(k === 1 ? { massStartMinutes: 90 } : {}),
      })),
    };
    expect((await put(owner, relay)).body.format).toEqual(relay);
    const [row] = await app.database.query<{ format: unknown }>(
      `SELECT rules->'format' AS format FROM races WHERE id = 'city-10k'`,
    );
    expect(row?.format).toEqual(relay);
    expect((await put(owner, { kind: 'road' })).body.format).toEqual({ kind: 'road' });
  });

  it('refuses bad input with field errors, and timekeepers', async () => {
    const unknownPoint = await put(owner, {
      kind: 'timeLimited',
      lapPointKey: 'nowhere',
      minLapS: 60,
      lapLengthM: 400,
      limitMinutes: 1440,
      partialLap: 'measured',
    });
    expect(unknownPoint.status).toBe(400);
    expect(unknownPoint.type).toContain('application/problem+json');
    expect(unknownPoint.body.errors[0].field).toBe('lapPointKey');
    const bad = await put(owner, {
      kind: 'backyard',
      lapPointKey: 'x',
      minLapS: -1,
      lapLengthM: 0,
      intervalMinutes: 60,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['lapLengthM', 'minLapS']);
    expect((await put(owner, { kind: 'criterium' })).status).toBe(400);
    expect((await put(timekeeper, { kind: 'road' })).status).toBe(403);
  });
});
