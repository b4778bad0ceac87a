import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Participant, Passing, RegistrationStatus } from '../results/types.ts';
import {
  applyCutoffs,
  applyLapCutoffs,
  type Cutoff,
  type CutoffRunner,
  type LapCutoffRunner,
  lapPositions,
} from './cutoffs.ts';
import { computeLapRace, type LapRaceDefinition, type LapRaceResults } from './laps.ts';
import { computeMultisport, type MultisportDefinition } from './multisport.ts';
import { computeRelay, type RelayDefinition, type RelayTeam } from './relay.ts';

const RUNS = { numRuns: 300 };
const START = Date.UTC(2026, 5, 1, 8, 0, 0);
const S = 1000;

/** Reorders `items` by random keys (a permutation). */
function permute<T>(items: readonly T[], keys: readonly number[]): T[] {
  return items
    .map((item, k) => ({ item, key: keys[k % Math.max(1, keys.length)]! * 1000 + k }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.item);
}

const statusArb = fc.constantFrom<RegistrationStatus>(
  'registered',
  'registered',
  'registered',
  'DNF',
  'DSQ',
  'DNS',
);

const lapScenario = fc
  .record({
    kind: fc.constantFrom('laps', 'criterium', 'timeLimited', 'backyard'),
    minLapS: fc.constantFrom(0, 30, 60),
    people: fc.array(statusArb, { minLength: 1, maxLength: 8 }),
    reads: fc.array(
      fc.record({ who: fc.nat(9), second: fc.integer({ min: -20, max: 900 }), deleted: fc.nat(12) }),
      { maxLength: 60 },
    ),
  })
  .map(({ kind, minLapS, people, reads }) => {
    const race: LapRaceDefinition = {
      startMs: START,
      lapPointId: 'mat',
      minLapMs: minLapS * S,
      lapLengthM: 400,
      targetLaps: kind === 'criterium' ? 4 : undefined,
      limitMs: kind === 'timeLimited' ? 600 * S : undefined,
      backyardIntervalMs: kind === 'backyard' ? 120 * S : undefined,
    };
    const participants: Participant[] = people.map((status, i) => ({
      bib: String(i + 1),
      firstName: '',
      lastName: '',
      gender: 'M',
      status,
    }));
    const passings: Passing[] = reads.map((r, k) => ({
      id: `r${k}`,
      bib: String(r.who + 1),
      pointId: 'mat',
      timeMs: START + r.second * S,
      source: 'decoder',
      deleted: r.deleted === 0 ? true : undefined,
    }));
    return { kind, race, participants, passings };
  });

const snapshot = (r: LapRaceResults) => ({
  order: r.order,
  rows: r.rows.map(({ crossings, ...row }) => ({ ...row, crossings: crossings.map((c) => c.timeMs) })),
});

describe('lap races: laws', () => {
  it('give the same results whatever the arrival order of the reads', () => {
    fc.assert(
      fc.property(lapScenario, fc.array(fc.nat(), { minLength: 1, maxLength: 60 }), (s, keys) => {
        const a = computeLapRace(s.race, s.participants, s.passings, { nowMs: START + 700 * S });
        const b = computeLapRace(s.race, s.participants, permute(s.passings, keys), {
          nowMs: START + 700 * S,
        });
        expect(snapshot(b)).toEqual(snapshot(a));
      }),
      RUNS,
    );
  });

  it('are unchanged by duplicates, by id or by bib, point and time', () => {
    fc.assert(
      fc.property(lapScenario, fc.array(fc.nat(), { maxLength: 10 }), (s, picks) => {
        const copies = picks.flatMap((k) => {
          const p = s.passings[k % Math.max(1, s.passings.length)];
          return p ? [{ ...p }, { ...p, id: `${p.id}-copy` }] : [];
        });
        const a = computeLapRace(s.race, s.participants, s.passings);
        const b = computeLapRace(s.race, s.participants, [...s.passings, ...copies]);
        expect(snapshot(b)).toEqual(snapshot(a));
      }),
      RUNS,
    );
  });

  it('never lose a lap as reads arrive in time order', () => {
    fc.assert(
      fc.property(lapScenario, (s) => {
        const live = s.passings.filter((p) => !p.deleted).sort((a, b) => a.timeMs - b.timeMs);
        let before = s.participants.map(() => 0);
        for (let k = 0; k <= live.length; k++) {
          const now = computeLapRace(s.race, s.participants, live.slice(0, k)).rows.map((r) => r.laps);
          now.forEach((laps, i) => {
            expect(laps).toBeGreaterThanOrEqual(before[i]!);
          });
          before = now;
        }
      }),
      RUNS,
    );
  });

  it('never count a lap inside the minimum lap time', () => {
    fc.assert(
      fc.property(lapScenario, (s) => {
        const r = computeLapRace(s.race, s.participants, s.passings);
        for (const row of r.rows) {
          for (const t of row.lapTimesMs) expect(t).toBeGreaterThanOrEqual(s.race.minLapMs);
          if (s.race.backyardIntervalMs !== undefined)
            for (const t of row.lapTimesMs) expect(t).toBeLessThanOrEqual(s.race.backyardIntervalMs);
          if (s.race.targetLaps !== undefined) expect(row.laps).toBeLessThanOrEqual(s.race.targetLaps);
        }
      }),
      RUNS,
    );
  });

  it('a criterium counts nobody past its laps, even when only a disqualified runner has finished', () => {
    // Found by the property above (seed 875090565): 5 laps of 4 for a DSQ runner's reads.
    const race: LapRaceDefinition = {
      startMs: START,
      lapPointId: 'mat',
      minLapMs: 0,
      lapLengthM: 400,
      targetLaps: 4,
    };
    const people: Participant[] = [
      { bib: '1', firstName: '', lastName: '', gender: 'M', status: 'registered' },
      { bib: '2', firstName: '', lastName: '', gender: 'M', status: 'DSQ' },
    ];
    const reads: Passing[] = [1, 2, 3, 4, 5].map((s, k) => ({
      id: `r${k}`,
      bib: '2',
      pointId: 'mat',
      timeMs: START + s * S,
      source: 'decoder',
    }));
    expect(computeLapRace(race, people, reads).rows.map((r) => r.laps)).toEqual([0, 4]);
  });

  it('rank as a permutation: every ranked runner once, ranks 1 + those strictly ahead', () => {
    fc.assert(
      fc.property(lapScenario, (s) => {
        const r = computeLapRace(s.race, s.participants, s.passings, { nowMs: START + 700 * S });
        const ranked = r.rows.filter((row) => row.rank !== undefined).map((row) => row.index);
        expect([...r.order].sort((a, b) => a - b)).toEqual(ranked);
        r.order.forEach((i, k) => {
          const rank = r.rows[i]!.rank!;
          const prev = r.order[k - 1];
          expect(rank === k + 1 || (prev !== undefined && r.rows[prev]!.rank === rank)).toBe(true);
          if (prev !== undefined) expect(r.rows[prev]!.laps).toBeGreaterThanOrEqual(r.rows[i]!.laps);
        });
        for (const row of r.rows) {
          const status = s.participants[row.index]!.status;
          if (status === 'DNS' || status === 'DSQ') expect(row.rank).toBeUndefined();
        }
      }),
      RUNS,
    );
  });
});

describe('cut-offs: laws', () => {
  const cutoffScenario = fc.record({
    runners: fc.array(
      fc.record({
        startOffset: fc.integer({ min: 0, max: 60 }),
        a: fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined }),
        b: fc.option(fc.integer({ min: 0, max: 800 }), { nil: undefined }),
      }),
      { maxLength: 10 },
    ),
    cutA: fc.integer({ min: 60, max: 400 }),
    cutB: fc.integer({ min: 100, max: 800 }),
    byElapsed: fc.boolean(),
    nowA: fc.integer({ min: 0, max: 900 }),
    later: fc.integer({ min: 0, max: 300 }),
    looser: fc.integer({ min: 0, max: 300 }),
  });
  const runnersOf = (s: { runners: { startOffset: number; a?: number; b?: number }[] }): CutoffRunner[] =>
    s.runners.map((r, i) => ({
      bib: String(i),
      startMs: START + r.startOffset * S,
      times: {
        a: r.a === undefined ? undefined : START + r.a * S,
        b: r.b === undefined ? undefined : START + r.b * S,
      },
    }));
  const cutoffsOf = (cutA: number, cutB: number, byElapsed: boolean): Cutoff[] =>
    byElapsed
      ? [
          { pointId: 'a', elapsedMs: cutA * S },
          { pointId: 'b', elapsedMs: cutB * S },
        ]
      : [
          { pointId: 'a', atMs: START + cutA * S },
          { pointId: 'b', atMs: START + cutB * S },
        ];
  const cutBibs = (decisions: ReturnType<typeof applyCutoffs>) =>
    new Set(decisions.filter((d) => !d.overridden).map((d) => d.bib));

  it('only ever add runners as time passes, and never add one when a cut-off is loosened', () => {
    fc.assert(
      fc.property(cutoffScenario, (s) => {
        const runners = runnersOf(s);
        const cutoffs = cutoffsOf(s.cutA, s.cutB, s.byElapsed);
        const early = cutBibs(applyCutoffs(cutoffs, ['a', 'b'], runners, START + s.nowA * S));
        const late = cutBibs(applyCutoffs(cutoffs, ['a', 'b'], runners, START + (s.nowA + s.later) * S));
        for (const bib of early) expect(late.has(bib)).toBe(true);
        const loose = cutBibs(
          applyCutoffs(
            cutoffsOf(s.cutA + s.looser, s.cutB + s.looser, s.byElapsed),
            ['a', 'b'],
            runners,
            START + s.nowA * S,
          ),
        );
        for (const bib of loose) expect(early.has(bib)).toBe(true);
      }),
      RUNS,
    );
  });

  it('are undone by an override, which shows the decision and moves on to the next cut-off', () => {
    const runners: CutoffRunner[] = [{ bib: '7', startMs: START, times: { a: START + 500 * S } }];
    const cutoffs = cutoffsOf(300, 800, false);
    const [first] = applyCutoffs(cutoffs, ['a', 'b'], runners, START + 900 * S);
    expect(first).toMatchObject({
      bib: '7',
      pointId: 'a',
      reason: 'late',
      outcome: 'DNF',
      overridden: false,
    });
    const undone = applyCutoffs(cutoffs, ['a', 'b'], runners, START + 900 * S, [{ bib: '7', pointId: 'a' }]);
    expect(undone.map((d) => [d.pointId, d.reason, d.overridden])).toEqual([
      ['a', 'late', true],
      ['b', 'notReached', false],
    ]);
  });
});

