import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BulkAction,
  ConfirmationEvent,
  ConfirmResult,
  CreateDocument,
  DocumentDetail,
  DocumentList,
  DocumentOrder,
  DocumentReport,
  DocumentRow,
  DocumentStatus,
  EventDocuments,
  MappingInput,
  RaceSettings,
  RowEdits,
} from '@tempora/contracts';
import { ApiError, apiGet, apiPost, apiRequest, apiUrl, currentToken } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/download.ts';

/** Calls of the confirmation API (packages/contracts/src/confirmation.ts), under `confirmationApiUrlBase`. */

const BASE = 'confirmationApiUrlBase';
const enc = encodeURIComponent;
const doc = (id: string) => `confirmation/documents/${enc(id)}`;

export const confirmationKeys = {
  all: ['confirmation'] as const,
  list: (filter: object) => ['confirmation', 'list', filter] as const,
  events: () => ['confirmation', 'events'] as const,
  event: (id: string) => ['confirmation', 'event', id] as const,
  document: (id: string) => ['confirmation', 'document', id] as const,
  rows: (id: string) => ['confirmation', 'document', id, 'rows'] as const,
  report: (id: string) => ['confirmation', 'document', id, 'report'] as const,
};

export interface ListFilter {
  q: string;
  eventId?: string | undefined;
  status?: DocumentStatus | undefined;
}

export const documentsQuery = (filter: ListFilter) =>
  queryOptions({
    queryKey: confirmationKeys.list(filter),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ q: filter.q });
      if (filter.eventId) params.set('eventId', filter.eventId);
      if (filter.status) params.set('status', filter.status);
      return apiGet<DocumentList>(BASE, `confirmation/documents?${params}`, { signal });
    },
    placeholderData: (previous) => previous,
  });
export const useDocuments = (filter: ListFilter) => useQuery(documentsQuery(filter));

export const useConfirmationEvents = () =>
  useQuery({
    queryKey: confirmationKeys.events(),
    queryFn: ({ signal }) => apiGet<ConfirmationEvent[]>(BASE, 'confirmation/events', { signal }),
  });

export const useEventDocuments = (eventId: string) =>
  useQuery({
    queryKey: confirmationKeys.event(eventId),
    queryFn: ({ signal }) =>
      apiGet<EventDocuments>(BASE, `confirmation/events/${enc(eventId)}/documents`, { signal }),
  });

export const useDocument = (id: string) =>
  useQuery({
    queryKey: confirmationKeys.document(id),
    queryFn: ({ signal }) => apiGet<DocumentDetail>(BASE, doc(id), { signal }),
  });

export const useRows = (id: string) =>
  useQuery({
    queryKey: confirmationKeys.rows(id),
    queryFn: ({ signal }) => apiGet<DocumentRow[]>(BASE, `${doc(id)}/rows`, { signal }),
  });

export const useReport = (id: string) =>
  useQuery({
    queryKey: confirmationKeys.report(id),
    queryFn: ({ signal }) => apiGet<DocumentReport>(BASE, `${doc(id)}/report`, { signal }),
  });

/** The order a confirmed document's fees became (issue 29); null before (404). */
export const useDocumentOrder = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: [...confirmationKeys.document(id), 'order'] as const,
    queryFn: ({ signal }) =>
      apiGet<DocumentOrder>(BASE, `${doc(id)}/order`, { signal }).catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }),
    enabled,
  });

/** The document's queries to refresh after a change (its rows, summary, report and the lists). */
export function useRefreshDocument(id: string) {
  const client = useQueryClient();
  return (rows?: DocumentRow[]) => {
    if (rows) client.setQueryData(confirmationKeys.rows(id), rows);
    else void client.invalidateQueries({ queryKey: confirmationKeys.rows(id) });
    void client.invalidateQueries({ queryKey: confirmationKeys.document(id), exact: true });
    void client.invalidateQueries({ queryKey: confirmationKeys.report(id) });
    void client.invalidateQueries({ queryKey: ['confirmation', 'list'] });
    void client.invalidateQueries({ queryKey: ['confirmation', 'event'] });
  };
}

export const confirmationApi = {
  create: (input: CreateDocument) => apiPost<DocumentDetail>(BASE, 'confirmation/documents', input),
  setMapping: (id: string, input: MappingInput) =>
    apiRequest<DocumentDetail>(BASE, `${doc(id)}/mapping`, { method: 'PUT', body: input }),
  edit: (id: string, input: RowEdits) =>
    apiRequest<DocumentRow[]>(BASE, `${doc(id)}/rows`, { method: 'PATCH', body: input }),
  bulk: (id: string, input: BulkAction) => apiPost<DocumentRow[]>(BASE, `${doc(id)}/rows/bulk`, input),
  undo: (id: string) => apiPost<DocumentRow[]>(BASE, `${doc(id)}/undo`),
  merge: (id: string, rowId: string) => apiPost<DocumentRow[]>(BASE, `${doc(id)}/rows/${enc(rowId)}/merge`),
  confirm: (id: string, rowIds?: string[]) =>
    apiPost<ConfirmResult>(BASE, `${doc(id)}/confirm`, rowIds ? { rowIds } : {}),
  reject: (id: string, reason: string) => apiPost<DocumentDetail>(BASE, `${doc(id)}/reject`, { reason }),
  close: (id: string) => apiPost<DocumentDetail>(BASE, `${doc(id)}/close`),
  raceSettings: (raceId: string, settings: RaceSettings) =>
    apiRequest<RaceSettings>(BASE, `confirmation/races/${enc(raceId)}/settings`, {
      method: 'PUT',
      body: settings,
    }),
};

/**
 * Uploads a file as a new version of the document, reporting progress (0–1): XMLHttpRequest,
 * because fetch gives no upload progress. Problems become `ApiError`s as with the shared client.
 */
export async function uploadFile(id: string, file: File, onProgress: (fraction: number) => void) {
  const token = await currentToken();
  return new Promise<DocumentDetail>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(BASE, `${doc(id)}/file?name=${enc(file.name)}`));
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', 'Network error'));
    xhr.onload = () => {
      let body: { code?: string; detail?: string } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as unknown as DocumentDetail);
      else reject(new ApiError(xhr.status, body.code ?? `HTTP_${xhr.status}`, body.detail ?? xhr.statusText));
    };
    xhr.send(file);
  });
}

/** Downloads the report as PDF or XLSX, with the caller's credentials. */
export function downloadReport(id: string, kind: 'pdf' | 'xlsx', name: string, lng: string): Promise<void> {
  const language = lng.startsWith('fr') ? 'fr' : 'en';
  return downloadFile(BASE, `${doc(id)}/report.${kind}?lng=${language}`, { fileName: `${name}.${kind}` });
}
