import { describe, expect, it } from 'vitest';
import { computeStandings, pointsFor } from './service.ts';

describe('series standings', () => {
  it('gives 0 points beyond the table', () => {
    expect(pointsFor([100, 95], 1)).toBe(100);
    expect(pointsFor([100, 95], 3)).toBe(0);
  });

  it('sums points per category, ties share a rank', () => {
    const table = [100, 95, 90];
    const categories = computeStandings(table, [
      { raceKey: 'r1', athleteKey: 'a', name: 'Ann', category: 'F', position: 1 },
      { raceKey: 'r1', athleteKey: 'b', name: 'Bea', category: 'F', position: 2 },
      { raceKey: 'r2', athleteKey: 'b', name: 'Bea', category: 'F', position: 1 },
      { raceKey: 'r2', athleteKey: 'a', name: 'Ann', category: 'F', position: 2 },
      { raceKey: 'r1', athleteKey: 'c', name: 'Carl', category: 'M', position: 3 },
    ]);
    expect(categories.map((c) => c.category)).toEqual(['F', 'M']);
    const women = categories[0]?.standings ?? [];
    expect(women.map((s) => [s.rank, s.name, s.total])).toEqual([
      [1, 'Ann', 195],
      [1, 'Bea', 195],
    ]);
    expect(categories[1]?.standings[0]).toMatchObject({ rank: 1, total: 90, points: { r1: 90 } });
  });
});
