import { applyReportPatch, type ReportPatch, type ReportTable } from '@tempora/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextState, MAX_PATCH_BYTES } from './context-state.ts';
import { diffRows } from './patch-encoding.ts';
import { GUN, points, race } from './property-race.ts';
import { rankingRows } from './report-builder.ts';
import type { ParticipantRow, PassingRow, ReportRow } from './repository.ts';

// Issue 20: a patch of shifts, removals and full rows brings a client's table exactly to the
// table a reload would give, whatever the race and the passings.
const ranking = (key: string, scope: 'overall' | 'gender' | 'category', group?: string): ReportRow => ({
  db: 'ctx',
  groupKey: 'r',
  key,
  name: { en: key, fr: key },
  definition: { kind: 'ranking', raceId: 'r', scope, ...(group ? { group } : {}) },
  position: 0,
});
const filtered = (key: string, filter: Record<string, string>): ReportRow => {
  const row = ranking(key, 'overall');
  return { ...row, definition: { ...row.definition, filter } };
};
const reports = [
  ranking('LIVE1', 'overall'),
  ranking('LIVE2', 'gender', 'F'),
  ranking('CAT-B', 'category', 'B'),
  // Issue 27: lists whose gaps are measured from their own first (a club's, a gender's).
  filtered('CLUB', { club: 'BRC' }),
  filtered('MEN', { gender: 'M' }),
];

const runner = fc.record({
  gender: fc.constantFrom('M' as const, 'F' as const),
  age: fc.integer({ min: 18, max: 70 }),
  status: fc.constantFrom('registered', 'registered', 'registered', 'DNS' as const),
});
/** A read: runner (index), point, minutes after the gun (rounded to a second). */
const read = fc.record({
  who: fc.nat(),
  point: fc.constantFrom('split', 'finish'),
  seconds: fc.integer({ min: 15 * 60, max: 90 * 60 }),
  deleted: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});

type Arb<A> = A extends fc.Arbitrary<infer T> ? T : never;

function setUp(people: Arb<typeof runner>[], reads: Arb<typeof read>[]) {
  const participants: ParticipantRow[] = people.map((p, k) => ({
    bib: String(100 + k),
    firstName: `R${k}`,
    lastName: 'Test',
    gender: p.gender,
    age: p.age,
    status: p.status as ParticipantRow['status'],
    raceId: 'r',
    trackingKey: `t${k}`,
    club: k % 3 === 0 ? 'BRC' : 'Other',
  }));
  let seq = 0;
  const toPassing = (r: Arb<typeof read>): PassingRow => ({
    id: `${r.who % people.length}-${r.point}-${r.seconds}`,
    bib: String(100 + (r.who % people.length)),
    pointId: r.point,
    timeMs: GUN + r.seconds * 1000,
    source: 'decoder',
    seq: ++seq,
    ...(r.deleted ? { deleted: true } : {}),
  });
  const ctx = new ContextState(
    { db: 'ctx', eventId: 'e', name: 'Ctx', organisationId: 'o' },
    [race],
    points,
    participants,
    reads.map(toPassing),
    { groups: [{ key: 'r', name: { en: 'Race', fr: 'Course' } }], reports },
  );
  return { ctx, toPassing };
}

/** The table a client holds: what the node served. */
function served(ctx: ContextState, report: ReportRow): ReportTable {
  const { etag, ...table } = ctx.table(report);
  return { ...table, rows: table.rows, total: table.rows.length, tag: etag };
}

