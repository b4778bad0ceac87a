import type { FeedRow } from '@tempora/contracts';
import {
  formatDuration,
  formatGap,
  formatTimeOfDay,
  lastPointOf,
  netTimeOf,
  rankAt,
  statusOf,
} from '@tempora/domain';
import type { RaceLive } from '../results/port.ts';
import { leadersBoard, timeTrialBoard } from '../results/port.ts';

/**
 * Broadcast feeds (issue 16): flat arrays of flat rows, one shape per graphic, built from what the
 * live views compute (live-views.ts). Every time is given twice: in ms (`netMs`) and as shown
 * (`net`, spec §5 formatting), so a vMix/CasparCG title binds a field without a script.
 */

/** A gap as every view writes it (the domain's formatGap: `+0:21`, blank for the leader). */
const gap = (ms: number | null) => formatGap(ms);

/** The last `count` finishers, newest first. */
export function finishersFeed(race: RaceLive, count: number): FeedRow[] {
  const r = race.results;
  const finish = r.index.pointCount - 1;
  const finished: number[] = [];
  for (let i = 0; i < r.index.n; i++) if (statusOf(r, i) === 'finished') finished.push(i);
  const at = (i: number) => r.at[i * r.index.pointCount + finish]!;
  finished.sort((a, b) => at(b) - at(a));
  return finished.slice(0, count).map((i, k) => {
    const p = race.participants[i]!;
    const c = r.index.categoryOf[i]!;
    const net = netTimeOf(r, i, finish);
    return {
      position: k + 1,
      rank: rankAt(r, i, finish) ?? '',
      rankGender: rankAt(r, i, finish, 'gender') ?? '',
      rankCategory: c >= 0 ? (rankAt(r, i, finish, 'category') ?? '') : '',
      bib: p.bib,
      name: `${p.firstName} ${p.lastName}`.trim(),
      firstName: p.firstName,
      lastName: p.lastName,
      gender: p.gender,
      category: c >= 0 ? r.index.race.categories[c]!.name : '',
      nationality: p.nationality ?? '',
      club: p.club ?? '',
      netMs: net,
      net: formatDuration(net),
      // In the event's zone, as every view shows a time of day (issue 27).
      finishedAt: formatTimeOfDay(at(i), race.timeZone ?? 'Europe/Brussels'),
    };
  });
}

/** The first `count` at every timing point: one row per (point, rank), points in course order. */
export function leadersFeed(race: RaceLive, count: number): FeedRow[] {
  return leadersBoard(race, count).points.flatMap((point) =>
    point.rows.map((row) => ({
      point: point.key,
      pointName: point.name,
      distanceKm: Math.round(point.distanceM / 100) / 10,
      rank: row.rank,
      bib: row.bib,
      name: row.name,
      nationality: row.nationality,
      club: row.club,
      netMs: row.netMs,
      net: formatDuration(row.netMs),
      gapMs: row.gapMs,
      gap: gap(row.gapMs),
    })),
  );
}

/**
 * The time trial's hot seat and standings (`slot` = `hotseat` for the fastest so far, then
 * `standing`), followed by the riders on course (`slot` = `oncourse`) with their last point.
 */
export function hotSeatFeed(race: RaceLive, now: number, count: number): FeedRow[] {
  const board = timeTrialBoard(race, now, count);
  const r = race.results;
  const rows: FeedRow[] = board.standings.map((s, k) => ({
    slot: k === 0 ? 'hotseat' : 'standing',
    rank: s.rank,
    bib: s.bib,
    name: s.name,
    nationality: s.nationality,
    club: s.club,
    point: board.points.at(-1)?.name ?? '',
    netMs: s.netMs,
    net: formatDuration(s.netMs),
    gapMs: s.gapMs,
    gap: gap(s.gapMs),
    predictedMs: '',
    predicted: '',
  }));
  for (const o of board.onCourse.slice(0, count)) {
    const i = race.byBib.get(o.bib);
    const last = i !== undefined ? lastPointOf(r, i) : -1;
    rows.push({
      slot: 'oncourse',
      rank: o.rank ?? '',
      bib: o.bib,
      name: o.name,
      nationality: o.nationality,
      club: o.club,
      point: last >= 0 ? (board.points[last]?.name ?? '') : '',
      netMs: o.netMs ?? '',
      net: formatDuration(o.netMs),
      gapMs: o.gapMs ?? '',
      gap: gap(o.gapMs),
      predictedMs: o.predictedFinishNetMs ?? '',
      predicted: formatDuration(o.predictedFinishNetMs),
    });
  }
  return rows;
}
