import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExportAccess, ExportFormat, ExportSettings } from '@tempora/contracts';
import { apiDownload, apiGet, apiRequest } from '../../../lib/api-client.ts';

const enc = encodeURIComponent;

/** Whether exports are offered to this visitor (spectators when allowed, organisers always). */
export function useExportAccess(eventId: string) {
  return useQuery({
    queryKey: ['exports', 'access', eventId],
    enabled: !!eventId,
    queryFn: ({ signal }) =>
      apiGet<ExportAccess>('apiUrlBase', `exports/${enc(eventId)}/settings`, { signal }),
  });
}

export function useSaveExportSettings(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: ExportSettings) =>
      apiRequest<ExportSettings>('apiUrlBase', `exports/${enc(eventId)}/settings`, {
        method: 'PUT',
        body: settings,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['exports', 'access', eventId] }),
  });
}

/** What to export: a report, in a format, with the page's search. */
export interface ExportRequest {
  eventId: string;
  group: string;
  report: string;
  format: ExportFormat;
  lng: 'en' | 'fr';
  q: string;
  sep?: ';' | ',';
  sections?: 'none' | 'category';
}

export function exportPath(r: ExportRequest): string {
  const query = new URLSearchParams({ format: r.format, lng: r.lng });
  if (r.q.trim()) query.set('q', r.q.trim());
  if (r.sep) query.set('sep', r.sep);
  if (r.sections) query.set('sections', r.sections);
  return `exports/${enc(r.eventId)}/groups/${enc(r.group)}/reports/${enc(r.report)}?${query}`;
}

/** Saves a Blob under a name (a temporary object URL clicked as a download link). */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Downloads an export with the caller's credentials (organisers of a closed event need them). */
export async function downloadExport(r: ExportRequest): Promise<void> {
  const { blob, fileName } = await apiDownload('apiUrlBase', exportPath(r));
  saveBlob(blob, fileName ?? `${r.report}.${r.format}`);
}
