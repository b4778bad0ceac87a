import type { SeriesStanding, SeriesStandings } from '@tempora/contracts';

/** A stored finish position within a category in one race. */
export interface SeriesResult {
  raceKey: string;
  athleteKey: string;
  name: string;
  category: string;
  position: number;
}

/** Points for a position: the table's entry (1st = index 0), 0 beyond its end. */
export const pointsFor = (table: number[], position: number) => table[position - 1] ?? 0;

/**
 * Standings per category (pure): points summed over the races; ties share a rank (1, 1, 3) and
 * are listed by best single position, then name. Categories in alphabetical order.
 */
export function computeStandings(
  pointsTable: number[],
  results: SeriesResult[],
): SeriesStandings['categories'] {
  const byCategory = new Map<string, Map<string, SeriesStanding & { best: number }>>();
  for (const r of results) {
    const athletes = byCategory.get(r.category) ?? new Map();
    byCategory.set(r.category, athletes);
    const a = athletes.get(r.athleteKey) ?? {
      rank: 0,
      athleteKey: r.athleteKey,
      name: r.name,
      total: 0,
      points: {},
      best: Number.POSITIVE_INFINITY,
    };
    const points = pointsFor(pointsTable, r.position);
    a.points[r.raceKey] = points;
    a.total += points;
    a.best = Math.min(a.best, r.position);
    athletes.set(r.athleteKey, a);
  }
  return [...byCategory.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([category, athletes]) => {
      const sorted = [...athletes.values()].sort(
        (a, b) => b.total - a.total || a.best - b.best || a.name.localeCompare(b.name),
      );
      const standings = sorted.map(({ best: _best, ...s }, i) => {
        const previous = sorted[i - 1];
        return { ...s, rank: previous && previous.total === s.total ? 0 : i + 1 };
      });
      for (let i = 1; i < standings.length; i++) {
        const s = standings[i] as SeriesStanding;
        if (s.rank === 0) s.rank = (standings[i - 1] as SeriesStanding).rank;
      }
      return { category, standings };
    });
}
