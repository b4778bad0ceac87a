import { describe, expect, it } from 'vitest';
import { haversine, pointAlong, projector } from './course.ts';

describe('course geometry', () => {
  it('measures a degree of latitude as about 111 km', () => {
    expect(haversine([4, 50], [4, 51]) / 1000).toBeCloseTo(111.2, 0);
  });
  it('places a share of the distance along the line, clamped', () => {
    const course = [
      [0, 0],
      [0, 1],
      [1, 1],
    ] as const;
    expect(pointAlong(course, 0)).toEqual([0, 0]);
    expect(pointAlong(course, 0.25)![1]).toBeCloseTo(0.5, 2);
    const end = pointAlong(course, 2)!;
    expect(end[0]).toBeCloseTo(1, 9);
    expect(end[1]).toBeCloseTo(1, 9);
    expect(pointAlong([], 0.5)).toBeNull();
  });
  it('projects north up inside the box', () => {
    const project = projector(
      [
        [4, 50],
        [5, 51],
      ],
      200,
      100,
    );
    const [x1, y1] = project([4, 50]);
    const [x2, y2] = project([5, 51]);
    expect(x2).toBeGreaterThan(x1);
    expect(y2).toBeLessThan(y1);
    for (const v of [x1, x2]) expect(v).toBeGreaterThanOrEqual(0);
  });
});
