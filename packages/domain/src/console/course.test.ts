import { describe, expect, it } from 'vitest';
import {
  cumulativeDistances,
  haversineM,
  type LonLat,
  pointAtDistance,
  projectOnTrack,
  trackLengthM,
} from './course.ts';

/** A straight track due north: one degree of latitude is 111.195 km on the mean sphere. */
const north = (km: number): LonLat[] =>
  Array.from({ length: km + 1 }, (_, k) => [4.35, 50 + (k * 1000) / 111_195] as LonLat);

describe('course geometry', () => {
  it('measures great-circle distances (Brussels → Paris ≈ 264 km)', () => {
    expect(haversineM([4.3517, 50.8503], [2.3522, 48.8566]) / 1000).toBeCloseTo(263.9, 0);
    expect(trackLengthM(north(42))).toBeCloseTo(42_000, -1);
    expect(cumulativeDistances(north(2))).toEqual([0, expect.closeTo(1000, 0), expect.closeTo(2000, 0)]);
  });

  it('projects a position onto the track with the distance along it', () => {
    const at = projectOnTrack(north(10), 50 + 3500 / 111_195, 4.351)!;
    expect(at.distanceM).toBeCloseTo(3500, -1);
    expect(at.lon).toBeCloseTo(4.35, 6);
    expect(at.offsetM).toBeCloseTo(70, -1);
  });

  it('on an out-and-back course, takes the passage after the given distance', () => {
    const out = north(5);
    const track = [...out, ...out.slice(0, -1).reverse()];
    const lat = 50 + 2000 / 111_195;
    expect(projectOnTrack(track, lat, 4.35)!.distanceM).toBeCloseTo(2000, -1);
    expect(projectOnTrack(track, lat, 4.35, 5000)!.distanceM).toBeCloseTo(8000, -1);
  });

  it('finds the position at a distance, clamped to the ends', () => {
    const track = north(10);
    expect(pointAtDistance(track, 2500)!.lat).toBeCloseTo(50 + 2500 / 111_195, 6);
    expect(pointAtDistance(track, -5)).toEqual({ lat: 50, lon: 4.35 });
    expect(pointAtDistance(track, 1e9)!.lat).toBeCloseTo(track.at(-1)![1], 9);
    expect(pointAtDistance([], 3)).toBeNull();
  });
});
