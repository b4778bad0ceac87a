import type { PointRow, RaceRow } from './repository.ts';

/**
 * The small race the results property tests run on (patch encoding, coalescing): a 10 km mass
 * start with two age categories, a split and a finish.
 */
export const GUN = Date.UTC(2026, 5, 1, 8, 0, 0);
export const race: RaceRow = {
  id: 'r',
  db: 'ctx',
  name: 'Race',
  raceDate: '2026-06-01',
  distanceM: 10_000,
  startType: 'mass',
  gunTimeMs: GUN,
  waves: [],
  categories: [
    { id: 'A', name: 'Under 40', minAge: 0, maxAge: 39 },
    { id: 'B', name: '40 and over', minAge: 40, maxAge: 120 },
  ],
  rules: {},
  course: null,
  position: 0,
  epoch: 0,
  clockRate: 1,
};
export const point = (key: string, distanceM: number, position: number): PointRow => ({
  raceId: 'r',
  key,
  name: key,
  distanceM,
  position,
  isStart: false,
  lat: null,
  lon: null,
});
export const points = [point('split', 5_000, 1), point('finish', 10_000, 2)];
