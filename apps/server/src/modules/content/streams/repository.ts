import type { StreamInput } from '@tempora/contracts';
import type { Sql } from '../../../db/database.ts';

/** A stream as stored. */
export interface StreamRow {
  id: string;
  title: string;
  kind: 'youtube' | 'hls';
  url: string;
  startsAt: string | Date;
  endsAt: string | Date;
  position: number;
}

const COLUMNS = `id, title, kind, url, starts_at AS "startsAt", ends_at AS "endsAt", position`;

export function listStreams(sql: Sql, eventId: string): Promise<StreamRow[]> {
  return sql.query<StreamRow>(
    `SELECT ${COLUMNS} FROM streams WHERE event_id = $1 ORDER BY starts_at, position, id`,
    [eventId],
  );
}

export async function insertStream(sql: Sql, eventId: string, s: StreamInput): Promise<StreamRow> {
  const [row] = await sql.query<StreamRow>(
    `INSERT INTO streams (event_id, title, kind, url, starts_at, ends_at, position)
     VALUES ($1, $2, $3, $4, $5, $6, COALESCE($7, 0)) RETURNING ${COLUMNS}`,
    [eventId, s.title, s.kind, s.url, s.startsAt, s.endsAt, s.position ?? null],
  );
  return row as StreamRow;
}

export async function replaceStream(sql: Sql, eventId: string, id: string, s: StreamInput) {
  const [row] = await sql.query<StreamRow>(
    `UPDATE streams SET title = $3, kind = $4, url = $5, starts_at = $6, ends_at = $7, position = COALESCE($8, position)
     WHERE event_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [eventId, id, s.title, s.kind, s.url, s.startsAt, s.endsAt, s.position ?? null],
  );
  return row ?? null;
}

export async function deleteStream(sql: Sql, eventId: string, id: string): Promise<boolean> {
  return (
    (await sql.query('DELETE FROM streams WHERE event_id = $1 AND id = $2 RETURNING id', [eventId, id]))
      .length > 0
  );
}
