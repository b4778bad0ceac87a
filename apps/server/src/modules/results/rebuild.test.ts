import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';
import { ContextState } from './context-state.ts';
import * as repo from './repository.ts';
import { createResultsService } from './service.ts';

// Issue 14: the live state of a context is built in slices with the event loop let in between.
// The sliced build must give the very same state, and nothing written while it runs may be lost.
describe('the sliced build of a context state', () => {
  let app: FastifyInstance;
  let gun: number;

  beforeAll(async () => {
    app = await buildTestApp({ DEMO_REPLAY: 'false', SEED_BOSTON: 'false' });
    const rows = await app.database.query<{ gun: number }>(
      "SELECT gun_time_ms::float8 AS gun FROM races WHERE id = 'city-10k'",
    );
    gun = rows[0]!.gun;
  });
  afterAll(async () => {
    await app.close();
  });

  async function inputs() {
    const context = (await repo.findContext(app.database, DEMO_DB))!;
    return [
      context,
      await repo.racesOf(app.database, DEMO_DB),
      await repo.pointsOf(app.database, DEMO_DB),
      await repo.participantsOf(app.database, DEMO_DB),
      await repo.passingsAfter(app.database, DEMO_DB, 0),
      await repo.reportsOf(app.database, DEMO_DB),
    ] as const;
  }

  /** Every report's rows, without the tag (it names the state's instance). */
  const tables = (ctx: ContextState) =>
    ctx.reports.map((r) => {
      const { etag: _etag, ...table } = ctx.table(r);
      return table;
    });

  /** A finish read for a runner of the 10 km who has none yet, stored as another writer would. */
  async function storeFinish(seconds: number) {
    const [runner] = await app.database.query<{ bib: string }>(
      `SELECT p.bib FROM participants p
        WHERE p.race_id = 'city-10k' AND p.deleted_at IS NULL AND p.bib IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM passings s WHERE s.db = $1 AND s.bib = p.bib AND s.point_key = 'finish')
        ORDER BY p.bib LIMIT 1`,
      [DEMO_DB],
    );
    const bib = runner!.bib;
    const [stored] = await app.database.transaction((sql) =>
      repo.insertPassings(sql, DEMO_DB, [
        { id: `rebuild-${bib}`, bib, pointId: 'finish', timeMs: gun + seconds * 1000, source: 'manual' },
      ]),
    );
    return { bib, seq: stored!.seq };
  }

  it('gives the same rows, ranks and versions as a build in one go, paused at every step', async () => {
    // Finishes with ties, so that ranks are more than the order of arrival.
    for (let k = 0; k < 40; k++) await storeFinish(45 * 60 + (k % 13) * 7);
    const args = await inputs();
    expect(args[3].length).toBeGreaterThan(100);
    expect(args[4].length).toBe(40);
    const whole = new ContextState(...args);
    let pauses = 0;
    const sliced = await ContextState.build(
      ...args,
      async () => {
        pauses++;
      },
      0,
    );
    expect(pauses).toBeGreaterThanOrEqual(3 * args[1].length);
    expect(sliced.lastSeq).toBe(whole.lastSeq);
    expect(tables(sliced)).toEqual(tables(whole));
  });

  it('holds a passing stored while the state was being built', async () => {
    let written: { bib: string; seq: number } | undefined;
    const service = createResultsService({
      database: app.database,
      publisher: app.realtime,
      // The first pause of the build: the passings are read, the state not made yet.
      build: {
        pause: async () => {
          written ??= await storeFinish(50 * 60);
        },
        sliceMs: 0,
      },
    });
    const ctx = await service.state(DEMO_DB);
    expect(written).toBeDefined();
    expect(ctx.lastSeq).toBe(written!.seq);
    const race = ctx.races.get('city-10k')!;
    const i = race.byBib.get(written!.bib)!;
    const finish = race.results.index.pointCount - 1;
    expect(race.results.at[i * race.results.index.pointCount + finish]).toBe(gun + 50 * 60 * 1000);
  });

  it('loads again after a change made while a build was running', async () => {
    let changed = false;
    const service = createResultsService({
      database: app.database,
      publisher: app.realtime,
      build: {
        pause: async () => {
          if (changed) return;
          changed = true;
          await app.database.query(
            "UPDATE participants SET club = 'Rebuilt AC' WHERE race_id = 'city-10k' AND bib = (SELECT min(bib) FROM participants WHERE race_id = 'city-10k')",
          );
          service.invalidate(DEMO_DB);
        },
        sliceMs: 0,
      },
    });
    const during = await service.state(DEMO_DB);
    const after = await service.state(DEMO_DB);
    expect(changed).toBe(true);
    expect(after).not.toBe(during);
    const clubs = after.races.get('city-10k')!.participants.map((p) => p.club);
    expect(clubs).toContain('Rebuilt AC');
  });
});
