import { describe, expect, it } from 'vitest';
import { clusterMarkers } from './map-markers.ts';

describe('clusterMarkers (issue 19: no overlapping markers)', () => {
  it('draws a pack as one marker and keeps distant runners apart', () => {
    const clusters = clusterMarkers(
      [
        { x: 100, y: 100, item: 'a' },
        { x: 110, y: 104, item: 'b' },
        { x: 104, y: 96, item: 'c' },
        { x: 300, y: 100, item: 'd' },
      ],
      30,
    );
    expect(clusters.map((c) => c.items)).toEqual([['a', 'b', 'c'], ['d']]);
    expect(clusters[0]!.x).toBeCloseTo(104.67, 1);
  });

  it('keeps every marker exactly once', () => {
    const markers = Array.from({ length: 50 }, (_, k) => ({ x: (k * 37) % 200, y: (k * 53) % 120, item: k }));
    const items = clusterMarkers(markers, 28).flatMap((c) => c.items);
    expect(items.sort((a, b) => a - b)).toEqual(markers.map((m) => m.item));
  });
});
