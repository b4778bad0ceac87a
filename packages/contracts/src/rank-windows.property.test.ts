import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { liveChannels, TOP_WINDOW_ROWS, windowOf, windowsCovering } from './live-channels.ts';
import { applyWindowPatch, compareRows, mergeWindow } from './report-patch.ts';
import type { ReportPatch, ReportTable } from './results.ts';

// Issue 28: rank windows below the top (`-w{k}`), their patches and their catch-up by offset.
const CHANNEL = /^[A-Za-z0-9_\-=@,.;]{1,164}$/;
const W = TOP_WINDOW_ROWS;

const table = (rows: unknown[][], version: number): ReportTable =>
  ({
    db: 'd',
    group: 'g',
    report: 'r',
    keyField: 0,
    orderField: 1,
    rows,
    total: rows.length,
    version,
  }) as never;

/** A report: runners `0 … n−1` ordered by a time (ties by key), with a changing cell. */
const sorted = (times: number[], cell: (i: number) => string) =>
  times.map((t, i) => [String(i), t, cell(i)]).sort(compareRows(0, 1));

/**
 * The window patch a server sends (its rows entering, leaving, changed — here whole: the server's
 * compact form is checked by its own tests) from the window at `from` to the window at `to`.
 */
function windowPatch(
  before: unknown[][],
  after: unknown[][],
  k: number,
  from: number,
  to: number,
): ReportPatch {
  const old = before.slice(k * W, (k + 1) * W);
  const now = after.slice(k * W, (k + 1) * W);
  const had = new Map(old.map((row) => [String(row[0]), JSON.stringify(row)]));
  const keys = new Set(now.map((row) => String(row[0])));
  return {
    group: 'g',
    report: 'r',
    fromVersion: from,
    version: to,
    upserts: now.filter((row) => had.get(String(row[0])) !== JSON.stringify(row)),
    removes: old.map((row) => String(row[0])).filter((key) => !keys.has(key)),
    window: W,
    ...(k ? { offset: k * W } : {}),
  };
}

describe('rank windows (issue 28)', () => {
  it('names window 0 as the top window and every other -w{k}, in Pusher characters', () => {
    expect(liveChannels.reportWindow('demo-run', 'city-10k', 'LIVE1', 0)).toBe(
      liveChannels.reportTop('demo-run', 'city-10k', 'LIVE1'),
    );
    expect(liveChannels.reportWindow('demo-run', 'city-10k', 'LIVE1', 33)).toBe(
      'results-demo-run-report-city-10k-LIVE1-w33',
    );
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), fc.nat(2_000), (db, group, report, k) => {
        const name = liveChannels.reportWindow(db.slice(0, 30), group.slice(0, 30), report.slice(0, 20), k);
        expect(name).toMatch(CHANNEL);
        // A window's channel is its report's, suffixed: a reload finds them by prefix.
        expect(
          name.startsWith(liveChannels.report(db.slice(0, 30), group.slice(0, 30), report.slice(0, 20))),
        ).toBe(true);
      }),
    );
  });

  it('covers the rows on screen with the windows holding them', () => {
    expect(windowsCovering(0, 12)).toEqual([0]);
    expect(windowsCovering(995, 1010)).toEqual([33]);
    expect(windowsCovering(1015, 1025)).toEqual([33, 34]);
    fc.assert(
      fc.property(fc.nat(30_000), fc.nat(60), (first, span) => {
        const ks = windowsCovering(first, first + span);
        expect(ks[0]).toBe(windowOf(first));
        expect(ks.at(-1)).toBe(windowOf(first + span));
        for (let i = first; i <= first + span; i++) expect(ks).toContain(windowOf(i));
      }),
    );
  });

  it("brings a client's window to the server's, from any version since the window's base, whatever moved elsewhere", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 140 }),
        fc.array(fc.tuple(fc.nat(139), fc.integer({ min: -400, max: 400 })), { maxLength: 12 }),
        fc.nat(5),
        fc.nat(3),
        (times, moves, k0, lag) => {
          const before = sorted(times, () => 'a');
          const next = times.slice();
          for (const [i, delta] of moves) if (i < next.length) next[i] = Math.max(0, next[i]! + delta);
          const after = sorted(next, (i) => (moves.some(([m]) => m === i) ? 'b' : 'a'));
          const k = Math.min(k0, Math.max(0, Math.ceil(times.length / W) - 1));
          // The client holds the whole table at a version the window had not changed since 10.
          const client = table(before, 10 + lag);
          const patch = windowPatch(before, after, k, 10, 20);
          const got = applyWindowPatch(client, patch, 10 + lag);
          expect(got).not.toBeNull();
          expect(got!.rows.slice(k * W, (k + 1) * W)).toEqual(after.slice(k * W, (k + 1) * W));
          // Nothing lost, nothing twice: the rows elsewhere are stale, not gone.
          expect(new Set(got!.rows.map((r) => r[0])).size).toBe(got!.rows.length);
          expect(got!.rows.length).toBe(times.length);
          // A window fetched by offset (the catch-up) lands at the same place.
          const fetched = mergeWindow(client, k * W, W, after.slice(k * W, (k + 1) * W));
          expect(fetched.rows.slice(k * W, (k + 1) * W)).toEqual(after.slice(k * W, (k + 1) * W));
          expect(fetched.rows.length).toBe(times.length);
        },
      ),
    );
  });

  it('asks for the window again when the client holds it from before the base, and keeps it when already past', () => {
    const rows = sorted([5, 3, 9], () => 'a');
    const patch = windowPatch(rows, rows.slice().reverse(), 0, 7, 9);
    expect(applyWindowPatch(table(rows, 12), patch, 6)).toBeNull();
    expect(applyWindowPatch(table(rows, 12), patch, 9)!.rows).toBe(rows);
  });
});
