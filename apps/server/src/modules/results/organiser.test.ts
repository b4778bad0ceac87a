import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
const OTHER_ORG = '00000000-0000-4000-8000-0000000000ff';

describe('organiser results API', () => {
  let app: FastifyInstance;
  let owner: string;
  let stranger: string;
  let timekeeper: string;
  beforeAll(async () => {
    app = await buildTestApp();
    await app.database.query(`INSERT INTO organisations (id, slug, name) VALUES ($1, 'other', 'Other')`, [
      OTHER_ORG,
    ]);
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
    stranger = (await createTestUser(app, { memberships: [{ organisationId: OTHER_ORG, role: 'owner' }] }))
      .authorization;
    timekeeper = (
      await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'timekeeper' }] })
    ).authorization;
  });
  afterAll(() => app.close());

  const race = {
    id: 'kids-2k',
    name: 'Kids 2 km',
    date: '2026-11-23',
    distanceM: 2000,
    startType: 'mass',
    gunTimeMs: Date.UTC(2026, 10, 23, 9),
    categories: [{ id: 'U12', name: 'Under 12', maxAge: 11 }],
    points: [{ key: 'finish', name: 'Finish', distanceM: 2000 }],
  };

  it('refuses another organisation’s owner, changing nothing', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/races`,
      headers: { authorization: stranger },
      payload: race,
    });
    expect(res.statusCode).toBe(403);
    expect((await app.database.query("SELECT 1 FROM races WHERE id = 'kids-2k'")).length).toBe(0);
    const device = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/devices`,
      headers: { authorization: stranger },
      payload: { name: 'x' },
    });
    expect(device.statusCode).toBe(403);
  });

  it('lets the owner create a race with default reports, participants and a device that ingests', async () => {
    const created = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/races`,
      headers: { authorization: owner },
      payload: race,
    });
    expect(created.statusCode).toBe(201);
    const bad = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/races/kids-2k/participants`,
      headers: { authorization: owner },
      payload: { participants: [{ bib: '1', firstName: 'A', lastName: 'B', gender: 'Q' }] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toContain('gender');
    const people = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/races/kids-2k/participants`,
      headers: { authorization: owner },
      payload: {
        participants: [
          { bib: 'K1', firstName: 'Léa', lastName: 'Petit', gender: 'F', age: 10 },
          { bib: 'K2', firstName: 'Tom', lastName: 'Grand', gender: 'M', age: 11 },
        ],
      },
    });
    expect(people.statusCode).toBe(201);
    const again = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/races/kids-2k/participants`,
      headers: { authorization: owner },
      payload: { participants: [{ bib: 'K1', firstName: 'X', lastName: 'Y', gender: 'F' }] },
    });
    expect(again.statusCode).toBe(409);
    const device = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/devices`,
      headers: { authorization: owner },
      payload: { name: 'Kids finish', pointKey: 'finish' },
    });
    expect(device.statusCode).toBe(201);
    const key = device.json().key as string;
    const ingest = await app.inject({
      method: 'POST',
      url: '/api/ingest/passings',
      headers: { 'x-device-key': key },
      payload: {
        passings: [
          { bib: 'K2', time: race.gunTimeMs + 600_000 },
          { bib: 'K1', time: race.gunTimeMs + 540_000 },
        ],
      },
    });
    expect(ingest.json()).toEqual({ accepted: 2, duplicates: 0 });
    const table = (await app.inject('/api/results/demo-city-run/groups/kids-2k/reports/CAT-U12')).json();
    expect(table.rows.map((r: unknown[]) => r[3])).toEqual(['K1', 'K2']);
  });

  it('lets a timekeeper enter and void a manual passing, kept in the audit trail', async () => {
    const t = race.gunTimeMs + 500_000;
    const manual = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/passings`,
      headers: { authorization: timekeeper },
      payload: { passings: [{ id: 'm1', bib: 'K2', point: 'finish', time: t }] },
    });
    expect(manual.json()).toEqual({ accepted: 1, duplicates: 0 });
    let rows = (await app.inject('/api/results/demo-city-run/groups/kids-2k/reports/LIVE1')).json()
      .rows as unknown[][];
    expect(rows[0]![3]).toBe('K2');
    const voided = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/passings`,
      headers: { authorization: timekeeper },
      payload: { passings: [{ id: 'm1', bib: 'K2', point: 'finish', time: t, deleted: true }] },
    });
    expect(voided.json().accepted).toBe(1);
    rows = (await app.inject('/api/results/demo-city-run/groups/kids-2k/reports/LIVE1')).json()
      .rows as unknown[][];
    expect(rows[0]![3]).toBe('K1');
    const audit = await app.database.query<{ deleted: boolean; created_by: string }>(
      "SELECT deleted, created_by FROM passings WHERE passing_id = 'm1' ORDER BY seq",
    );
    expect(audit.map((a) => a.deleted)).toEqual([false, true]);
    expect(audit[0]!.created_by).toBeTruthy();
    const stranger403 = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/passings`,
      headers: { authorization: stranger },
      payload: { passings: [{ bib: 'K2', point: 'finish', time: t }] },
    });
    expect(stranger403.statusCode).toBe(403);
  });
});
