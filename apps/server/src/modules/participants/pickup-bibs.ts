import type { Sql } from '../../db/database.ts';
import { bumpEpoch, insertAudit } from './repository.ts';

/**
 * Bibs and chips given at the pickup tables (issue 39): the pickup module asks here, the
 * participants module writes the one participants table (and its audit trail, actions `bib` and
 * `chip`). A runner's chips are the map every read is resolved with (the device ingest's
 * `raceOf({ chip })` over the context's participants), so a chip is bound to one runner of a
 * context at most: binding one another runner holds is refused, naming them, never moved.
 */

export interface Holder {
  id: string;
  name: string;
  bib: string | null;
}

interface Who {
  sub: string | null;
  email: string;
}

/**
 * Gives a runner a bib: the typed one, else the race's next free bib of its range (`bib_ranges`,
 * the row locked so two tables never hand out the same number). A runner who has a bib keeps it
 * when none is typed. Returns the bib, or who holds the typed one, or `NO_RANGE` / `RANGE_FULL`.
 */
export async function assignPickupBib(
  sql: Sql,
  participantId: string,
  typed: string | undefined,
  actor: Who,
): Promise<{ bib: string; raceId: string } | { holder: Holder } | { refused: 'NO_RANGE' | 'RANGE_FULL' }> {
  const [runner] = await sql.query<{ raceId: string; bib: string | null }>(
    'SELECT race_id AS "raceId", bib FROM participants WHERE id = $1 AND deleted_at IS NULL FOR UPDATE',
    [participantId],
  );
  if (!runner) return { refused: 'NO_RANGE' };
  if (runner.bib && (!typed || typed === runner.bib)) return { bib: runner.bib, raceId: runner.raceId };
  const [range] = await sql.query<{ first: number; last: number }>(
    'SELECT first_bib AS first, last_bib AS last FROM bib_ranges WHERE race_id = $1 FOR UPDATE',
    [runner.raceId],
  );
  let bib = typed;
  if (bib) {
    const [holder] = await sql.query<Holder>(
      `SELECT id::text AS id, first_name || ' ' || last_name AS name, bib FROM participants
        WHERE race_id = $1 AND bib = $2 AND deleted_at IS NULL AND id <> $3`,
      [runner.raceId, bib, participantId],
    );
    if (holder) return { holder };
  } else {
    if (!range) return { refused: 'NO_RANGE' };
    const [free] = await sql.query<{ n: number }>(
      `SELECT n FROM generate_series($2::int, $3::int) n
        WHERE NOT EXISTS (SELECT 1 FROM participants q WHERE q.race_id = $1 AND q.bib = n::text AND q.deleted_at IS NULL)
        ORDER BY n LIMIT 1`,
      [runner.raceId, range.first, range.last],
    );
    if (!free) return { refused: 'RANGE_FULL' };
    bib = String(free.n);
  }
  await sql.query('UPDATE participants SET bib = $2 WHERE id = $1', [participantId, bib]);
  await bumpEpoch(sql, [runner.raceId]);
  await insertAudit(
    sql,
    [
      {
        participantId,
        raceId: runner.raceId,
        action: 'bib',
        changes: [{ field: 'bib', before: runner.bib, after: bib }],
      },
    ],
    actor,
  );
  return { bib, raceId: runner.raceId };
}

/**
 * Binds a chip to a runner, refused when another runner of the same context (the scope the
 * ingest resolves chips in) holds it. Binding a chip the runner has already changes nothing.
 */
export async function bindPickupChip(
  sql: Sql,
  participantId: string,
  chip: string,
  actor: Who,
): Promise<{ bound: boolean; raceId: string; db: string } | { holder: Holder } | null> {
  const [runner] = await sql.query<{ raceId: string; db: string; chips: string[] }>(
    `SELECT p.race_id AS "raceId", r.db, p.chips FROM participants p JOIN races r ON r.id = p.race_id
      WHERE p.id = $1 AND p.deleted_at IS NULL FOR UPDATE OF p`,
    [participantId],
  );
  if (!runner) return null;
  // One chip, one runner: binds of the same chip wait for each other (PostgreSQL; PGlite is serial).
  await sql.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`chip:${runner.db}:${chip}`]);
  const [holder] = await sql.query<Holder>(
    `SELECT p.id::text AS id, p.first_name || ' ' || p.last_name AS name, p.bib FROM participants p
       JOIN races r ON r.id = p.race_id
      WHERE r.db = $1 AND $2 = ANY(p.chips) AND p.deleted_at IS NULL AND p.id <> $3 LIMIT 1`,
    [runner.db, chip, participantId],
  );
  if (holder) return { holder };
  if (runner.chips.includes(chip)) return { bound: false, raceId: runner.raceId, db: runner.db };
  await sql.query('UPDATE participants SET chips = array_append(chips, $2) WHERE id = $1', [
    participantId,
    chip,
  ]);
  await bumpEpoch(sql, [runner.raceId]);
  await insertAudit(
    sql,
    [
      {
        participantId,
        raceId: runner.raceId,
        action: 'chip',
        changes: [{ field: 'chips', before: runner.chips, after: [...runner.chips, chip] }],
      },
    ],
    actor,
  );
  return { bound: true, raceId: runner.raceId, db: runner.db };
}
