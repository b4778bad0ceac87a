import { describe, expect, it } from 'vitest';
import { TILE_SIZE, tileUrl, tileView, toWorld } from './tiles.ts';

// The demo course in Brussels.
const course = [
  [4.3525, 50.8467],
  [4.3378, 50.8549],
  [4.3234, 50.8412],
  [4.3512, 50.8336],
  [4.3617, 50.8443],
] as const;

describe('map tiles', () => {
  it('maps the antimeridian, the equator and Greenwich like Web Mercator', () => {
    expect(toWorld([0, 0])).toEqual([0.5, 0.5]);
    expect(toWorld([-180, 0])[0]).toBe(0);
    expect(toWorld([0, 85.0511])[1]).toBeCloseTo(0, 4);
  });

  it('fits the course in the box at the largest whole zoom, centred', () => {
    const view = tileView(course, 800, 520);
    const projected = course.map(view.project);
    for (const [x, y] of projected) {
      expect(x).toBeGreaterThanOrEqual(24);
      expect(x).toBeLessThanOrEqual(800 - 24);
      expect(y).toBeGreaterThanOrEqual(24);
      expect(y).toBeLessThanOrEqual(520 - 24);
    }
    // One zoom more would not fit.
    const width = Math.max(...projected.map((p) => p[0])) - Math.min(...projected.map((p) => p[0]));
    const height = Math.max(...projected.map((p) => p[1])) - Math.min(...projected.map((p) => p[1]));
    expect(width * 2 > 800 - 48 || height * 2 > 520 - 48).toBe(true);
    expect(view.zoom).toBe(14);
  });

  it('covers the whole box with tiles whose corners line up with the projection', () => {
    const view = tileView(course, 800, 520);
    const covered = (x: number, y: number) =>
      view.tiles.some((t) => t.left <= x && x < t.left + TILE_SIZE && t.top <= y && y < t.top + TILE_SIZE);
    for (const [x, y] of [
      [0, 0],
      [799, 0],
      [0, 519],
      [799, 519],
      [400, 260],
    ] as const)
      expect(covered(x, y)).toBe(true);
    // A tile's top-left corner is the world point (x / 2^z, y / 2^z).
    const t = view.tiles[0]!;
    const n = 2 ** t.z;
    const lon = (t.x / n) * 360 - 180;
    const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * t.y) / n))) * 180) / Math.PI;
    const [x, y] = view.project([lon, lat]);
    expect(x).toBeCloseTo(t.left, 6);
    expect(y).toBeCloseTo(t.top, 6);
  });

  it('builds the tile URL with the key escaped', () => {
    expect(tileUrl({ x: 1, y: 2, z: 3 }, 'a b', 'https://t/{z}/{x}/{y}.png?key={key}')).toBe(
      'https://t/3/1/2.png?key=a%20b',
    );
  });
});
