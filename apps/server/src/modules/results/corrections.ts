import { type ResultCorrection, resultCorrectionSchema } from '@tempora/contracts';
import { z } from 'zod';
import type { Sql } from '../../db/database.ts';
import type { RaceLive } from './context-state.ts';

/**
 * Corrections of official results (issue 43, packages/contracts `corrections.ts`). The results
 * module keeps them, in the race's rules beside its publication (`rules.corrections`, newest
 * first, the last 200): they load with the race everywhere the publication does (the live state,
 * the event page, the card, the certificate) and a re-opened race keeps them. Written by the
 * race-day desk and the console through `recordCorrections` (./port.ts) inside the change's own
 * transaction; the race's epoch moves with them, so the caller's reload shows them.
 */

/** How many corrections a race keeps (a race corrected more than this is re-published). */
const KEPT = 200;

const stored = z.array(resultCorrectionSchema);

/** Whether a race's results are published (official, or open to protests): the lock holds then. */
export function isOfficial(rules: Record<string, unknown> | null | undefined): boolean {
  const publication = rules?.publication as { publishedAtMs?: unknown } | undefined;
  return typeof publication?.publishedAtMs === 'number';
}

/** A race's corrections from its rules, newest first ([] when none or unreadable). */
export function correctionsOf(rules: Record<string, unknown> | null | undefined): ResultCorrection[] {
  const parsed = stored.safeParse(rules?.corrections ?? []);
  return parsed.success ? parsed.data : [];
}

/**
 * A race's corrections as the public reads them (issue 40): each runner named as the live state
 * names them now (its public projection: "Hidden runner" when they hid their name since the
 * correction was recorded, their name again when they show it).
 */
export function shownCorrections(race: RaceLive): ResultCorrection[] {
  return correctionsOf(race.row.rules).map((c) => shownCorrection(race, c));
}

/** One correction of a race with its runner named as the live state names them now. */
export function shownCorrection(race: RaceLive | undefined, c: ResultCorrection): ResultCorrection {
  const i = race && c.bib !== null ? race.byBib.get(c.bib) : undefined;
  if (i === undefined) return c;
  const p = race!.participants[i]!;
  return { ...c, name: `${p.firstName} ${p.lastName}`.trim() };
}

/** Appends corrections to their races (newest first) and bumps the races' epochs. */
export async function recordCorrections(sql: Sql, corrections: readonly ResultCorrection[]) {
  const byRace = new Map<string, ResultCorrection[]>();
  for (const c of corrections) byRace.set(c.raceId, [c, ...(byRace.get(c.raceId) ?? [])]);
  for (const [raceId, list] of byRace) {
    await sql.query(
      `UPDATE races
          SET rules = jsonb_set(rules, '{corrections}',
                (SELECT coalesce(jsonb_agg(c ORDER BY n), '[]'::jsonb)
                   FROM jsonb_array_elements($2::jsonb || coalesce(rules->'corrections', '[]'::jsonb))
                        WITH ORDINALITY AS x(c, n)
                  WHERE n <= $3)),
              epoch = epoch + 1
        WHERE id = $1`,
      [raceId, JSON.stringify(list), KEPT],
    );
  }
}
