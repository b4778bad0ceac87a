/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readCsv } from '../../test/read-csv.ts';
import { importBostonTable, type OfficialResult } from './boston-import.ts';
import { computeResults } from './compute.ts';
import { applyPassing, createResultsState } from './incremental.ts';
import { rankAt, rankingOrder } from './queries.ts';
import { netTimeOf, type RaceResults } from './results-model.ts';
import type { RankScope } from './types.ts';

// The B.A.A. official result list of 2017 (shared/README.md): the golden standard for ranks.
const DATA = new URL('../../../../fixtures/boston-2017.csv', import.meta.url);
const boston = importBostonTable(readCsv(readFileSync(DATA, 'utf8')));
const results = computeResults(boston.race, boston.participants, boston.passings);
const FINISH = boston.race.points.length - 1;

const officialRank = (o: OfficialResult, scope: RankScope) =>
  scope === 'overall' ? o.overall : scope === 'gender' ? o.gender : o.division;

interface Comparison {
  compared: number;
  exact: number;
  mismatches: string[];
}

/**
 * Compares computed finish ranks with the official ones within each group of `scope`. The file
 * misses a few finishers, so an official rank becomes a position among the ranks present in the
 * group; official times are whole seconds and ranks break equal seconds by hidden tenths, so a
 * runner sharing its second with k others may officially sit anywhere in the k + 1 places from
 * our (shared) rank; a runner alone on its second must sit exactly at our rank.
 */
function compare(r: RaceResults, scope: RankScope): Comparison {
  const groups = new Map<string, number[]>();
  boston.official.forEach((_, i) => {
    const key =
      scope === 'overall'
        ? ''
        : scope === 'gender'
          ? boston.participants[i]!.gender
          : String(r.index.categoryOf[i]);
    const members = groups.get(key) ?? [];
    members.push(i);
    groups.set(key, members);
  });
  const out: Comparison = { compared: 0, exact: 0, mismatches: [] };
  for (const members of groups.values()) {
    const ranks = members.map((i) => officialRank(boston.official[i]!, scope)).sort((a, b) => a - b);
    const position = new Map(ranks.map((rank, k) => [rank, k + 1]));
    const seconds = new Map<number, number>();
    for (const i of members) {
      const s = boston.official[i]!.officialTimeMs;
      seconds.set(s, (seconds.get(s) ?? 0) + 1);
    }
    for (const i of members) {
      const official = boston.official[i]!;
      const computed = rankAt(r, i, FINISH, scope);
      const pos = position.get(officialRank(official, scope))!;
      const sharing = seconds.get(official.officialTimeMs)!;
      out.compared++;
      if (sharing === 1 && computed === pos) out.exact++;
      if (
        computed === null ||
        pos < computed ||
        pos > computed + sharing - 1 ||
        (sharing === 1 && pos !== computed)
      ) {
        out.mismatches.push(`${scope} bib ${official.bib}: computed ${computed}, official position ${pos}`);
      }
    }
  }
  return out;
}

describe('Boston Marathon 2017: golden results against the official list', () => {
  it('imports every finisher with its splits and no malformed row', () => {
    expect(boston.issues).toEqual([]);
    expect(boston.participants).toHaveLength(26_410);
    expect(boston.race.points.map((p) => p.id)).toEqual([
      ...['5K', '10K', '15K', '20K', 'Half', '25K', '30K', '35K', '40K'],
      'finish',
    ]);
  });

  it('computes net finish times equal to the official times', () => {
    boston.official.forEach((o, i) => {
      expect(netTimeOf(results, i, FINISH)).toBe(o.officialTimeMs);
    });
  });

  it.each<RankScope>(['overall', 'gender', 'category'])(
    'ranks every runner like the B.A.A. (%s)',
    (scope) => {
      const { compared, exact, mismatches } = compare(results, scope);
      console.info(`Boston 2017 ${scope}: ${compared} compared, ${exact} alone on their second and exact`);
      expect(mismatches).toEqual([]);
      expect(compared).toBe(26_410);
      // Runners alone on their second in the group: a strict check (counts from the 2017 file).
      expect(exact).toBe({ overall: 3_009, gender: 6_494, category: 19_042 }[scope]);
    },
  );

  it('reaches the same rankings incrementally, finish passings applied in any order', () => {
    const finishes = boston.passings.filter((p) => p.pointId === 'finish');
    const state = createResultsState(
      computeResults(
        boston.race,
        boston.participants,
        boston.passings.filter((p) => p.pointId !== 'finish'),
      ),
    );
    // A fixed scramble (a stride coprime with the count), so that the test is reproducible.
    for (let k = 0; k < finishes.length; k++) applyPassing(state, finishes[(k * 7919) % finishes.length]!);
    boston.race.points.forEach((_, p) => {
      expect(Array.from(rankingOrder(state, p))).toEqual(Array.from(rankingOrder(results, p)));
    });
    for (let i = 0; i < boston.participants.length; i += 97) {
      expect(rankAt(state, i, FINISH, 'category')).toBe(rankAt(results, i, FINISH, 'category'));
    }
  });
});
