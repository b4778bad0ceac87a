import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';

// Issue 13: CSV imports validate as the JSON API does (one schema), refuse out-of-range numbers
// with a 400 (not a 500 from PostgreSQL), and read quoted `;` files whatever their size.

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';

let app: FastifyInstance;
let owner: string;
beforeAll(async () => {
  app = await buildTestApp();
  owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
    .authorization;
  const race = await app.inject({
    method: 'POST',
    url: `/api/results/contexts/${DEMO_DB}/races`,
    headers: { authorization: owner },
    payload: {
      id: 'limits-5k',
      name: '5 km',
      date: '2026-11-23',
      distanceM: 5000,
      startType: 'mass',
      points: [{ key: 'finish', name: 'Finish', distanceM: 5000 }],
    },
  });
  expect(race.statusCode).toBe(201);
});
afterAll(() => app.close());

const send = (url: string, body: string, type = 'text/csv') =>
  app.inject({ method: 'POST', url, headers: { authorization: owner, 'content-type': type }, payload: body });
const participantsUrl = `/api/results/contexts/${DEMO_DB}/races/limits-5k/import/participants?bib=Bib&firstName=First&lastName=Last&gender=G&club=Club`;
const count = async () =>
  (await app.database.query("SELECT 1 FROM participants WHERE race_id = 'limits-5k'")).length;

describe('CSV and JSON share one validation', () => {
  it('a name, bib or club longer than the JSON API allows is refused in a CSV too', async () => {
    const long = 'x'.repeat(81);
    const res = await send(
      participantsUrl,
      `Bib;First;Last;G;Club\n1;Ana;${long};F;RC\n${'9'.repeat(33)};Bo;Ek;M;\n3;Cy;Do;M;${'c'.repeat(121)}\n`,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('CSV_ROWS_INVALID');
    expect(
      res.json().errors.map((e: { field: string; message: string }) => [e.field, e.message.split(':')[0]]),
    ).toEqual([
      ['line 2', 'lastName'],
      ['line 3', 'bib'],
      ['line 4', 'club'],
    ]);
    const json = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/races/limits-5k/participants`,
      headers: { authorization: owner },
      payload: { participants: [{ bib: '1', firstName: 'Ana', lastName: long, gender: 'F' }] },
    });
    expect(json.statusCode).toBe(400);
    expect(await count()).toBe(0);
  });

  it('reads quoted fields holding the delimiter, tabs, and a BOM', async () => {
    const res = await send(
      participantsUrl,
      '\ufeffBib\tFirst\tLast\tG\tClub\n7\t"Jean; Paul"\t"O""Neil"\tM\t"AC\tX"\n',
    );
    expect(res.statusCode).toBe(201);
    const [row] = await app.database.query<{ first_name: string; last_name: string }>(
      "SELECT first_name, last_name FROM participants WHERE race_id = 'limits-5k' AND bib = '7'",
    );
    expect(row).toEqual({ first_name: 'Jean; Paul', last_name: 'O"Neil' });
  });
});

describe('out-of-range numbers', () => {
  it('a CSV time past year 9999 is a 400 naming the line, nothing stored', async () => {
    const before = (await app.database.query('SELECT count(*)::int AS n FROM passings'))[0];
    const res = await send(
      `/api/results/contexts/${DEMO_DB}/import/passings?bib=Bib&time=Time&defaultPoint=finish`,
      'Bib;Time\n7;99999999999999999999\n',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('line 2');
    expect((await app.database.query('SELECT count(*)::int AS n FROM passings'))[0]).toEqual(before);
  });

  it('JSON times, gun times and start times past year 9999 are 400s', async () => {
    const manual = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/passings`,
      headers: { authorization: owner },
      payload: { passings: [{ bib: '7', point: 'finish', time: 1e20 }] },
    });
    expect(manual.statusCode).toBe(400);
    const race = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/races`,
      headers: { authorization: owner },
      payload: {
        id: 'far-future',
        name: 'x',
        date: '2026-11-23',
        distanceM: 5000,
        startType: 'mass',
        gunTimeMs: 1e20,
        points: [{ key: 'finish', name: 'Finish', distanceM: 5000 }],
      },
    });
    expect(race.statusCode).toBe(400);
  });
});