describe('multisport and relays: laws', () => {
  const multi: MultisportDefinition = {
    date: '2026-06-01',
    categories: [{ id: 'all', name: 'All' }],
    startMs: START,
    legs: ['swim', 't1', 'bike', 't2', 'run'].map((id, k) => ({
      id,
      name: id,
      kind: k % 2 ? 'transition' : 'discipline',
      endPointId: `p${k}`,
    })),
  };
  const readsArb = fc.array(
    fc.record({ who: fc.nat(5), point: fc.nat(4), second: fc.integer({ min: -5, max: 500 }) }),
    { maxLength: 40 },
  );
  const peopleArb = fc.array(statusArb, { minLength: 1, maxLength: 6 });

  it('multisport results depend on the set of reads only, and legs add up to the total', () => {
    fc.assert(
      fc.property(peopleArb, readsArb, fc.array(fc.nat(), { minLength: 1 }), (people, reads, keys) => {
        const participants: Participant[] = people.map((status, i) => ({
          bib: String(i),
          firstName: '',
          lastName: '',
          gender: i % 2 ? 'F' : 'M',
          status,
        }));
        const passings: Passing[] = reads.map((r, k) => ({
          id: `r${k}`,
          bib: String(r.who),
          pointId: `p${r.point}`,
          timeMs: START + r.second * S,
          source: 'decoder',
        }));
        const a = computeMultisport(multi, participants, passings);
        const b = computeMultisport(multi, participants, [...permute(passings, keys), ...passings]);
        expect(b).toEqual(a);
        for (const row of a.rows) {
          if (row.totalMs !== undefined && row.legTimesMs.every((t) => t !== undefined))
            expect(row.legTimesMs.reduce((x, t) => x! + t!, 0)).toBe(row.totalMs);
        }
      }),
      RUNS,
    );
  });

  it('relay results depend on the set of reads only; a team time is the sum of its legs', () => {
    const relay: RelayDefinition = {
      date: '2026-06-01',
      categories: [],
      startMs: START,
      legs: [0, 1, 2].map((k) => ({
        id: `l${k}`,
        name: `L${k}`,
        endPointId: k === 2 ? 'finish' : 'x',
        massStartMs: k === 2 ? START + 300 * S : undefined,
      })),
    };
    fc.assert(
      fc.property(peopleArb, readsArb, fc.array(fc.nat(), { minLength: 1 }), (people, reads, keys) => {
        const teams: RelayTeam[] = people.map((status, i) => ({
          bib: String(i),
          name: `T${i}`,
          gender: 'X',
          status,
          members: [0, 1, 2].map((leg) => ({ leg, name: `m${leg}`, chips: [`c${i}-${leg}`] })),
        }));
        const passings: Passing[] = reads.map((r, k) => ({
          id: `r${k}`,
          chip: r.point % 2 ? `c${r.who}-${r.point % 3}` : undefined,
          bib: r.point % 2 ? undefined : String(r.who),
          pointId: r.point > 2 ? 'finish' : 'x',
          timeMs: START + r.second * S,
          source: 'decoder',
        }));
        const a = computeRelay(relay, teams, passings);
        const b = computeRelay(relay, teams, [...permute(passings, keys), ...passings]);
        expect(b).toEqual(a);
        for (const row of a.rows) {
          if (row.totalMs !== undefined)
            expect(row.legs.reduce((x, l) => x + l.timeMs!, 0)).toBe(row.totalMs);
        }
        const ranked = a.rows.filter((r) => r.rank !== undefined).map((r) => r.index);
        expect([...a.order].sort((x, y) => x - y)).toEqual(ranked);
      }),
      RUNS,
    );
  });
});

