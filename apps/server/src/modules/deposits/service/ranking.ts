import type { TeamRanking } from '@tempora/contracts';
import type * as repo from '../repository.ts';
import type { DepositsContext } from './shared.ts';

/**
 * A team's ranking (issue 18): its confirmed runners' times from the results, and the team's
 * time over its fastest `minTeamSize` runners.
 */
export function createRanking(ctx: DepositsContext) {
  const { database, results } = ctx;

  async function ranking(deposit: repo.DepositRow): Promise<TeamRanking> {
    const rows = await database.query<{ bib: string; name: string; raceName: string; db: string }>(
      `SELECT e.bib, trim(e.first_name || ' ' || e.last_name) AS name, r.name AS "raceName", r.db
         FROM deposit_entries e JOIN races r ON r.id = e.race_id
        WHERE e.deposit_id = $1::bigint AND e.state = 'confirmed' AND e.bib IS NOT NULL ORDER BY e.id`,
      [deposit.id],
    );
    const members = await Promise.all(
      rows.map(async (r) => {
        try {
          const card = await results.athleteByBib(r.db, r.bib);
          const finish = card.splits[card.splits.length - 1];
          return {
            bib: r.bib,
            name: r.name,
            raceName: r.raceName,
            timeMs: finish?.netMs ?? null,
            rank: finish?.rankOverall ?? null,
          };
        } catch {
          return { bib: r.bib, name: r.name, raceName: r.raceName, timeMs: null, rank: null };
        }
      }),
    );
    const times = members
      .map((m) => m.timeMs)
      .filter((t): t is number => t !== null)
      .sort((a, b) => a - b);
    members.sort((a, b) => (a.timeMs ?? Number.POSITIVE_INFINITY) - (b.timeMs ?? Number.POSITIVE_INFINITY));
    return {
      started: times.length > 0,
      minTeamSize: deposit.minTeamSize,
      members,
      teamTimeMs:
        times.length >= deposit.minTeamSize
          ? times.slice(0, deposit.minTeamSize).reduce((s, t) => s + t, 0)
          : null,
    };
  }

  return { ranking };
}
