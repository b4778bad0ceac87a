import { describe, expect, it } from 'vitest';
import { clusterMarkers, spreadPack } from './map-markers.ts';

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

describe('spreadPack (issue 27: a pack opens on the map)', () => {
  const size = { width: 360, height: 440 };
  const apart = (points: readonly { x: number; y: number }[]) =>
    Math.min(...points.flatMap((a, i) => points.slice(i + 1).map((b) => Math.hypot(a.x - b.x, a.y - b.y))));

  it('puts every runner of the pack at least a marker apart, around the pack', () => {
    for (const n of [2, 3, 5, 8]) {
      const { cx, cy, points } = spreadPack(180, 220, n, size);
      expect(points).toHaveLength(n);
      expect([cx, cy]).toEqual([180, 220]);
      expect(apart(points)).toBeGreaterThanOrEqual(40);
      for (const p of points) expect(Math.hypot(p.x - 180, p.y - 220)).toBeGreaterThanOrEqual(40 - 1e-9);
    }
  });

  it('keeps the spread inside the drawing when the pack is at its edge', () => {
    for (const [x, y] of [
      [2, 2],
      [358, 438],
      [0, 220],
      [180, 440],
    ] as const) {
      const { points } = spreadPack(x, y, 6, size);
      for (const p of points) {
        expect(p.x).toBeGreaterThanOrEqual(22 - 1e-9);
        expect(p.x).toBeLessThanOrEqual(360 - 22 + 1e-9);
        expect(p.y).toBeGreaterThanOrEqual(22 - 1e-9);
        expect(p.y).toBeLessThanOrEqual(440 - 22 + 1e-9);
      }
    }
  });
});