describe('lap cut-offs and the lap chart: laws', () => {
  const lapRunners = (s: { race: LapRaceDefinition; participants: Participant[]; passings: Passing[] }) => {
    const r = computeLapRace(s.race, s.participants, s.passings, { nowMs: START + 2000 * S });
    return r.rows.map(
      (row): LapCutoffRunner => ({
        bib: row.bib,
        startMs: START,
        crossingsMs: row.crossings.map((c) => c.timeMs),
        doneMs: row.status === 'finished' ? row.crossings.at(-1)?.timeMs : undefined,
      }),
    );
  };
  const cut = (d: ReturnType<typeof applyLapCutoffs>) =>
    new Set(d.filter((x) => !x.overridden).map((x) => x.bib));

  it('a later deadline, or an earlier moment, never adds a DNF', () => {
    fc.assert(
      fc.property(
        lapScenario,
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 30, max: 900 }),
        fc.integer({ min: 0, max: 600 }),
        fc.integer({ min: 0, max: 1200 }),
        fc.boolean(),
        (s, laps, deadline, later, now, byElapsed) => {
          const runners = lapRunners(s);
          const at = (d: number) =>
            byElapsed ? [{ laps, elapsedMs: d * S }] : [{ laps, atMs: START + d * S }];
          const strict = cut(applyLapCutoffs(at(deadline), runners, START + now * S));
          const loose = cut(applyLapCutoffs(at(deadline + later), runners, START + now * S));
          for (const bib of loose) expect(strict.has(bib)).toBe(true);
          const earlier = cut(applyLapCutoffs(at(deadline), runners, START + Math.max(0, now - later) * S));
          for (const bib of earlier) expect(strict.has(bib)).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('cut a rider late at lap k, not one who finished before the deadline, and an override undoes it', () => {
    const runners: LapCutoffRunner[] = [
      { bib: '1', startMs: START, crossingsMs: [START + 100 * S, START + 200 * S] },
      { bib: '2', startMs: START, crossingsMs: [START + 150 * S, START + 320 * S] },
      { bib: '3', startMs: START, crossingsMs: [START + 160 * S] },
      { bib: '4', startMs: START, crossingsMs: [START + 170 * S], doneMs: START + 170 * S },
    ];
    const decisions = applyLapCutoffs([{ laps: 2, elapsedMs: 300 * S }], runners, START + 400 * S);
    expect(decisions.map((d) => [d.bib, d.pointId, d.reason])).toEqual([
      ['2', 'lap:2', 'late'],
      ['3', 'lap:2', 'notReached'],
    ]);
    const undone = applyLapCutoffs([{ laps: 2, elapsedMs: 300 * S }], runners, START + 400 * S, [
      { bib: '2', pointId: 'lap:2' },
    ]);
    expect(undone.find((d) => d.bib === '2')?.overridden).toBe(true);
  });

  it('give, after each lap, positions 1..n among the riders who completed it', () => {
    fc.assert(
      fc.property(lapScenario, (s) => {
        const runners = lapRunners(s);
        const positions = lapPositions(runners);
        const maxLaps = Math.max(0, ...runners.map((r) => r.crossingsMs.length));
        for (let k = 0; k < maxLaps; k++) {
          const at = runners.flatMap((r, i) => (r.crossingsMs[k] === undefined ? [] : [i]));
          const got = at.map((i) => positions[i]![k]!).sort((a, b) => a - b);
          expect(got).toEqual(at.map((_, p) => p + 1));
          for (const i of at)
            for (const j of at)
              if (runners[i]!.crossingsMs[k]! < runners[j]!.crossingsMs[k]!)
                expect(positions[i]![k]!).toBeLessThan(positions[j]![k]!);
        }
        expect(positions.map((p) => p.length)).toEqual(runners.map((r) => r.crossingsMs.length));
      }),
      RUNS,
    );
  });
});
