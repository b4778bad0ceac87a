import type { LeadersBoard, RaceStats, TeamResult, TimeTrialBoard, TimeTrialRider } from '@tempora/contracts';
import {
  raceClock as domainRaceClock,
  lastPointOf,
  leadersAt,
  netTimeOf,
  rankAt,
  rankingOrder,
  shownGap,
  statusOf,
  timeTrialAt,
} from '@tempora/domain';
import type { RaceLive } from './context-state.ts';
import { frenchName } from './repository.ts';

/** The live views' answers: one shape with the web's, in packages/contracts (issue 30). */
export type { LeadersBoard, RaceStats, TeamResult, TimeTrialBoard, TimeTrialRider };

const GAP_RANKS = [2, 3, 5, 10];

export function raceStats(race: RaceLive): RaceStats {
  const r = race.results;
  const { n, pointCount, distanceM } = r.index;
  const counts = { registered: n, started: 0, onCourse: 0, finished: 0, dnf: 0, dns: 0, dsq: 0 };
  const passed = new Array<number>(pointCount).fill(0);
  const onCourseAfter = new Array<number>(pointCount).fill(0);
  const dnfAfter = new Array<number>(pointCount).fill(0);
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
      // No gun time and no start read: the runner finished but has no time (issue 13: a NaN here
      // answered 500 for everyone). Counted as finished, left out of the time statistics.
      const finish = netTimeOf(r, i, pointCount - 1);
      if (Number.isFinite(finish)) finishTimes.push(finish);
    } else if (status === 'onCourse') counts.onCourse++;
    else if (status === 'DNF') counts.dnf++;
    else if (status === 'DNS') counts.dns++;
    else if (status === 'DSQ') counts.dsq++;
    const last = lastPointOf(r, i);
    if (last >= 0 || status === 'onCourse') counts.started++;
    for (let p = 0; p <= last; p++) if (!Number.isNaN(r.at[i * pointCount + p]!)) passed[p]!++;
    if (last >= 0 && status === 'onCourse') onCourseAfter[last]!++;
    if (last >= 0 && status === 'DNF') dnfAfter[last]!++;
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
        gaps: GAP_RANKS.map((rank) => {
          const gap = order.length >= rank ? shownGap(netTimeOf(r, order[rank - 1]!, p), leader) : Number.NaN;
          return Number.isFinite(gap) ? gap : null;
        }),
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
      .map((p, k) => ({
        key: p.key,
        name: p.name,
        nameFr: frenchName(p),
        distanceM: p.distanceM,
        passed: passed[k]!,
        onCourse: onCourseAfter[k]!,
        dnf: dnfAfter[k]!,
      })),
    histogram,
    categories,
    averagePaceMsPerKm,
    leaderGaps,
  };
}

export function leadersBoard(race: RaceLive, count: number): LeadersBoard {
  const ranked = race.points.filter((p) => !p.isStart).sort((a, b) => a.position - b.position);
  return {
    raceId: race.row.id,
    name: race.row.name,
    points: ranked.map((point, p) => ({
      key: point.key,
      name: point.name,
      nameFr: frenchName(point),
      distanceM: point.distanceM,
      rows: leadersAt(race.results, p, count).map(({ i, rank, netMs, gapMs }) => {
        const person = race.participants[i]!;
        return {
          rank,
          bib: person.bib,
          name: `${person.firstName} ${person.lastName}`,
          nationality: person.nationality ?? '',
          club: person.club ?? '',
          netMs,
          gapMs,
          trackingKey: person.trackingKey,
        };
      }),
    })),
  };
}

/** The race's clock at wall time `wallMs` (domain `raceClock`: a replay runs faster than the wall). */
export function raceClock(race: Pick<RaceLive, 'row'>, wallMs: number): number {
  return domainRaceClock(race.row.gunTimeMs, race.row.clockRate, wallMs);
}

