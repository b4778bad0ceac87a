import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers.ts';
import { DEMO_CATEGORIES, DEMO_MARATHON, DEMO_TEN_K, demoReads, demoRunners } from './demo-field.ts';
import { startDemoSimulator } from './demo-races.ts';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('demo fields', () => {
  it.each([DEMO_TEN_K, DEMO_MARATHON])('$raceName: a realistic field, the same on every call', (spec) => {
    const runners = demoRunners(spec);
    expect(runners).toHaveLength(spec.runners);
    expect(demoRunners(spec)).toEqual(runners);
    expect(new Set(runners.map((r) => r.bib)).size).toBe(spec.runners);
    // Bibs follow the seeding: the fastest expected runner has the first bib.
    expect(runners[0]!.bib).toBe(String(spec.firstBib));
    for (let k = 1; k < runners.length; k++)
      expect(runners[k]!.finishMs).toBeGreaterThanOrEqual(runners[k - 1]!.finishMs);
    const women = runners.filter((r) => r.gender === 'F');
    expect(Math.abs(women.length / runners.length - spec.womenShare)).toBeLessThan(0.05);
    for (const gender of ['M', 'F'] as const) {
      const times = runners.filter((r) => r.gender === gender).map((r) => r.finishMs);
      expect(Math.abs(median(times) / spec.medianMs[gender] - 1)).toBeLessThan(0.12);
    }
    expect(new Set(runners.map((r) => r.nationality)).size).toBeGreaterThanOrEqual(8);
    expect(runners.filter((r) => r.club).length).toBeGreaterThan(spec.runners / 5);
    // Every runner falls in exactly one category of their gender.
    for (const r of runners) {
      const age = r.age!;
      const fits = DEMO_CATEGORIES.filter(
        (c) => c.gender === r.gender && age >= c.minAge && age <= (c.maxAge ?? 200),
      );
      expect(fits).toHaveLength(1);
    }
    expect(runners.some((r) => r.status === 'DNS')).toBe(true);
    // No two runners of the leading group share a name.
    const leaders = runners.slice(0, 12).map((r) => `${r.firstName} ${r.lastName}`);
    expect(new Set(leaders).size).toBe(12);
  });

  it('reads are in race time order, each runner moving forward along the course', () => {
    const reads = demoReads(DEMO_MARATHON);
    expect(new Set(reads.map((r) => r.id)).size).toBe(reads.length);
    for (let k = 1; k < reads.length; k++)
      expect(reads[k]!.offsetMs).toBeGreaterThanOrEqual(reads[k - 1]!.offsetMs);
    const order = DEMO_MARATHON.points.map((p) => p.key);
    const byChip = new Map<string, number[]>();
    for (const r of reads) byChip.set(r.chip, [...(byChip.get(r.chip) ?? []), order.indexOf(r.pointKey)]);
    for (const points of byChip.values()) expect(points).toEqual([...points].sort((a, b) => a - b));
    // Some abandon on course: fewer finish reads than start reads.
    const at = (key: string) => reads.filter((r) => r.pointKey === key).length;
    expect(at('finish')).toBeLessThan(at('start'));
    expect(at('finish')).toBeGreaterThan(at('start') * 0.95);
  });
});

describe('demo replay', () => {
  let app: FastifyInstance;
  let wall = 0;
  let gun10k = 0;
  let gunMarathon = 0;
  const guns = async () =>
    Object.fromEntries(
      (
        await app.database.query<{ id: string; gun: number; rate: number }>(
          'SELECT id, gun_time_ms::float8 AS gun, clock_rate AS rate FROM races ORDER BY id',
        )
      ).map((r) => [r.id, r]),
    );
  const stats = async (db: string, race: string) => {
    const res = await app.inject(`/api/results/contexts/${db}/races/${race}/stats`);
    expect(res.statusCode).toBe(200);
    return res.json() as { counts: { started: number; finished: number; onCourse: number } };
  };
  const leader = async (db: string, race: string) =>
    (await app.inject(`/api/results/contexts/${db}/races/${race}/leaders?count=1`)).json();

  beforeAll(async () => {
    app = await buildTestApp({ DEMO_SPEED: '4' });
    const g = await guns();
    gun10k = g['city-10k']!.gun;
    gunMarathon = g['city-marathon']!.gun;
    expect(g['city-marathon']!.rate).toBe(4);
  });
  afterAll(() => app.close());

  it('posts reads as the sped-up race clock reaches them, then starts the race again', async () => {
    const simulator = startDemoSimulator(
      app.database,
      app.results,
      { warn: (o) => console.warn(o) },
      { clock: () => wall, intervalMs: 3_600_000 },
    );
    try {
      // 20 wall minutes after the marathon's gun: 80 minutes of race time.
      wall = gunMarathon + 20 * 60_000;
      await simulator.tick();
      const marathonReads = demoReads(DEMO_MARATHON);
      const due = marathonReads.filter((r) => r.offsetMs <= 80 * 60_000).length;
      const [{ count } = { count: -1 }] = await app.database.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM passings WHERE db = 'demo-city-run-marathon'",
      );
      expect(count).toBe(due);
      // Nobody has finished the marathon after 80 minutes; the 10 km's leaders have.
      const marathon = await stats(DEMO_MARATHON.db, DEMO_MARATHON.raceId);
      expect(marathon.counts.finished).toBe(0);
      expect(marathon.counts.onCourse).toBeGreaterThan(2_000);
      const tenK = await stats(DEMO_TEN_K.db, DEMO_TEN_K.raceId);
      expect(tenK.counts.finished).toBeGreaterThan(100);
      expect(JSON.stringify(await leader(DEMO_TEN_K.db, DEMO_TEN_K.raceId))).toContain('"101"');

      // The race's tracking estimates run on race time: the elite runner is past 20 km.
      const rows = await app.database.query<{ key: string }>(
        "SELECT tracking_key AS key FROM participants WHERE race_id = 'city-marathon' AND bib = '5001'",
      );
      const card = (await app.inject(`/api/tracking/${rows[0]!.key}`)).json();
      expect(card.estimatedDistanceM).toBeGreaterThan(20_000);

      // Long after every read: all posted, each finisher ranked, and the same tick twice changes nothing.
      const lastRead = marathonReads[marathonReads.length - 1]!.offsetMs;
      wall = gunMarathon + lastRead / 4 + 60_000;
      await simulator.tick();
      await simulator.tick();
      const [{ all } = { all: -1 }] = await app.database.query<{ all: number }>(
        "SELECT count(*)::int AS all FROM passings WHERE db = 'demo-city-run-marathon'",
      );
      expect(all).toBe(marathonReads.length);
      const finishers = marathonReads.filter((r) => r.pointKey === 'finish').length;
      expect((await stats(DEMO_MARATHON.db, DEMO_MARATHON.raceId)).counts.finished).toBe(finishers);

      // Five wall minutes after the last read, the replay restarts a minute ahead.
      wall += 6 * 60_000;
      await simulator.tick();
      const after = await guns();
      expect(after['city-marathon']!.gun).toBe(Math.round(wall) + 60_000);
      expect(after['city-10k']!.gun).not.toBe(gun10k);
      const [{ left } = { left: -1 }] = await app.database.query<{ left: number }>(
        "SELECT count(*)::int AS left FROM passings WHERE db = 'demo-city-run-marathon'",
      );
      expect(left).toBe(0);
      const restarted = await stats(DEMO_MARATHON.db, DEMO_MARATHON.raceId);
      expect(restarted.counts.started).toBe(0);
      expect(restarted.counts.finished).toBe(0);
    } finally {
      simulator.stop();
    }
  });
});
