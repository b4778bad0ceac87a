import type { Photo } from '@tempora/contracts';
import type { Sql } from '../../../db/database.ts';

interface PhotoRow {
  id: string;
  eventId: string;
  fileName: string;
  caption: string;
  bibs: string[];
  width: number;
  height: number;
  takenAt: string | Date | null;
  uploadedAt: string | Date;
}

const COLUMNS = `id, event_id AS "eventId", file_name AS "fileName", caption, bibs, width, height,
  taken_at AS "takenAt", uploaded_at AS "uploadedAt"`;

function toPhoto(row: PhotoRow): Photo {
  return {
    ...row,
    takenAt: row.takenAt ? new Date(row.takenAt).toISOString() : null,
    uploadedAt: new Date(row.uploadedAt).toISOString(),
    thumbUrl: `photos/${row.id}/thumb`,
    webUrl: `photos/${row.id}/web`,
  };
}

/** Search of the photo box. */
export interface PhotoQuery {
  bib?: string | undefined;
  q?: string | undefined;
  limit: number;
  /** Whether the results tables exist (a name search also looks up participants' bibs). */
  withParticipants: boolean;
}

/**
 * Photos of an event, newest first: with `bib`, those tagged with it; with `q`, those whose
 * caption, file name or a bib matches, or tagged with the bib of a participant of that name (not
 * of a runner who hid their name: issue 40).
 */
export async function listPhotos(sql: Sql, eventId: string, query: PhotoQuery): Promise<Photo[]> {
  const where = ['event_id = $1'];
  const params: unknown[] = [eventId];
  if (query.bib) {
    params.push(query.bib.toUpperCase());
    where.push(`$${params.length} = ANY(bibs)`);
  }
  if (query.q) {
    params.push(query.q.toUpperCase(), `%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const exact = `$${params.length - 1}`;
    const like = `$${params.length}`;
    const byName = query.withParticipants
      ? ` OR bibs && ARRAY(SELECT upper(p.bib) FROM participants p JOIN races r ON r.id = p.race_id
            JOIN contexts c ON c.db = r.db WHERE c.event_id = $1
            AND NOT p.name_hidden AND lower(p.first_name || ' ' || p.last_name) LIKE ${like})`
      : '';
    where.push(
      `(${exact} = ANY(bibs) OR lower(caption) LIKE ${like} OR lower(file_name) LIKE ${like}${byName})`,
    );
  }
  params.push(query.limit);
  const rows = await sql.query<PhotoRow>(
    `SELECT ${COLUMNS} FROM photos WHERE ${where.join(' AND ')} ORDER BY uploaded_at DESC, id LIMIT $${params.length}`,
    params,
  );
  return rows.map(toPhoto);
}

export async function findPhoto(sql: Sql, id: string): Promise<Photo | null> {
  const [row] = await sql.query<PhotoRow>(`SELECT ${COLUMNS} FROM photos WHERE id = $1`, [id]);
  return row ? toPhoto(row) : null;
}

export async function insertPhoto(
  sql: Sql,
  p: Omit<PhotoRow, 'uploadedAt' | 'caption' | 'takenAt'> & {
    takenAt: Date | null;
    uploadedBy: string | null;
  },
): Promise<Photo> {
  const [row] = await sql.query<PhotoRow>(
    `INSERT INTO photos (id, event_id, file_name, bibs, width, height, taken_at, uploaded_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
    [p.id, p.eventId, p.fileName, p.bibs, p.width, p.height, p.takenAt, p.uploadedBy],
  );
  return toPhoto(row as PhotoRow);
}

export async function updatePhoto(sql: Sql, id: string, patch: { bibs?: string[]; caption?: string }) {
  const [row] = await sql.query<PhotoRow>(
    `UPDATE photos SET bibs = COALESCE($2, bibs), caption = COALESCE($3, caption) WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, patch.bibs ?? null, patch.caption ?? null],
  );
  return row ? toPhoto(row) : null;
}

export async function deletePhoto(sql: Sql, id: string): Promise<void> {
  await sql.query('DELETE FROM photos WHERE id = $1', [id]);
}
