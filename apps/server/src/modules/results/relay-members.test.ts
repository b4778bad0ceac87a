import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
const MIN = 60_000;

describe('a relay team’s members and who is on course (issue 31)', () => {
  let app: FastifyInstance;
  let owner: string;
  const GUN = Date.now() - 30 * MIN;
  const send = (method: 'POST' | 'PUT', url: string, payload: unknown) =>
    app.inject({ method, url, headers: { authorization: owner }, payload: payload as object });

  beforeAll(async () => {
    app = await buildTestApp();
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
    await send('POST', `/api/results/contexts/${DEMO_DB}/races`, {
      id: 'ekiden',
      name: 'Ekiden',
      date: new Date(GUN).toISOString().slice(0, 10),
      distanceM: 15_000,
      startType: 'mass',
      gunTimeMs: GUN,
      categories: [],
      points: [
        { key: 'x1', name: 'x1', distanceM: 5000 },
        { key: 'x2', name: 'x2', distanceM: 10_000 },
        { key: 'finish', name: 'finish', distanceM: 15_000 },
      ],
    });
    await send('POST', `/api/results/contexts/${DEMO_DB}/races/ekiden/participants`, {
      participants: [
        { bib: 'T1', firstName: 'Les Rapides', lastName: '', gender: 'X' },
        { bib: 'T2', firstName: 'Les Autres', lastName: '', gender: 'X' },
      ],
    });
    await send('PUT', '/api/console/races/ekiden/format', {
      kind: 'relay',
      legs: ['x1', 'x2', 'finish'].map((k, i) => ({
        pointKey: k,
        name: { en: `Leg ${i + 1}`, fr: `Relais ${i + 1}` },
      })),
    });
  });
  afterAll(() => app.close());

  it('stores the members by team, refuses an unknown team, names who is on course', async () => {
    const unknown = await send('PUT', '/api/console/races/ekiden/relay-members', {
      teams: [{ bib: 'T9', members: ['A', 'B', 'C'] }],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].field).toBe('teams.0.bib');
    const set = await send('PUT', '/api/console/races/ekiden/relay-members', {
      teams: [
        { bib: 'T1', members: ['Zoé', 'Yann', 'Xavier & Wim'] },
        { bib: 'T2', members: ['Vera', '', 'Ugo'] },
      ],
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().relayMembers.T1).toEqual(['Zoé', 'Yann', 'Xavier & Wim']);
    await send('POST', `/api/results/contexts/${DEMO_DB}/passings`, {
      passings: [
        { id: 'T1-x1', bib: 'T1', point: 'x1', time: GUN + 18 * MIN },
        { id: 'T2-x1', bib: 'T2', point: 'x1', time: GUN + 21 * MIN },
      ],
    });
    const body = (await app.inject(`/api/results/contexts/${DEMO_DB}/races/ekiden/legs`)).json();
    const t1 = body.rows.find((r: { bib: string }) => r.bib === 'T1');
    expect(t1.members).toEqual([['Zoé'], ['Yann'], ['Xavier & Wim']]);
    expect(t1.onCourse).toEqual(['Yann']);
    expect(t1.currentLeg).toBe(1);
    const t2 = body.rows.find((r: { bib: string }) => r.bib === 'T2');
    expect(t2.members).toEqual([['Vera'], [], ['Ugo']]);
  });
});
