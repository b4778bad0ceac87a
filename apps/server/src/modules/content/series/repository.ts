import type { Sql } from '../../../db/database.ts';
import type { SeriesResult } from './service.ts';

export interface SeriesRow {
  id: string;
  organisationId: string;
  name: string;
  points: number[];
}

export interface SeriesRaceRow {
  key: string;
  name: string;
  date: string;
  live: boolean;
}

export async function findSeries(sql: Sql, id: string): Promise<SeriesRow | null> {
  const [row] = await sql.query<SeriesRow>(
    'SELECT id, organisation_id AS "organisationId", name, points FROM series WHERE id = $1',
    [id],
  );
  return row ?? null;
}

export function listRaces(sql: Sql, id: string): Promise<SeriesRaceRow[]> {
  return sql.query<SeriesRaceRow>(
    `SELECT race_key AS key, name, to_char(race_date, 'YYYY-MM-DD') AS date, live
       FROM series_races WHERE series_id = $1 ORDER BY position, race_date, race_key`,
    [id],
  );
}

export function listResults(sql: Sql, id: string): Promise<SeriesResult[]> {
  return sql.query<SeriesResult>(
    `SELECT race_key AS "raceKey", athlete_key AS "athleteKey", name, category, position
       FROM series_results WHERE series_id = $1`,
    [id],
  );
}

/** Replaces the results of one race (in the caller's transaction). */
export async function replaceRaceResults(
  sql: Sql,
  id: string,
  raceKey: string,
  results: Omit<SeriesResult, 'raceKey'>[],
) {
  await sql.query('DELETE FROM series_results WHERE series_id = $1 AND race_key = $2', [id, raceKey]);
  for (const r of results) {
    await sql.query(
      `INSERT INTO series_results (series_id, race_key, athlete_key, name, category, position)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, raceKey, r.athleteKey, r.name, r.category, r.position],
    );
  }
}

export async function setRaceLive(sql: Sql, id: string, raceKey: string, live: boolean) {
  await sql.query('UPDATE series_races SET live = $3 WHERE series_id = $1 AND race_key = $2', [
    id,
    raceKey,
    live,
  ]);
}
