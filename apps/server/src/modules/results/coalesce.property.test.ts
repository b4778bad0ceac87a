import { applyReportPatch, type ReportPatch, type ReportTable } from '@tempora/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextState, MAX_PATCH_BYTES } from './context-state.ts';
import { GUN, points, race } from './property-race.ts';
import type { ParticipantRow, PassingRow, ReportRow } from './repository.ts';

// Issue 20, coalescing: the changes of a window (several ingest batches, and passings another
// node stored, caught up meanwhile) go out as one patch per report from the version last
// published; applied to the table a subscriber holds, it gives exactly what a reload would give.
const report = (key: string, definition: ReportRow['definition']): ReportRow => ({
  db: 'ctx',
  groupKey: 'r',
  key,
  name: { en: key, fr: key },
  definition,
  position: 0,
});
const reports = [
  report('LIVE1', { kind: 'ranking', raceId: 'r', scope: 'overall' }),
  report('LIVE2', { kind: 'ranking', raceId: 'r', scope: 'gender', group: 'F' }),
  report('CAT-B', { kind: 'ranking', raceId: 'r', scope: 'category', group: 'B' }),
  report('LAST', { kind: 'lastPassings', raceId: 'r', limit: 5 }),
];

const runner = fc.record({
  gender: fc.constantFrom('M' as const, 'F' as const),
  age: fc.integer({ min: 18, max: 70 }),
});
const read = fc.record({
  who: fc.nat(),
  point: fc.constantFrom('split', 'finish'),
  seconds: fc.integer({ min: 15 * 60, max: 90 * 60 }),
  deleted: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});
type Read = { who: number; point: string; seconds: number; deleted: boolean };

function setUp(people: { gender: 'M' | 'F'; age: number }[], before: Read[]) {
  const participants: ParticipantRow[] = people.map((p, k) => ({
    bib: String(100 + k),
    firstName: `R${k}`,
    lastName: 'Test',
    gender: p.gender,
    age: p.age,
    status: 'registered',
    raceId: 'r',
    trackingKey: `t${k}`,
  }));
  let seq = 0;
  const toPassing = (r: Read): PassingRow => ({
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
    before.map(toPassing),
    { groups: [{ key: 'r', name: { en: 'Race', fr: 'Course' } }], reports },
  );
  return { ctx, toPassing };
}

/** The table a reload gives: what the node serves now. */
function served(ctx: ContextState, r: ReportRow): ReportTable {
  const { etag, ...table } = ctx.table(r);
  return { ...table, total: table.rows.length, tag: etag };
}

describe('coalesced publication (issue 20)', () => {
  it('one patch per report for a whole window brings a subscriber to the table a reload gives', () => {
    fc.assert(
      fc.property(
        fc.array(runner, { minLength: 1, maxLength: 40 }),
        fc.array(read, { maxLength: 60 }),
        // Windows of batches; a batch is this node's own, or another node's (caught up).
        fc.array(
          fc.array(fc.record({ own: fc.boolean(), reads: fc.array(read, { minLength: 1, maxLength: 8 }) }), {
            minLength: 1,
            maxLength: 5,
          }),
          { minLength: 1, maxLength: 4 },
        ),
        fc.boolean(),
        (people, before, windows, compare) => {
          const { ctx, toPassing } = setUp(people, before);
          if (compare) ctx.smallChange = -1;
          const held = new Map(reports.map((r) => [r.key, served(ctx, r)]));
          for (const window of windows) {
            let opened = false;
            for (const batch of window) {
              ctx.stage(batch.reads.map(toPassing), batch.own);
              opened ||= batch.own;
              // Another node's reads before this node's window opens: that node publishes them,
              // and its patch brings the subscriber to the table served here. Within the window
              // they join this node's patch, which is checked against the table it starts from.
              if (!opened) for (const r of reports) held.set(r.key, served(ctx, r));
            }
            const publication = ctx.flush() ?? { patches: [] as ReportPatch[], passed: [] };
            for (const r of reports) {
              const now = served(ctx, r);
              const patches = publication.patches.filter((p) => p.report === r.key);
              expect(patches.length).toBeLessThanOrEqual(1);
              const [patch] = patches;
              const client = held.get(r.key)!;
              if (!patch) {
                // Nothing published: the subscriber's table is the one served.
                expect(client.version).toBe(now.version);
                expect(client.rows).toEqual(now.rows);
                continue;
              }
              if (!('reload' in patch)) expect(patch.fromVersion).toBe(client.version);
              const next = 'reload' in patch ? now : applyReportPatch(client, patch);
              expect(next).not.toBeNull();
              expect(next!.rows).toEqual(now.rows);
              expect(next!.version).toBe(patch.version);
              expect(now.version).toBe(patch.version);
              held.set(r.key, next!);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a burst of 40 batches that each move a new leader is one small patch, not 40 or a reload', () => {
    const people = Array.from({ length: 2040 }, (_, k) => ({
      gender: k % 2 ? ('F' as const) : ('M' as const),
      age: 30,
    }));
    const field = Array.from({ length: 2000 }, (_, k) => ({
      who: k + 40,
      point: 'finish',
      seconds: 40 * 60 + k,
      deleted: false,
    }));
    const { ctx, toPassing } = setUp(people, field);
    const overall = reports[0]!;
    const before = served(ctx, overall);
    // Runner k finishes in 39 min − k s: each batch a new leader, the whole table moving down.
    for (let k = 0; k < 40; k++)
      ctx.stage([toPassing({ who: k, point: 'finish', seconds: 39 * 60 - k, deleted: false })]);
    const { patches } = ctx.flush()!;
    const patch = patches.find((p) => p.report === overall.key)!;
    expect('reload' in patch).toBe(false);
    expect(JSON.stringify(patch).length).toBeLessThan(MAX_PATCH_BYTES);
    const after = applyReportPatch(before, patch)!;
    expect(after.rows).toEqual(served(ctx, overall).rows);
    expect(after.rows[0]![0]).toBe('139');
    // Nothing staged since: nothing to publish.
    expect(ctx.flush()).toBeNull();
  });
});
