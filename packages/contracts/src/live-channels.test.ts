import { describe, expect, it } from 'vitest';
import { channelPart, liveChannels } from './live-channels.ts';
import { applyWindowPatch } from './report-patch.ts';
import type { ReportTable } from './results.ts';

const CHANNEL = /^[A-Za-z0-9_\-=@,.;]+$/;

const table = (rows: [string, number][], version: number): ReportTable =>
  ({
    db: 'd',
    group: 'g',
    report: 'r',
    keyField: 0,
    orderField: 1,
    rows: rows.map(([key, order]) => [key, order]),
    total: rows.length,
    version,
  }) as unknown as ReportTable;

describe('live channels (issue 28)', () => {
  it('names every view with Pusher characters only, escaping the others one way', () => {
    expect(liveChannels.reportTop('demo-run', 'city-10k', 'LIVE1')).toBe(
      'results-demo-run-report-city-10k-LIVE1-top',
    );
    expect(liveChannels.runner('demo', '12 A/b')).toBe('results-demo-runner-12;20;A;2f;b');
    for (const name of [
      liveChannels.runner('é', 'ü ß'),
      liveChannels.report('a:b', 'g#', 'r?'),
      liveChannels.passings('x y'),
    ])
      expect(name).toMatch(CHANNEL);
    expect(channelPart('a b')).not.toBe(channelPart('a_b'));
  });

  it('applies a window patch from any version since the window last changed, keeping the rows below', () => {
    const before = table(
      [
        ['a', 1],
        ['b', 2],
        ['c', 3],
        ['d', 4],
      ],
      7,
    );
    // 'd' passes 'b' into the window of two; 'b' leaves it; the window last changed at 5.
    const patch = {
      group: 'g',
      report: 'r',
      fromVersion: 5,
      version: 9,
      upserts: [['d', 1.5]],
      removes: ['b'],
      window: 2,
    };
    const after = applyWindowPatch(before, patch)!;
    expect(after.version).toBe(9);
    expect(after.rows.map((r) => r[0])).toEqual(['a', 'd', 'b', 'c']);
    expect(after.total).toBe(4);
    // Older than the window's base: fetch again; already past it: unchanged.
    expect(applyWindowPatch(table([['a', 1]], 4), patch)).toBeNull();
    expect(applyWindowPatch(table([['a', 1]], 9), patch)!.version).toBe(9);
  });
});
