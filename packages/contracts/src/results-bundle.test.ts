import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PassingEvent, ReportPatch } from './results.ts';
import { bundleResults, unbundleResults } from './results-bundle.ts';

const patch = fc.record({
  group: fc.string({ maxLength: 8 }),
  report: fc.string({ maxLength: 8 }),
  fromVersion: fc.nat(),
  version: fc.nat(),
  upserts: fc.array(fc.array(fc.oneof(fc.string({ maxLength: 40 }), fc.integer())), { maxLength: 30 }),
  removes: fc.array(fc.string({ maxLength: 6 }), { maxLength: 5 }),
}) as fc.Arbitrary<ReportPatch>;
const passing: fc.Arbitrary<PassingEvent> = fc.record({
  raceId: fc.string({ maxLength: 12 }),
  bib: fc.string({ maxLength: 6 }),
  pointKey: fc.string({ maxLength: 10 }),
  timeOfDay: fc.integer(),
});

describe('results bundles (issue 20)', () => {
  it('keep every patch and read in order, each bundle within the size limit', () => {
    fc.assert(
      fc.property(
        fc.array(patch, { maxLength: 12 }),
        fc.array(passing, { maxLength: 25 }),
        fc.integer({ min: 200, max: 12_000 }),
        (patches, passings, limit) => {
          const bundles = bundleResults(patches, passings, limit);
          const events = bundles.flatMap((b) => unbundleResults(b));
          expect(events).toEqual([
            ...patches.map((p) => ['report-patch', p]),
            ...passings.map((p) => ['passing', p]),
          ]);
          for (const b of bundles) {
            const items = (b.patches?.length ?? 0) + (b.passings?.length ?? 0);
            expect(items).toBeGreaterThan(0);
            // Over the limit only when a single item is larger than the limit by itself.
            if (items > 1) expect(JSON.stringify(b).length).toBeLessThanOrEqual(limit);
          }
          if (patches.length + passings.length === 0) expect(bundles).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('one bundle for a typical change: a few patches and twenty reads', () => {
    const patches = ['LIVE1', 'LIVE2', 'CAT'].map(
      (report, k): ReportPatch => ({
        group: 'g',
        report,
        fromVersion: k,
        version: k + 1,
        upserts: [['101', 5]],
        removes: [],
      }),
    );
    const passings = Array.from({ length: 20 }, (_, k) => ({
      raceId: 'marathon',
      bib: String(1000 + k),
      pointKey: 'km10',
      timeOfDay: 1_795_000_000_000 + k,
    }));
    expect(bundleResults(patches, passings)).toHaveLength(1);
  });

  it('ignores what is not a bundle', () => {
    expect(unbundleResults(null)).toEqual([]);
    expect(unbundleResults({ patches: 'x', passings: 3 })).toEqual([]);
  });
});
