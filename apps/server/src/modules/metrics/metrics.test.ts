import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFormats } from '../../../test/contract/seed-formats.ts';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { repoRoot } from '../../paths.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';

const TOKEN = 'metrics-token-0123456789';
const DEMO_ORG = '00000000-0000-4000-8000-000000000001';

describe('GET /metrics (issue 41)', () => {
  let app: FastifyInstance;
  let owner: string;
  beforeAll(async () => {
    app = await buildTestApp({ METRICS_TOKEN: TOKEN, RESULTS_PUBLISH_MS: '0' });
    await app.ready();
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
  }, 240_000);
  afterAll(() => app.close());

  const scrape = () => app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });

  it('refuses a caller without the token, a signed-in organiser included', async () => {
    for (const authorization of [undefined, owner, `Bearer ${TOKEN}x`, TOKEN]) {
      const res = await app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
  });

  it('refuses everyone while METRICS_TOKEN is unset', async () => {
    const bare = await buildTestApp();
    try {
      expect((await bare.inject({ url: '/metrics', headers: { authorization: 'Bearer ' } })).statusCode).toBe(
        401,
      );
    } finally {
      await bare.close();
    }
  });

  it('counts requests by route, reads by device and point, publication lag, realtime and pool', async () => {
    await app.inject(`/api/results/contexts/${DEMO_DB}/races`);
    const device = await app.inject({
      method: 'POST',
      url: `/api/results/contexts/${DEMO_DB}/devices`,
      headers: { authorization: owner },
      payload: { name: 'finish mat', pointKey: 'finish' },
    });
    expect(device.statusCode).toBe(201);
    const ingest = await app.inject({
      method: 'POST',
      url: '/api/ingest/passings',
      headers: { 'x-device-key': device.json().key },
      payload: {
        passings: [
          { bib: '1', time: Date.now() },
          { bib: '2', time: Date.now() + 1000 },
        ],
      },
    });
    expect(ingest.statusCode).toBeLessThan(300);
    // Reads that change results (a triathlon and a relay set up by an organiser): published.
    await seedFormats(app, owner);
    await app.results.settle(DEMO_DB);
    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(text).toMatch(
      /tempora_http_request_duration_seconds_count\{[^}]*route="\/api\/results\/contexts\/:db\/races"[^}]*\} 1/,
    );
    const reads = new RegExp(
      `tempora_reads_ingested_total\\{[^}]*db="${DEMO_DB}",device="${device.json().id}",point="finish"[^}]*\\} 2`,
    );
    expect(text).toMatch(reads);
    expect(text).toMatch(
      new RegExp(`tempora_publication_lag_seconds_count\\{[^}]*db="${DEMO_DB}"[^}]*\\} [1-9]`),
    );
    expect(text).toMatch(/tempora_realtime_connections\{[^}]*\} 0/);
    expect(text).toMatch(/tempora_realtime_channels_occupied\{[^}]*\} 0/);
    expect(text).toMatch(/tempora_db_pool_connections\{state="total"[^}]*\} 1/);
    expect(text).toMatch(/nodejs_eventloop_lag_seconds\{node="[^"]+"\} /);
  });

  it('the race-day dashboard (docs/grafana-race-day.json) plots only series the node exposes', async () => {
    const dashboard = JSON.parse(fs.readFileSync(path.join(repoRoot, 'docs/grafana-race-day.json'), 'utf8'));
    const exprs: string[] = dashboard.panels.flatMap((p: { targets: { expr: string }[] }) =>
      p.targets.map((t) => t.expr),
    );
    const names = new Set(exprs.flatMap((e) => e.match(/\b(tempora|nodejs)_[a-z_0-9]+/g) ?? []));
    expect(names.size).toBeGreaterThan(6);
    const exposed = (await scrape()).body;
    expect([...names].filter((n) => !exposed.includes(`${n}{`) && !exposed.includes(`${n} `))).toEqual([]);
  });
});
