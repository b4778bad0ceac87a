import type { CmsNode, CmsPage } from '@tempora/contracts';
import type { CmsPageRow } from './repository.ts';
import { sanitizeHtml } from './sanitize.ts';

/**
 * Builds the navigation tree (spec §3 node `{Id, DisplayName, Folders, Leafs, Childs}`) from the
 * pages of one db. The root node has Id '' and the event's name. A page whose parent is not
 * visible (a draft, for spectators) is not shown either: a hidden folder hides its pages.
 */
export function buildTree(rows: CmsPageRow[], rootName: string, lng: 'en' | 'fr'): CmsNode {
  const byParent = new Map<string | null, CmsPageRow[]>();
  for (const row of rows) {
    const list = byParent.get(row.parentKey) ?? [];
    list.push(row);
    byParent.set(row.parentKey, list);
  }
  const seen = new Set<string>();
  const childrenOf = (key: string | null): CmsNode[] =>
    (byParent.get(key) ?? [])
      .sort((a, b) => a.position - b.position || a.key.localeCompare(b.key))
      .filter((row) => !seen.has(row.key) && seen.add(row.key))
      .map((row) => node(row.key, { en: row.titleEn, fr: row.titleFr }, row.published, childrenOf(row.key)));
  const node = (Id: string, Titles: CmsNode['Titles'], Published: boolean, Childs: CmsNode[]): CmsNode => ({
    Id,
    DisplayName: Titles[lng],
    Titles,
    Folders: Childs.filter((c) => c.Childs.length > 0).length,
    Leafs: Childs.filter((c) => c.Childs.length === 0).length,
    Childs,
    Published,
  });
  return node('', { en: rootName, fr: rootName }, true, childrenOf(null));
}

/** Whether `key` is reachable from the root through visible pages only. */
export function isVisible(rows: CmsPageRow[], key: string): boolean {
  const byKey = new Map(rows.map((r) => [r.key, r]));
  let current = byKey.get(key);
  for (let depth = 0; current && depth < 100; depth++) {
    if (current.parentKey === null) return true;
    current = byKey.get(current.parentKey);
  }
  return false;
}

/** The page as answered: bodies sanitised on output (issue 8). */
export function toPage(row: CmsPageRow): CmsPage {
  return {
    key: row.key,
    db: row.db,
    parentKey: row.parentKey,
    position: row.position,
    title: { en: row.titleEn, fr: row.titleFr },
    body: { en: sanitizeHtml(row.bodyEn), fr: sanitizeHtml(row.bodyFr) },
    published: row.published,
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/** Whether making `parentKey` the parent of `key` would create a cycle. */
export function wouldCycle(rows: CmsPageRow[], key: string, parentKey: string | null): boolean {
  const byKey = new Map(rows.map((r) => [r.key, r]));
  let current = parentKey;
  for (let depth = 0; current !== null && depth < 100; depth++) {
    if (current === key) return true;
    current = byKey.get(current)?.parentKey ?? null;
  }
  return false;
}
