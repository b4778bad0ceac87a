/**
 * Orders the ranked indices by `better` (negative: a before b) and gives each its competition
 * rank, the engine's rule (results/README.md "Ranks"): 1 + the number strictly better, so ties
 * share a rank and the next one skips (1, 2, 2, 4). Tied entries are listed by `tieBreak` (a bib)
 * so that the order, like the ranks, never depends on input order.
 */
export function competitionRanks(
  indices: readonly number[],
  better: (a: number, b: number) => number,
  tieBreak: (i: number) => string,
): { readonly order: number[]; readonly rank: Map<number, number> } {
  const order = [...indices].sort((a, b) => {
    const c = better(a, b);
    if (c !== 0) return c;
    const ta = tieBreak(a);
    const tb = tieBreak(b);
    return ta < tb ? -1 : ta > tb ? 1 : a - b;
  });
  const rank = new Map<number, number>();
  order.forEach((i, k) => {
    const prev = order[k - 1];
    rank.set(i, prev !== undefined && better(prev, i) === 0 ? rank.get(prev)! : k + 1);
  });
  return { order, rank };
}

/** Ranks of one value per index (smaller is better), NaN/undefined values unranked. */
export function ranksOfTimes(values: readonly (number | undefined)[], tieBreak: (i: number) => string) {
  const indices = values.flatMap((v, i) => (v !== undefined && Number.isFinite(v) ? [i] : []));
  return competitionRanks(indices, (a, b) => values[a]! - values[b]!, tieBreak);
}
