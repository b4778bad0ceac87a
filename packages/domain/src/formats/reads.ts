import type { Bib, Passing } from '../results/types.ts';

/** One read as the formats keep it: enough to show the timekeeper the read behind a result. */
export interface ReadRef {
  readonly id: string;
  readonly pointId: string;
  readonly timeMs: number;
}

/** Who a read may belong to: a runner, or a relay team whose members carry their own chips. */
export interface ReadOwner {
  readonly bib: Bib;
  readonly chips?: readonly string[];
}

/**
 * The reads of a race grouped by owner and timing point, each list sorted by time with one read
 * per distinct time. A function of the set of passings (the engine's rule, results/README.md):
 * the same id twice, or the same owner, point and millisecond, is one read; a read sent again
 * with `deleted: true` removes every read of that owner and point with its id or its time,
 * whatever the arrival order.
 */
export interface ReadBook {
  /** `byOwner[i].get(pointId)`: owner i's reads at that point. */
  readonly byOwner: readonly ReadonlyMap<string, readonly ReadRef[]>[];
  /** Reads naming no known bib or chip. */
  readonly unmatched: readonly ReadRef[];
}

const byTimeThenId = (a: ReadRef, b: ReadRef) =>
  a.timeMs - b.timeMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Groups passings by owner (bib first, else chip) and point, under the engine's read rules. */
export function bookReads(owners: readonly ReadOwner[], passings: readonly Passing[]): ReadBook {
  const byBib = new Map<string, number>();
  const byChip = new Map<string, number>();
  owners.forEach((o, i) => {
    byBib.set(o.bib, i);
    for (const chip of o.chips ?? []) byChip.set(chip, i);
  });
  // Buckets hold the passings themselves (a passing is a ReadRef): no copy per read, as a 24-hour
  // race recomputes 100,000 of them.
  const raw: Map<string, Passing[]>[] = owners.map(() => new Map());
  let anyDeleted = false;
  // Unmatched reads: one per (bib or chip, point, time), like matched ones.
  const unmatchedBy = new Map<string, ReadRef>();
  for (const p of passings) {
    const i =
      (p.bib !== undefined ? byBib.get(p.bib) : undefined) ?? (p.chip ? byChip.get(p.chip) : undefined);
    if (i === undefined) {
      if (p.deleted) continue;
      const key = `${p.bib ?? ''}\u0000${p.chip ?? ''}\u0000${p.pointId}\u0000${p.timeMs}`;
      const held = unmatchedBy.get(key);
      if (!held || p.id < held.id) unmatchedBy.set(key, { id: p.id, pointId: p.pointId, timeMs: p.timeMs });
      continue;
    }
    if (p.deleted) anyDeleted = true;
    const at = raw[i]!;
    const list = at.get(p.pointId);
    if (list) list.push(p);
    else at.set(p.pointId, [p]);
  }
  const byOwner = raw.map((points) => {
    for (const [pointId, bucket] of points) {
      let list = bucket;
      if (anyDeleted && list.some((p) => p.deleted)) {
        const deadIds = new Set<string>();
        const deadTimes = new Set<number>();
        for (const p of list) {
          if (!p.deleted) continue;
          deadIds.add(p.id);
          deadTimes.add(p.timeMs);
        }
        list = list.filter((p) => !p.deleted && !deadIds.has(p.id) && !deadTimes.has(p.timeMs));
      }
      list.sort(byTimeThenId);
      // One read per distinct time (the first by id): duplicates by id or by time fold here.
      let w = 0;
      for (let k = 0; k < list.length; k++) {
        if (w === 0 || list[w - 1]!.timeMs !== list[k]!.timeMs) list[w++] = list[k]!;
      }
      list.length = w;
      if (w) points.set(pointId, list);
      else points.delete(pointId);
    }
    return points as ReadonlyMap<string, readonly ReadRef[]>;
  });
  const unmatched = [...unmatchedBy.values()].sort(byTimeThenId);
  return { byOwner, unmatched };
}

/** The first read at or after `from` (strictly after when `strict`), or undefined. */
export function firstReadFrom(
  reads: readonly ReadRef[] | undefined,
  from: number,
  strict = false,
): ReadRef | undefined {
  if (!reads) return undefined;
  for (const r of reads) if (r.timeMs > from || (!strict && r.timeMs === from)) return r;
  return undefined;
}
