import type { AthleteCard, MyResult, PersonalBest } from '@tempora/contracts';
import type { MyRow } from './repository.ts';

/** Looks a runner's live card up by tracking key (the results module's `tracking`). */
export type CardLookup = (trackingKey: string) => Promise<AthleteCard>;

/**
 * A result of mine with its times, ranks, splits and prediction, from the live state (the same
 * numbers every public view shows: ranks unchanged by my privacy choice). Without a state (a
 * context that fails to load) the result is listed without them.
 */
export async function withResults(row: MyRow, card: CardLookup): Promise<MyResult> {
  const found = await card(row.trackingKey).catch(() => null);
  const finish = found?.splits.at(-1);
  const finished = found?.status === 'finished';
  return {
    ...row,
    distanceM: found?.race.distanceM ?? null,
    status: found?.status ?? 'registered',
    netMs: finished ? (finish?.netMs ?? null) : null,
    gunMs: finished ? (finish?.gunMs ?? null) : null,
    rankOverall: finished ? (finish?.rankOverall ?? null) : null,
    rankGender: finished ? (finish?.rankGender ?? null) : null,
    rankCategory: finished ? (finish?.rankCategory ?? null) : null,
    category: found?.athlete.category ?? null,
    splits: (found?.race.points ?? []).map((p, k) => ({
      pointKey: p.key,
      name: p.name,
      nameFr: p.nameFr ?? p.name,
      netMs: found?.splits[k]?.netMs ?? null,
    })),
    predictedNetMs: found?.prediction?.finishNetMs ?? null,
  };
}

/** My best finish at each distance (issue 40), shortest distance first. */
export function personalBests(results: readonly MyResult[]): PersonalBest[] {
  const best = new Map<number, PersonalBest>();
  for (const r of results) {
    if (r.status !== 'finished' || r.netMs === null || !r.distanceM) continue;
    const known = best.get(r.distanceM);
    if (!known || r.netMs < known.netMs) {
      best.set(r.distanceM, {
        distanceM: r.distanceM,
        netMs: r.netMs,
        participantId: r.participantId,
        eventName: r.eventName,
        date: r.date,
      });
    }
  }
  return [...best.values()].sort((a, b) => a.distanceM - b.distanceM);
}
