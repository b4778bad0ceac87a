import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';

describe('CSV imports through a column mapping', () => {
  let app: FastifyInstance;
  let owner: string;
  const gun = Date.UTC(2026, 10, 23, 9, 0, 0);
  beforeAll(async () => {
    app = await buildTestApp();
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
    const race = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/races`,
      headers: { authorization: owner },
      payload: {
        id: 'csv-5k',
        name: '5 km',
        date: '2026-11-23',
        distanceM: 5000,
        startType: 'mass',
        gunTimeMs: gun,
        points: [{ key: 'finish', name: 'Finish', distanceM: 5000 }],
      },
    });
    expect(race.statusCode).toBe(201);
  });
  afterAll(() => app.close());

  const csv = (url: string, body: string) =>
    app.inject({
      method: 'POST',
      url,
      headers: { authorization: owner, 'content-type': 'text/csv' },
      payload: body,
    });

  it('imports participants with the organiser’s column names, refusing the whole file on any bad row', async () => {
    const url = `/api/results/contexts/${DEMO_DB}/races/csv-5k/import/participants?bib=Dossard&firstName=Prénom&lastName=Nom&gender=Sexe&age=Age&club=Club&nationality=Pays`;
    const bad = await csv(
      url,
      'Dossard;Prénom;Nom;Sexe;Age;Club;Pays\n501;Ana;Lima;F;31;RC;BRA\n502;Bo;Ek;Q;40;;SWE\n',
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: 'line 3', message: "unknown gender 'Q'" }]);
    const missing = await csv(url.replace('Sexe', 'Genre'), 'Dossard;Prénom;Nom;Sexe;Age;Club;Pays\n');
    expect(missing.json().code).toBe('CSV_MAPPING_INVALID');
    expect((await app.database.query("SELECT 1 FROM participants WHERE race_id = 'csv-5k'")).length).toBe(0);
    const ok = await csv(
      url,
      'Dossard;Prénom;Nom;Sexe;Age;Club;Pays\n501;Ana;Lima;F;31;RC;BRA\n502;Bo;Ek;H;40;;SWE\n',
    );
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toEqual({ added: 2 });
  });

  it('imports passings (time of day on a given day), then ranks them', async () => {
    const url = `/api/results/contexts/${DEMO_DB}/import/passings?bib=Bib&time=Heure&defaultPoint=finish&day=2026-11-23`;
    const bad = await csv(url, 'Bib,Heure\n501,9:25:00\n502,later\n');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toEqual({ field: 'line 3', message: "bad time 'later'" });
    const ok = await csv(url, 'Bib,Heure\n501,9:25:00\n502,9:21:30\n');
    expect(ok.json()).toEqual({ accepted: 2, duplicates: 0 });
    const rows = (await app.inject('/api/results/demo-city-run/groups/csv-5k/reports/LIVE1')).json()
      .rows as unknown[][];
    expect(rows.map((r) => [r[3], r[2]])).toEqual([
      ['502', '1'],
      ['501', '2'],
    ]);
    const again = await csv(url, 'Bib,Heure\n501,9:25:00\n');
    expect(again.json()).toEqual({ accepted: 0, duplicates: 1 });
  });
});
