import type { ReadLike } from '../results/read-selection.ts';
import type { RaceResults } from '../results/results-model.ts';
import type { Passing } from '../results/types.ts';

/**
 * The reads a road-race results object holds (a full recompute, or a live incremental state with
 * the reads applied since), as passings the formats take: one per read of a known runner at a
 * known mat, named by the runner's bib. Lets a server keep one live state per race and still
 * compute a lap, multisport or relay table from it. Unmatched reads are left out.
 */
export function passingsOfResults(results: RaceResults): Passing[] {
  const { index } = results;
  const overlay = (results as { overlay?: ReadonlyMap<number, readonly ReadLike[]> }).overlay;
  const startId = index.race.startPoint?.id;
  const out: Passing[] = [];
  for (let i = 0; i < index.n; i++) {
    const bib = index.participants[i]!.bib;
    for (let s = 0; s < index.slotCount; s++) {
      const pointId = s === 0 ? startId : index.pointIds[s - 1];
      if (pointId === undefined) continue;
      const b = i * index.slotCount + s;
      const reads: readonly ReadLike[] =
        overlay?.get(b) ??
        Array.from({ length: results.bucketStart[b + 1]! - results.bucketStart[b]! }, (_, k) => {
          return results.passings[results.bucketOrder[results.bucketStart[b]! + k]!]!;
        });
      for (const r of reads)
        out.push({
          id: r.id,
          bib,
          pointId,
          timeMs: r.timeMs,
          source: 'decoder',
          ...(r.deleted ? { deleted: true } : {}),
        });
    }
  }
  return out;
}
