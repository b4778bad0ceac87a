import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CmsNode, CmsPage, CmsPageInput, CmsPagePatch } from '@tempora/contracts';
import { apiGet, apiPost, apiRequest } from '../../../lib/api-client.ts';

const enc = encodeURIComponent;
const base = (eventId: string) => `events/${enc(eventId)}/cms`;

/** `GET events/{id}/cms/tree?db=`: the navigation tree (spec §3 nodes); drafts for organisers. */
export const cmsTreeQuery = (eventId: string, db: string, signedIn: boolean) =>
  queryOptions({
    queryKey: ['content', 'cms', eventId, db, 'tree', signedIn] as const,
    queryFn: ({ signal }) =>
      apiGet<CmsNode>('eventsApiUrlBase', `${base(eventId)}/tree?db=${enc(db)}`, { signal }),
  });

/** `GET events/{id}/cms/pages/{key}?db=`: a page, both languages, sanitised HTML. */
export const cmsPageQuery = (eventId: string, db: string, key: string, signedIn: boolean) =>
  queryOptions({
    queryKey: ['content', 'cms', eventId, db, 'page', key, signedIn] as const,
    queryFn: ({ signal }) =>
      apiGet<CmsPage>('eventsApiUrlBase', `${base(eventId)}/pages/${enc(key)}?db=${enc(db)}`, { signal }),
  });

export function useCmsTree(eventId: string, db: string, signedIn: boolean) {
  return useQuery(cmsTreeQuery(eventId, db, signedIn));
}

export function useCmsPage(eventId: string, db: string, key: string | null, signedIn: boolean) {
  return useQuery({ ...cmsPageQuery(eventId, db, key ?? '', signedIn), enabled: Boolean(key) });
}

/** Organiser writes. */
export const cmsApi = {
  create: (eventId: string, page: CmsPageInput) =>
    apiPost<CmsPage>('eventsApiUrlBase', `${base(eventId)}/pages`, page),
  update: (eventId: string, db: string, key: string, patch: CmsPagePatch) =>
    apiRequest<CmsPage>('eventsApiUrlBase', `${base(eventId)}/pages/${enc(key)}?db=${enc(db)}`, {
      method: 'PATCH',
      body: patch,
    }),
  remove: (eventId: string, db: string, key: string) =>
    apiRequest<void>('eventsApiUrlBase', `${base(eventId)}/pages/${enc(key)}?db=${enc(db)}`, {
      method: 'DELETE',
    }),
  reorder: (eventId: string, db: string, parentKey: string | null, keys: string[]) =>
    apiPost<CmsNode>('eventsApiUrlBase', `${base(eventId)}/reorder`, { db, parentKey, keys }),
};
