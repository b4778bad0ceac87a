import type { CmsPagePatch } from '@tempora/contracts';
import type { Sql } from '../../../db/database.ts';

/** A CMS page row as stored (body unsanitised). */
export interface CmsPageRow {
  key: string;
  db: string;
  parentKey: string | null;
  position: number;
  titleEn: string;
  titleFr: string;
  bodyEn: string;
  bodyFr: string;
  published: boolean;
  updatedAt: string | Date;
}

const COLUMNS = `key, db, parent_key AS "parentKey", position, title_en AS "titleEn", title_fr AS "titleFr",
  body_en AS "bodyEn", body_fr AS "bodyFr", published, updated_at AS "updatedAt"`;

/** Every page of one event and db, in tree order (drafts included unless `publishedOnly`). */
export function listPages(
  sql: Sql,
  eventId: string,
  db: string,
  publishedOnly: boolean,
): Promise<CmsPageRow[]> {
  return sql.query<CmsPageRow>(
    `SELECT ${COLUMNS} FROM cms_pages WHERE event_id = $1 AND db = $2 ${publishedOnly ? 'AND published' : ''}
     ORDER BY position, key`,
    [eventId, db],
  );
}

export async function findPage(
  sql: Sql,
  eventId: string,
  db: string,
  key: string,
): Promise<CmsPageRow | null> {
  const [row] = await sql.query<CmsPageRow>(
    `SELECT ${COLUMNS} FROM cms_pages WHERE event_id = $1 AND db = $2 AND key = $3`,
    [eventId, db, key],
  );
  return row ?? null;
}

/** Inserts a page at the end of its parent unless a position is given. Null when the key exists. */
export async function insertPage(
  sql: Sql,
  eventId: string,
  page: Omit<CmsPageRow, 'updatedAt' | 'position'> & { position?: number | undefined },
): Promise<boolean> {
  const rows = await sql.query(
    `INSERT INTO cms_pages (event_id, db, key, parent_key, position, title_en, title_fr, body_en, body_fr, published)
     VALUES ($1, $2, $3, $4,
       COALESCE($5, (SELECT COALESCE(max(position) + 1, 0) FROM cms_pages
                     WHERE event_id = $1 AND db = $2 AND parent_key IS NOT DISTINCT FROM $4)),
       $6, $7, $8, $9, $10)
     ON CONFLICT (event_id, db, key) DO NOTHING RETURNING key`,
    [
      eventId,
      page.db,
      page.key,
      page.parentKey,
      page.position ?? null,
      page.titleEn,
      page.titleFr,
      page.bodyEn,
      page.bodyFr,
      page.published,
    ],
  );
  return rows.length > 0;
}

/** Applies a validated patch. */
export async function updatePage(sql: Sql, eventId: string, db: string, key: string, patch: CmsPagePatch) {
  const sets: string[] = ['updated_at = now()'];
  const params: unknown[] = [eventId, db, key];
  const set = (column: string, value: unknown) => {
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  };
  if (patch.parentKey !== undefined) set('parent_key', patch.parentKey);
  if (patch.position !== undefined) set('position', patch.position);
  if (patch.title) {
    set('title_en', patch.title.en);
    set('title_fr', patch.title.fr);
  }
  if (patch.body) {
    set('body_en', patch.body.en);
    set('body_fr', patch.body.fr);
  }
  if (patch.published !== undefined) set('published', patch.published);
  await sql.query(
    `UPDATE cms_pages SET ${sets.join(', ')} WHERE event_id = $1 AND db = $2 AND key = $3`,
    params,
  );
}

/** Deletes a page; its children move up to its parent. */
export async function deletePage(
  sql: Sql,
  eventId: string,
  db: string,
  key: string,
  parentKey: string | null,
) {
  await sql.query(
    'UPDATE cms_pages SET parent_key = $4 WHERE event_id = $1 AND db = $2 AND parent_key = $3',
    [eventId, db, key, parentKey],
  );
  await sql.query('DELETE FROM cms_pages WHERE event_id = $1 AND db = $2 AND key = $3', [eventId, db, key]);
}

/** Sets the positions of one parent's children to the order of `keys`. */
export async function reorderPages(sql: Sql, eventId: string, db: string, keys: string[]) {
  for (const [position, key] of keys.entries()) {
    await sql.query('UPDATE cms_pages SET position = $4 WHERE event_id = $1 AND db = $2 AND key = $3', [
      eventId,
      db,
      key,
      position,
    ]);
  }
}
