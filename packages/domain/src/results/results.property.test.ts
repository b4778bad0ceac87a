import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ranksAt } from './bulk-ranks.ts';
import { computeResults } from './compute.ts';
import { fieldProfile } from './field-profile.ts';
import { applyPassing, createResultsState } from './incremental.ts';
import { predict } from './prediction.ts';
import { getResultRow } from './result-row.ts';
import { permute, raceScenario, raceScenarioOf, snapshotResults } from './testing/race-arbitraries.ts';
import type { RankScope } from './types.ts';

const orderKeys = fc.array(fc.integer(), { minLength: 1, maxLength: 400 });
const RUNS = { numRuns: 1000 };

describe('results engine laws (style.md "Tests": order, duplicates, incremental)', () => {
  it('gives the same results whatever the arrival order of the passings', () => {
    fc.assert(
      fc.property(raceScenario, orderKeys, ({ race, participants, passings, rules }, keys) => {
        const inOrder = computeResults(race, participants, passings, rules);
        const shuffled = computeResults(race, participants, permute(passings, keys), rules);
        expect(snapshotResults(shuffled)).toEqual(snapshotResults(inOrder));
      }),
      RUNS,
    );
  });

  it('is unchanged by duplicate passings, by id or by bib, point and time', () => {
    fc.assert(
      fc.property(raceScenario, fc.array(fc.nat(), { maxLength: 20 }), (scenario, picks) => {
        const { race, participants, passings, rules } = scenario;
        const copies = picks.flatMap((k) => {
          const p = passings[k % Math.max(1, passings.length)];
          return p ? [{ ...p }, { ...p, id: `${p.id}-again` }] : [];
        });
        const once = computeResults(race, participants, passings, rules);
        const twice = computeResults(race, participants, [...passings, ...copies], rules);
        expect(snapshotResults(twice).rows).toEqual(snapshotResults(once).rows);
      }),
      RUNS,
    );
  });

  it('applied one passing at a time, in any order, equals a full recompute', () => {
    fc.assert(
      fc.property(raceScenario, orderKeys, fc.nat(), fc.boolean(), (scenario, keys, cut, queryFirst) => {
        const { race, participants, passings, rules } = scenario;
        const order = permute(passings, keys);
        const split = cut % (order.length + 1);
        const state = createResultsState(computeResults(race, participants, order.slice(0, split), rules));
        // Caches built now (group rankings, field profile) must then follow every passing.
        if (queryFirst) snapshotResults(state);
        fieldProfile(state);
        for (const passing of order.slice(split)) applyPassing(state, passing);
        const full = computeResults(race, participants, passings, rules);
        expect(snapshotResults(state)).toEqual(snapshotResults(full));
        participants.forEach((_, i) => {
          expect(predict(state, i)).toEqual(predict(full, i));
        });
      }),
      RUNS,
    );
  });

  it('applied incrementally equals a full recompute for larger fields too', () => {
    fc.assert(
      fc.property(raceScenarioOf(60, 300), orderKeys, ({ race, participants, passings, rules }, keys) => {
        const state = createResultsState(computeResults(race, participants, [], rules));
        for (const passing of permute(passings, keys)) applyPassing(state, passing);
        const full = computeResults(race, participants, passings, rules);
        expect(snapshotResults(state)).toEqual(snapshotResults(full));
      }),
      { numRuns: 100 },
    );
  });

  it('lists every row a passing changed, including runners whose rank or gap moved', () => {
    fc.assert(
      fc.property(raceScenario, orderKeys, (scenario, keys) => {
        const { race, participants, passings, rules } = scenario;
        const state = createResultsState(computeResults(race, participants, [], rules));
        for (const passing of permute(passings, keys)) {
          const before = participants.map((_, i) => getResultRow(state, i));
          const change = applyPassing(state, passing);
          const listed = new Set(change.changed);
          expect(listed.size).toBe(change.changed.length);
          participants.forEach((_, i) => {
            if (!listed.has(i)) expect(getResultRow(state, i)).toEqual(before[i]);
          });
          expect(applyPassing(state, { ...passing })).toEqual({
            outcome: 'duplicate',
            changed: new Int32Array(0),
          });
        }
      }),
      RUNS,
    );
  });

  it('ranks k exactly when k − 1 runners of the same ranking are strictly faster (ties share)', () => {
    const scopes: RankScope[] = ['overall', 'gender', 'category'];
    fc.assert(
      fc.property(raceScenario, ({ race, participants, passings, rules }) => {
        const results = computeResults(race, participants, passings, rules);
        const rows = participants.map((_, i) => getResultRow(results, i));
        const time = (i: number, p: number) => {
          const point = rows[i]!.points[p]!;
          return rules.rankBy === 'gun' ? point.gunMs : point.netMs;
        };
        const sameGroup = (scope: RankScope, a: number, b: number) =>
          scope === 'overall' ||
          (scope === 'gender'
            ? participants[a]!.gender === participants[b]!.gender
            : rows[a]!.categoryId === rows[b]!.categoryId);
        race.points.forEach((_, p) => {
          const columns = ranksAt(results, p);
          for (const scope of scopes) {
            expect(Array.from(columns[scope])).toEqual(rows.map((row) => row.points[p]!.rank[scope] ?? 0));
            rows.forEach((row, i) => {
              const rank = row.points[p]!.rank[scope];
              if (rank === null) return;
              const mine = time(i, p)!;
              const faster = rows.filter((other, j) => {
                const t = time(j, p);
                return (
                  other.points[p]!.rank[scope] !== null && sameGroup(scope, i, j) && t !== null && t < mine
                );
              }).length;
              expect(rank).toBe(faster + 1);
            });
          }
        });
      }),
      RUNS,
    );
  });
});
