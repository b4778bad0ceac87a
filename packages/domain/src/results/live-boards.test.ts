import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Millis } from '../time-format.ts';
import { formatDuration, formatGap, formatTimeOfDay, shownGap, shownMs } from '../time-format.ts';
import { computeResults } from './compute.ts';
import {
  countdownMs,
  leadersAt,
  predictedFinishShown,
  raceClock,
  tickRaceClock,
  timeTrialAt,
  wallClock,
} from './live-boards.ts';
import { gapAt, rankAt, rankingOrder, statusOf } from './queries.ts';
import { netTimeOf, rankKeyOf } from './results-model.ts';
import { raceScenario } from './testing/race-arbitraries.ts';

/** A time cell read back: `h:mm:ss`, `m:ss` or `s` to ms. */
const parse = (text: string) => text.split(':').reduce((acc, part) => acc * 60 + Number(part), 0) * 1000;

describe('gaps as shown (issue 19)', () => {
  it('a gap is the difference of the two times as a time cell shows them', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 30 * 3_600_000 }),
        fc.integer({ min: 0, max: 3_600_000 }),
        (leader, behind) => {
          const time = leader + behind;
          expect(shownGap(time, leader)).toBe(parse(formatDuration(time)) - parse(formatDuration(leader)));
        },
      ),
    );
  });

  it('the cases the issue names: 28:41 behind 28:32 is +0:09, 14:14 behind 14:10 is +0:04', () => {
    expect(formatGap(shownGap(28 * 60_000 + 41_900, 28 * 60_000 + 32_300))).toBe('+0:09');
    expect(formatGap(shownGap(14 * 60_000 + 14_100, 14 * 60_000 + 10_900))).toBe('+0:04');
  });

  it('formats gaps one way (issue 27): signed, with minutes, a decimal comma in French, blank for none', () => {
    expect(formatGap(21_000)).toBe('+0:21');
    expect(formatGap(65_000)).toBe('+1:05');
    expect(formatGap(3_723_000)).toBe('+1:02:03');
    expect(formatGap(3_725_000, 'fr')).toBe('+1:02:05');
    expect(formatGap(8_300, 'fr', 1)).toBe('+0:08,3');
    expect(formatGap(8_300, 'en', 1)).toBe('+0:08.3');
    expect(formatGap(-5_000)).toBe('\u22120:05');
    expect(formatGap(0)).toBe('');
    expect(formatGap(null)).toBe('');
    expect(shownMs(8_399, 1)).toBe(8_300);
  });
});

describe('race clock of a replay (issue 19: no time of day in the future)', () => {
  const gun = Date.UTC(2026, 10, 23, 9, 0, 0);
  const arbitraries = [
    fc.integer({ min: 0, max: 6 * 3_600_000 }),
    fc.constantFrom(1, 2, 4, 10, 100),
    fc.integer({ min: 0, max: 6 * 3_600_000 }),
  ] as const;

  it('wallClock undoes raceClock (to the millisecond)', () => {
    fc.assert(
      fc.property(arbitraries[0], arbitraries[1], (sinceGun, rate) => {
        const wall = gun + sinceGun;
        expect(Math.abs(wallClock(gun, rate, raceClock(gun, rate, wall)) - wall)).toBeLessThan(1e-3);
      }),
    );
  });

  it('a read the race clock has reached is shown at a wall time already past', () => {
    fc.assert(
      fc.property(...arbitraries, (sinceGun, rate, earlier) => {
        const now = gun + sinceGun;
        const read = raceClock(gun, rate, now) - earlier;
        expect(wallClock(gun, rate, read)).toBeLessThanOrEqual(now + 1e-3);
      }),
    );
  });

  it('the page clock ticks on at the rate and never backwards; a countdown rounds up', () => {
    expect(tickRaceClock(1_000, 500, 1_500, 4)).toBe(5_000);
    expect(tickRaceClock(1_000, 500, 400, 4)).toBe(1_000);
    expect(raceClock(null, 4, 123)).toBe(123);
    expect(countdownMs(10_000, 4_200)).toBe(6_000);
    expect(countdownMs(10_000, 10_000)).toBeNull();
  });
});

