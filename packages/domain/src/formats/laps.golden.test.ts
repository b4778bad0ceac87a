import { describe, expect, it } from 'vitest';
import { clockMs, fixtureText } from '../../test/fixtures.ts';
import { readCsv } from '../../test/read-csv.ts';
import type { Participant, Passing } from '../results/types.ts';
import { computeLapRace, type LapRaceDefinition } from './laps.ts';

// Big's Backyard Ultra 2018 (fixtures/README.md): a 6,706 m loop started every hour; the lap
// list gives the time of day each lap ended, the leaderboard the laps, loop times and ranks.
const records = (name: string) => {
  const t = readCsv(fixtureText(name));
  return t.rows.map((cells) => Object.fromEntries(t.header.map((h, k) => [h, cells[k] ?? ''])));
};
const laps = records('bigs-backyard-2018-laps.csv');
const board = records('bigs-backyard-2018-leaderboard.csv');
const HOUR = 3_600_000;
const DAY0 = Date.UTC(2018, 9, 20);
/** The first lap's start, from every lap's end minus its time: 6:41:22 on the timer's clock. */
const START = DAY0 + clockMs('6:41:22')!;
const race: LapRaceDefinition = {
  startMs: START,
  lapPointId: 'loop',
  minLapMs: 20 * 60_000,
  lapLengthM: 6706,
  backyardIntervalMs: HOUR,
};
const participants: Participant[] = board.map((b) => ({
  bib: b.bib!,
  firstName: '',
  lastName: b.bib!,
  gender: b.gender === 'F' ? 'F' : 'M',
  status: 'registered',
}));
/** Each lap's end as a read: times of day, a day later each time the clock goes back. */
const passings: Passing[] = [];
const byBib = new Map<string, typeof laps>();
for (const l of laps) byBib.set(l.bib!, [...(byBib.get(l.bib!) ?? []), l]);
for (const [bib, list] of byBib) {
  let day = 0;
  let prev = -1;
  for (const l of [...list].sort((a, b) => Number(a.lap) - Number(b.lap))) {
    const t = clockMs(l.timeOfDay);
    if (t === undefined) {
      // Two last laps have no time in the lap list (bibs 5 and 35); the leaderboard's last loop
      // is their time: entered as a manual read, as the desk would.
      const last = clockMs(board.find((b) => b.bib === bib)!.lastLoop)!;
      passings.push({
        id: `${bib}-${l.lap}`,
        bib,
        pointId: 'loop',
        timeMs: START + (Number(l.lap) - 1) * HOUR + last,
        source: 'manual',
      });
      continue;
    }
    if (t < prev) day++;
    prev = t;
    passings.push({
      id: `${bib}-${l.lap}`,
      bib,
      pointId: 'loop',
      timeMs: DAY0 + day * 86_400_000 + t,
      source: 'import',
    });
  }
}
const END = START + 70 * HOUR;
const results = computeLapRace(race, participants, passings, { nowMs: END });

describe("backyard engine on Big's Backyard Ultra 2018", () => {
  it('counts every runner’s published laps, and ranks every runner alone on their lap count as published', () => {
    const counts = new Map<number, number>();
    for (const b of board) counts.set(Number(b.laps || 0), (counts.get(Number(b.laps || 0)) ?? 0) + 1);
    let untied = 0;
    board.forEach((b, i) => {
      const row = results.rows[i]!;
      expect(row.laps, b.bib).toBe(Number(b.laps || 0));
      if (counts.get(row.laps) === 1 && row.laps > 0) {
        untied++;
        expect(row.rank, b.bib).toBe(Number(b.rank));
      }
    });
    expect(untied).toBeGreaterThan(12);
  });

  it('orders runners of equal laps by race time as the list does', () => {
    // Within a lap count the list orders by race time (the sum of lap times, from sub-second
    // times we do not have): compared where two race times are more than a second per lap apart.
    const published = [...board].sort((a, b) => Number(a.rank) - Number(b.rank));
    let compared = 0;
    for (let k = 1; k < published.length; k++) {
      const a = published[k - 1]!;
      const b = published[k]!;
      if (a.laps !== b.laps || !a.laps) continue;
      const gap = clockMs(b.raceTime)! - clockMs(a.raceTime)!;
      if (gap <= Number(a.laps) * 1000) continue;
      compared++;
      const ra = results.rows[board.indexOf(a)]!.rank!;
      const rb = results.rows[board.indexOf(b)]!.rank!;
      expect(ra, `${a.bib} before ${b.bib}`).toBeLessThan(rb);
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('computes every lap time, fastest, slowest and last loop within the source’s one-second rounding', () => {
    let compared = 0;
    let exact = 0;
    for (const l of laps) {
      const i = board.findIndex((b) => b.bib === l.bib);
      const computed = results.rows[i]!.lapTimesMs[Number(l.lap) - 1]!;
      const published = clockMs(l.lapTime) ?? clockMs(board[i]!.lastLoop)!;
      compared++;
      if (computed === published) exact++;
      expect(Math.abs(computed - published), `${l.bib} lap ${l.lap}`).toBeLessThanOrEqual(1000);
    }
    expect(compared).toBe(laps.length);
    expect(exact).toBeGreaterThan(compared / 3);
    board.forEach((b, i) => {
      const row = results.rows[i]!;
      if (!row.laps) return;
      expect(Math.abs(row.bestLapMs! - clockMs(b.fastLoop)!), b.bib).toBeLessThanOrEqual(1000);
      expect(Math.abs(Math.max(...row.lapTimesMs) - clockMs(b.slowLoop)!), b.bib).toBeLessThanOrEqual(1000);
      expect(Math.abs(row.lastLapMs! - clockMs(b.lastLoop)!), b.bib).toBeLessThanOrEqual(1000);
    });
  });

  it('ends with one finisher, the last one standing, every other runner DNF; distances in laps × loop', () => {
    const finished = results.rows.filter((r) => r.status === 'finished');
    expect(finished.map((r) => r.bib)).toEqual([board.find((b) => b.place === '1.')!.bib]);
    expect(results.rows.filter((r) => r.status === 'DNF').length).toBe(
      board.filter((b) => b.laps).length - 1,
    );
    expect(finished[0]!.distanceM).toBe(68 * 6706);
    // During the 60th hour the two runners left are on course, the others out.
    const live = computeLapRace(race, participants, passings, { nowMs: START + 59.5 * HOUR });
    expect(live.rows.filter((r) => r.status === 'onCourse').length).toBe(3);
  });
});