describe('compact report patches (issue 20)', () => {
  it('a club list follows its own first: a faster read of the club’s first moves every gap (issue 27)', () => {
    const man = { gender: 'M' as const, age: 30, status: 'registered' as const };
    // Runners 0 and 3 run for BRC (k % 3 === 0), runner 1 does not and leads overall.
    const finish = (who: number, minutes: number) => ({
      who,
      point: 'finish' as const,
      seconds: minutes * 60,
      deleted: false,
    });
    const { ctx, toPassing } = setUp([man, man, man, man], [finish(1, 15), finish(0, 40), finish(3, 50)]);
    const club = reports.find((r) => r.key === 'CLUB')!;
    const client = served(ctx, club);
    const patches = ctx.patchesFor(ctx.apply([toPassing(finish(0, 30))]));
    const patch = patches.find((p) => p.report === 'CLUB')!;
    const next = 'reload' in patch ? served(ctx, club) : applyReportPatch(client, patch);
    const expected = rankingRows(ctx.races.get('r')!, club.definition as never);
    expect(next!.rows).toEqual(expected);
    // Runner 3 is now 20 minutes behind the club's first, not 10.
    expect(expected.find((r) => r[0] === '103')![13]).toBe(20 * 60_000);
  });

  it('a patch applied to the table a client holds gives the recomputed table', () => {
    fc.assert(
      fc.property(
        fc.array(runner, { minLength: 1, maxLength: 40 }),
        fc.array(read, { maxLength: 60 }),
        fc.array(fc.array(read, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (people, before, batches, compare) => {
          const { ctx, toPassing } = setUp(people, before);
          // Every change through the comparison of tables, or the few-runners path (full rows).
          if (compare) ctx.smallChange = -1;
          const live = ctx.races.get('r')!;
          const held = new Map(reports.map((r) => [r.key, served(ctx, r)]));
          for (const batch of batches) {
            const patches = ctx.patchesFor(ctx.apply(batch.map(toPassing)));
            for (const report of reports) {
              const patch = patches.find((p) => p.report === report.key);
              const expected = rankingRows(live, report.definition as never);
              const client = held.get(report.key)!;
              if (!patch) {
                expect(client.rows).toEqual(expected);
                continue;
              }
              const next = 'reload' in patch ? served(ctx, report) : applyReportPatch(client, patch);
              expect(next).not.toBeNull();
              expect(next!.rows).toEqual(expected);
              expect(next!.version).toBe(patch.version);
              held.set(report.key, next!);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('diffRows alone: shifts, removals and upserts turn any sorted table into any other', () => {
    const row = fc.tuple(
      fc.integer({ min: 0, max: 30 }),
      fc.integer({ min: 0, max: 50 }),
      fc.oneof(fc.integer({ min: 1, max: 50 }).map(String), fc.constant('')),
      fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constant('')),
    );
    const table = fc
      .uniqueArray(row, { selector: (r) => r[0], maxLength: 40 })
      .map((rows) => rows.map(([k, order, rank, gap]) => [String(k), order, rank, gap]).sort(byOrder));
    fc.assert(
      fc.property(table, table, (before, after) => {
        const diff = diffRows(before, after);
        const from = { ...base, rows: before, total: before.length };
        const patch: ReportPatch = { group: 'g', report: 'R', fromVersion: 1, version: 2, ...diff };
        expect(applyReportPatch(from, patch)?.rows).toEqual(after);
      }),
      { numRuns: 300 },
    );
  });

  it('a new leader of a 2,000-runner table is a patch of a few hundred bytes, not a reload', () => {
    const people = Array.from({ length: 2001 }, (_, k) => ({
      gender: k % 2 ? ('F' as const) : ('M' as const),
      age: 20 + (k % 40),
      status: 'registered' as const,
    }));
    const field = people.slice(1).map((_, k) => ({
      who: k + 1,
      point: 'finish' as const,
      seconds: 30 * 60 + k,
      deleted: false,
    }));
    const { ctx, toPassing } = setUp(people, field);
    const before = served(ctx, reports[0]!);
    const patches = ctx.patchesFor(
      ctx.apply([toPassing({ who: 0, point: 'finish', seconds: 29 * 60, deleted: false })]),
    );
    const overall = patches.find((p) => p.report === 'LIVE1')!;
    expect('reload' in overall).toBe(false);
    const bytes = JSON.stringify(overall).length;
    expect(bytes).toBeLessThan(MAX_PATCH_BYTES / 4);
    const after = applyReportPatch(before, overall)!;
    expect(after.rows[0]![0]).toBe('100');
    expect(after.rows).toEqual(rankingRows(ctx.races.get('r')!, reports[0]!.definition as never));
  });

  it('runners not yet seen are listed by bib in numeric order, not by registration order', () => {
    const bibs = ['1010', '101', '1009', '99', '1000', '2'];
    const participants: ParticipantRow[] = bibs.map((bib, k) => ({
      bib,
      firstName: `R${k}`,
      lastName: 'Test',
      gender: 'F',
      age: 30,
      status: 'registered',
      raceId: 'r',
      trackingKey: `t${k}`,
    }));
    const ctx = new ContextState(
      { db: 'ctx', eventId: 'e', name: 'Ctx', organisationId: 'o' },
      [race],
      points,
      participants,
      [],
      { groups: [{ key: 'r', name: { en: 'Race', fr: 'Course' } }], reports },
    );
    const rows = rankingRows(ctx.races.get('r')!, reports[0]!.definition as never);
    expect(rows.map((r) => r[0])).toEqual(['2', '99', '101', '1000', '1009', '1010']);
  });
});

const byOrder = (a: unknown[], b: unknown[]) =>
  (a[1] as number) - (b[1] as number) || Number(a[0]) - Number(b[0]);
const base: ReportTable = {
  eventId: 'e',
  db: 'd',
  group: 'g',
  report: 'R',
  title: { en: 'R', fr: 'R' },
  version: 1,
  columns: [],
  rows: [],
  total: 0,
  keyField: 0,
  orderField: 1,
};