/** The board at race time `now` (see `raceClock`); the selection is the domain's `timeTrialAt`. */
export function timeTrialBoard(
  race: RaceLive,
  now: number,
  size = 10,
  timeZone: string | null = null,
): TimeTrialBoard {
  const rider = (i: number): TimeTrialRider => {
    const person = race.participants[i]!;
    return {
      bib: person.bib,
      name: `${person.firstName} ${person.lastName}`.trim(),
      club: person.club ?? '',
      nationality: person.nationality ?? '',
      trackingKey: person.trackingKey,
    };
  };
  const board = timeTrialAt(race.results, now, size);
  const [first] = board.standings;
  return {
    raceId: race.row.id,
    name: race.row.name,
    distanceM: race.row.distanceM,
    startType: race.row.startType,
    now,
    clockRate: race.row.clockRate,
    gunTimeMs: race.row.gunTimeMs,
    timeZone,
    points: race.points
      .filter((p) => !p.isStart)
      .sort((a, b) => a.position - b.position)
      .map((p) => ({ key: p.key, name: p.name, nameFr: frenchName(p), distanceM: p.distanceM })),
    hotSeat: first ? { ...rider(first.i), netMs: first.netMs } : null,
    standings: board.standings.map(({ i, rank, netMs, gapMs }) => ({ ...rider(i), rank, netMs, gapMs })),
    finishers: board.finishers,
    onCourseCount: board.onCourse.length,
    onCourse: board.onCourse.slice(0, 3 * size).map(({ i, ...rest }) => ({ ...rider(i), ...rest })),
    latestFinishers: board.latest.map(({ i, ...rest }) => ({ ...rider(i), ...rest })),
    nextStarters: board.next.map(({ i, startAt }) => ({ ...rider(i), startAt })),
  };
}

/** How many finishers of a team score (the sum of their net times is the team's result). */
export const TEAM_SCORING = 3;

/**
 * Team standings of a race (issue 7 team detail): teams are clubs; complete teams (at least
 * `scoring` finishers) ranked by the sum of their best `scoring` net times, ties sharing a rank;
 * incomplete ones after them, most finishers first. Members in finish order, then the others.
 */
export function teamStandings(
  race: RaceLive,
  scoring = race.row.teamRule?.best ?? TEAM_SCORING,
  minMembers = race.row.teamRule?.minMembers ?? scoring,
): TeamResult[] {
  const r = race.results;
  const finish = r.index.pointCount - 1;
  const byTeam = new Map<string, number[]>();
  race.participants.forEach((p, i) => {
    const team = (p.club ?? '').trim();
    if (!team) return;
    const list = byTeam.get(team) ?? [];
    list.push(i);
    byTeam.set(team, list);
  });
  const teams: TeamResult[] = [];
  for (const [name, people] of byTeam) {
    const members = people.map((i) => {
      const p = race.participants[i]!;
      const status = statusOf(r, i);
      // A finisher without a known start has no net time (NaN): not a scorer (issue 41: its NaN
      // made the team's total null, off the declared schema: a 500).
      const time = status === 'finished' ? netTimeOf(r, i, finish) : Number.NaN;
      const net = Number.isFinite(time) ? time : null;
      return {
        bib: p.bib,
        name: `${p.firstName} ${p.lastName}`.trim(),
        status,
        netMs: net,
        rank: net === null ? null : rankAt(r, i, finish),
        trackingKey: p.trackingKey,
        scoring: false,
      };
    });
    members.sort(
      (a, b) =>
        (a.netMs ?? Number.POSITIVE_INFINITY) - (b.netMs ?? Number.POSITIVE_INFINITY) ||
        a.bib.localeCompare(b.bib),
    );
    const finishers = members.filter((m) => m.netMs !== null);
    for (const m of finishers.slice(0, scoring)) m.scoring = true;
    teams.push({
      name,
      rank: null,
      totalMs: finishers.slice(0, scoring).reduce((sum, m) => sum + m.netMs!, 0),
      finishers: finishers.length,
      members,
    });
  }
  // The race's team rule (issue 14): ranked when `scoring` finished and the team has `minMembers`.
  const ranked = (t: TeamResult) => t.finishers >= scoring && t.members.length >= minMembers;
  const complete = teams.filter(ranked).sort((a, b) => a.totalMs - b.totalMs);
  complete.forEach((t, k) => {
    t.rank = k > 0 && t.totalMs === complete[k - 1]!.totalMs ? complete[k - 1]!.rank : k + 1;
  });
  const incomplete = teams
    .filter((t) => !ranked(t))
    .sort((a, b) => b.finishers - a.finishers || a.totalMs - b.totalMs || a.name.localeCompare(b.name));
  return [...complete, ...incomplete];
}
