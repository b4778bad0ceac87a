import { lastPointOf, netTimeOf, rankingOrder, statusOf } from '@tempora/domain';
import type { RaceLive } from './context-state.ts';

/** Statistics of a race (issue 7 `stats/{key}`): counts per status and point, histogram, categories. */
export interface RaceStats {
  raceId: string;
  name: string;
  distanceM: number;
  counts: {
    registered: number;
    started: number;
    onCourse: number;
    finished: number;
    dnf: number;
    dns: number;
    dsq: number;
  };
  points: { key: string; name: string; distanceM: number; passed: number }[];
  /** Finish times in buckets of `bucketMs` (net). */
  histogram: { fromMs: number; toMs: number; count: number }[];
  categories: { id: string; name: string; registered: number; finished: number }[];
  averagePaceMsPerKm: number | null;
  /** The leader's margin over the 2nd, 3rd, 5th and 10th at every point (ms). */
  leaderGaps: { key: string; distanceM: number; gaps: (number | null)[] }[];
}

const GAP_RANKS = [2, 3, 5, 10];

export function raceStats(race: RaceLive): RaceStats {
  const r = race.results;
  const { n, pointCount, distanceM } = r.index;
  const counts = { registered: n, started: 0, onCourse: 0, finished: 0, dnf: 0, dns: 0, dsq: 0 };
  const passed = new Array<number>(pointCount).fill(0);
  const finishTimes: number[] = [];
  const categories = r.index.race.categories.map((c) => ({
    id: c.id,
    name: c.name,
    registered: 0,
    finished: 0,
  }));
  for (let i = 0; i < n; i++) {
    const status = statusOf(r, i);
    const c = r.index.categoryOf[i]!;
    if (c >= 0) categories[c]!.registered++;
    if (status === 'finished') {
      counts.finished++;
      if (c >= 0) categories[c]!.finished++;
      finishTimes.push(netTimeOf(r, i, pointCount - 1));
    } else if (status === 'onCourse') counts.onCourse++;
    else if (status === 'DNF') counts.dnf++;
    else if (status === 'DNS') counts.dns++;
    else if (status === 'DSQ') counts.dsq++;
    const last = lastPointOf(r, i);
    if (last >= 0 || status === 'onCourse') counts.started++;
    for (let p = 0; p <= last; p++) if (!Number.isNaN(r.at[i * pointCount + p]!)) passed[p]!++;
  }
  finishTimes.sort((a, b) => a - b);
  const histogram: RaceStats['histogram'] = [];
  if (finishTimes.length) {
    const span = finishTimes[finishTimes.length - 1]! - finishTimes[0]!;
    const bucketMs = [60_000, 120_000, 300_000, 600_000, 900_000].find((b) => span / b <= 30) ?? 1_800_000;
    const start = Math.floor(finishTimes[0]! / bucketMs) * bucketMs;
    for (const t of finishTimes) {
      const k = Math.floor((t - start) / bucketMs);
      while (histogram.length <= k)
        histogram.push({
          fromMs: start + histogram.length * bucketMs,
          toMs: start + (histogram.length + 1) * bucketMs,
          count: 0,
        });
      histogram[k]!.count++;
    }
  }
  const finishDistance = distanceM[pointCount - 1]!;
  const averagePaceMsPerKm = finishTimes.length
    ? Math.round(finishTimes.reduce((a, b) => a + b, 0) / finishTimes.length / (finishDistance / 1000))
    : null;
  const leaderGaps = race.points
    .filter((p) => !p.isStart)
    .sort((a, b) => a.position - b.position)
    .map((point, p) => {
      const order = rankingOrder(r, p);
      const leader = order.length ? netTimeOf(r, order[0]!, p) : Number.NaN;
      return {
        key: point.key,
        distanceM: point.distanceM,
        gaps: GAP_RANKS.map((rank) =>
          order.length >= rank ? netTimeOf(r, order[rank - 1]!, p) - leader : null,
        ),
      };
    });
  return {
    raceId: race.row.id,
    name: race.row.name,
    distanceM: race.row.distanceM,
    counts,
    points: race.points
      .filter((p) => !p.isStart)
      .sort((a, b) => a.position - b.position)
      .map((p, k) => ({ key: p.key, name: p.name, distanceM: p.distanceM, passed: passed[k]! })),
    histogram,
    categories,
    averagePaceMsPerKm,
    leaderGaps,
  };
}

/** The first rows at every timing point (issue 7 leaders board `/firstrow/{db}/race/{race}`). */
export interface LeadersBoard {
  raceId: string;
  name: string;
  points: {
    key: string;
    name: string;
    distanceM: number;
    rows: {
      rank: number;
      bib: string;
      name: string;
      nationality: string;
      club: string;
      netMs: number;
      gapMs: number;
      trackingKey: string;
    }[];
  }[];
}

export function leadersBoard(race: RaceLive, count: number): LeadersBoard {
  const r = race.results;
  const ranked = race.points.filter((p) => !p.isStart).sort((a, b) => a.position - b.position);
  return {
    raceId: race.row.id,
    name: race.row.name,
    points: ranked.map((point, p) => {
      const order = rankingOrder(r, p);
      const leader = order.length ? netTimeOf(r, order[0]!, p) : 0;
      const rows: LeadersBoard['points'][number]['rows'] = [];
      for (let k = 0; k < Math.min(count, order.length); k++) {
        const i = order[k]!;
        const person = race.participants[i]!;
        const net = netTimeOf(r, i, p);
        const rank: number = k > 0 && net === netTimeOf(r, order[k - 1]!, p) ? rows[k - 1]!.rank : k + 1;
        rows.push({
          rank,
          bib: person.bib,
          name: `${person.firstName} ${person.lastName}`,
          nationality: person.nationality ?? '',
          club: person.club ?? '',
          netMs: net,
          gapMs: net - leader,
          trackingKey: person.trackingKey,
        });
      }
      return { key: point.key, name: point.name, distanceM: point.distanceM, rows };
    }),
  };
}
