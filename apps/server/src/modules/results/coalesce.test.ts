import type { AddressInfo } from 'node:net';
import { RESULTS_EVENT, type ReportPatch, unbundleResults } from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { rawSubscriber } from '../../realtime/test-harness.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';
import { F } from './report-builder.ts';
import * as repo from './repository.ts';
import { hashKey } from './service.ts';

// Issue 20: a context publishes at most once per window. A window this long never ends during
// the test: what goes out is what the service publishes at once or on a live read.
const LIVE1 = '/api/results/demo-city-run/groups/city-10k/reports/LIVE1';
const KEY = 'tdk_coalesce_test_key_01';

describe('coalesced publication of a context (RESULTS_PUBLISH_MS)', () => {
  let app: FastifyInstance;
  let gun: number;
  const bundles: ReportPatch[][] = [];
  beforeAll(async () => {
    app = await buildTestApp({ RESULTS_PUBLISH_MS: '60000' });
    await repo.insertDevice(app.database, {
      db: DEMO_DB,
      name: 'finish',
      keyHash: hashKey(KEY),
      pointKey: 'finish',
    });
    const rows = await app.database.query<{ gun: number }>(
      "SELECT gun_time_ms::float8 AS gun FROM races WHERE id = 'city-10k'",
    );
    gun = rows[0]!.gun;
    // A subscriber of the context's firehose (issue 28: only occupied channels get anything).
    await app.listen({ port: 0, host: '127.0.0.1' });
    await rawSubscriber({ port: (app.server.address() as AddressInfo).port, config: app.config }, [
      `results-${DEMO_DB}`,
    ]);
    const original = app.realtime.publish.bind(app.realtime);
    Object.assign(app.realtime, {
      publish: async (c: string[], e: string, d: unknown, x?: string, max?: number) => {
        if (e === RESULTS_EVENT)
          bundles.push(
            unbundleResults(d)
              .filter(([name]) => name === 'report-patch')
              .map(([, p]) => p as ReportPatch),
          );
        return original(c, e, d, x, max);
      },
    });
  });
  afterAll(() => app.close());

  const post = (bib: string, minutes: number) =>
    app.inject({
      method: 'POST',
      url: '/api/ingest/passings',
      headers: { 'x-device-key': KEY, 'content-type': 'application/json' },
      payload: JSON.stringify({ passings: [{ bib, time: gun + minutes * 60_000 }] }),
    });
  const read = async (query = '') => {
    const res = await app.inject(`${LIVE1}${query}`);
    expect(res.statusCode).toBe(200);
    return res.json() as { version: number; rows: unknown[][] };
  };
  const live1 = (bundle: ReportPatch[]) => bundle.find((p) => p.report === 'LIVE1');

  it('publishes a lone change at once, then holds a burst for one patch from the version published', async () => {
    const start = await read('?fresh=1');
    await app.results.settle(DEMO_DB);
    bundles.length = 0;
    expect((await post('101', 40)).statusCode).toBe(200);
    await read(); // applied (a plain read waits for it) …
    const first = live1(bundles.at(-1) ?? []);
    // … and published at once: the window was quiet.
    expect(bundles).toHaveLength(1);
    expect(first && 'fromVersion' in first ? first.fromVersion : null).toBe(start.version);
    // Three new leaders within the window: applied (plain reads see them), not published.
    for (const [k, bib] of ['102', '103', '104'].entries()) {
      expect((await post(bib, 39 - k)).statusCode).toBe(200);
      expect((await read()).rows[0]![F.bib]).toBe(bib);
    }
    expect(bundles).toHaveLength(1);
    // A subscriber's read (fresh) publishes the window first: one patch for the three.
    const now = await read('?fresh=1');
    expect(bundles).toHaveLength(2);
    const burst = live1(bundles[1]!)!;
    expect('reload' in burst).toBe(false);
    expect(burst.version).toBe(now.version);
    expect('fromVersion' in burst && burst.fromVersion).toBe(first!.version);
    expect(now.rows[0]![F.bib]).toBe('104');
  });
});