describe('leaders and time-trial boards (one implementation for server and pages)', () => {
  it('leaders: the ranking order, ties share a rank, gaps as shown and never decreasing', () => {
    fc.assert(
      fc.property(
        raceScenario,
        fc.integer({ min: 1, max: 10 }),
        ({ race, participants, passings, rules }, count) => {
          const results = computeResults(race, participants, passings, rules);
          for (let p = 0; p < results.index.pointCount; p++) {
            const rows = leadersAt(results, p, count);
            const order = rankingOrder(results, p);
            expect(rows.map((r) => r.i)).toEqual([...order.slice(0, count)]);
            rows.forEach((row, k) => {
              expect(row.netMs).toBe(netTimeOf(results, row.i, p));
              expect(row.rank).toBe(rankAt(results, row.i, p));
              if (k === 0) expect(row.gapMs).toBe(0);
              else {
                const before = rows[k - 1]!;
                expect(row.gapMs).toBeGreaterThanOrEqual(before.gapMs);
                // Ties by the time the race ranks by (gun or net), not by the chip time shown.
                expect(row.rank === before.rank).toBe(
                  rankKeyOf(results, row.i, p) === rankKeyOf(results, before.i, p),
                );
              }
            });
          }
        },
      ),
    );
  });

  it('time trial: every runner in at most one list; standings are the finish leaders; on course furthest first', () => {
    fc.assert(
      fc.property(raceScenario, fc.integer({ min: -60_000, max: 600_000 }), (s, offset) => {
        const results = computeResults(s.race, s.participants, s.passings, s.rules);
        const now = (s.race.gunTime ?? 0) + offset;
        const board = timeTrialAt(results, now, 100);
        const finish = results.index.pointCount - 1;
        expect(board.standings).toEqual(leadersAt(results, finish, 100));
        const onCourse = board.onCourse.map((r) => r.i);
        const next = board.next.map((r) => r.i);
        const finished = board.latest.map((r) => r.i);
        const all = [...onCourse, ...next, ...finished];
        expect(new Set(all).size).toBe(all.length);
        for (const i of finished) expect(statusOf(results, i)).toBe('finished');
        for (const r of board.onCourse) {
          expect(['onCourse', 'notStarted']).toContain(statusOf(results, r.i));
          expect(r.gapMs).toBe(r.lastPoint >= 0 ? gapAt(results, r.i, r.lastPoint) : null);
        }
        for (let k = 1; k < board.onCourse.length; k++)
          expect(board.onCourse[k]!.lastPoint).toBeLessThanOrEqual(board.onCourse[k - 1]!.lastPoint);
        for (const r of board.next) expect(r.startAt).toBeGreaterThan(now);
        // Issue 27: the standings' count is the finishers'; no finish predicted before now.
        expect(board.finishers).toBe(
          Array.from({ length: results.index.n }, (_, i) => statusOf(results, i)).filter(
            (x) => x === 'finished',
          ).length,
        );
        expect(board.standings.length).toBe(Math.min(100, board.finishers));
        for (const r of board.onCourse)
          if (r.predictedFinishNetMs !== null)
            expect(r.predictedFinishNetMs).toBeGreaterThanOrEqual(now - r.startMs);
      }),
    );
  });
});

describe('times of day (issue 19)', () => {
  it('are shown in the event zone on a 24-hour clock', () => {
    const at = Date.UTC(2026, 10, 23, 17, 5, 9);
    expect(formatTimeOfDay(at, 'Europe/Brussels')).toBe('18:05:09');
    expect(formatTimeOfDay(at, 'America/New_York')).toBe('12:05:09');
    expect(formatTimeOfDay(null, 'Europe/Brussels')).toBe('');
  });
});

describe('predictedFinishShown (issue 27)', () => {
  it('is never before the time ridden, and the prediction while ahead of it', () => {
    expect(predictedFinishShown(2_712_000 as Millis, 2_727_000)).toBe(2_727_000);
    expect(predictedFinishShown(2_800_000 as Millis, 2_727_000)).toBe(2_800_000);
    expect(predictedFinishShown(2_800_000 as Millis, null)).toBe(2_800_000);
    expect(predictedFinishShown(null, 2_727_000)).toBeNull();
  });
});
