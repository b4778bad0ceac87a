import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Photo, PhotoUploadResult } from '@tempora/contracts';
import { ApiError, apiGet, apiRequest, apiUrl, problemFieldErrors } from '../../../lib/api-client.ts';
import { currentToken } from '../../../lib/auth/tokens.ts';

const enc = encodeURIComponent;

/** `GET events/{id}/photos?bib=&q=`: newest first. */
export const photosQuery = (eventId: string, q: string, limit = 200) =>
  queryOptions({
    queryKey: ['content', 'photos', eventId, q, limit] as const,
    queryFn: ({ signal }) =>
      apiGet<Photo[]>(
        'eventsApiUrlBase',
        `events/${enc(eventId)}/photos?limit=${limit}${q ? `&q=${enc(q)}` : ''}`,
        {
          signal,
        },
      ),
    enabled: Boolean(eventId),
    placeholderData: (previous) => previous,
  });

export function usePhotos(eventId: string, q: string, limit?: number) {
  return useQuery(photosQuery(eventId, q, limit));
}

/** The absolute URL of a photo file (`thumbUrl` / `webUrl` are relative to the API base). */
export const photoSrc = (relative: string) => apiUrl('eventsApiUrlBase', relative);

/**
 * `POST events/{id}/photos` as multipart through XMLHttpRequest, the one browser API reporting
 * upload progress (fetch does not). `onProgress` gets 0…1.
 */
export async function uploadPhotos(
  eventId: string,
  files: File[],
  bibs: string,
  onProgress: (fraction: number) => void,
): Promise<PhotoUploadResult> {
  const form = new FormData();
  if (bibs.trim()) form.append('bibs', bibs.trim());
  for (const file of files) form.append('files', file, file.name);
  const token = await currentToken();
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl('eventsApiUrlBase', `events/${enc(eventId)}/photos`));
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', 'Network error'));
    xhr.onload = () => {
      let body: { code?: string; detail?: string; errors?: unknown } & Partial<PhotoUploadResult> = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON: the status says enough.
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as PhotoUploadResult);
      else
        void (body.errors ? problemFieldErrors(body.errors) : Promise.resolve({})).then((errors) =>
          reject(new ApiError(xhr.status, body.code ?? `HTTP_${xhr.status}`, body.detail ?? '', errors)),
        );
    };
    xhr.send(form);
  });
}

/** `PATCH events/{id}/photos/{photoId}` (staff): the bibs shown in a photo, its caption. */
export function patchPhoto(eventId: string, photoId: string, patch: { bibs?: string[]; caption?: string }) {
  return apiRequest<Photo>('eventsApiUrlBase', `events/${enc(eventId)}/photos/${enc(photoId)}`, {
    method: 'PATCH',
    body: patch,
  });
}
