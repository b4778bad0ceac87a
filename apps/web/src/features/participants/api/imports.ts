import { useMutation, useQuery } from '@tanstack/react-query';
import type {
  ChipImportOutcome,
  ImportHistoryEntry,
  ImportOutcome,
  ImportPreview,
  ImportRequest,
  ImportUndoOutcome,
  ParticipantContexts,
  ResultImportOutcome,
  UploadInfo,
} from '@tempora/contracts';
import { apiGet, apiRequest } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/download.ts';
import { eventPath, participantKeys, useInvalidateParticipants } from './participants.ts';

/** The content type a file is sent with (browsers leave it empty for unknown extensions). */
function fileType(file: File): string {
  if (/\.xlsx$/i.test(file.name)) return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  if (/\.(csv|txt)$/i.test(file.name)) return 'text/csv';
  return file.type || 'application/octet-stream';
}

/** `POST imports?fileName=`: stores the file; answers its sheets, headers, samples and a guessed mapping. */
export function useUploadFile(eventId: string) {
  return useMutation({
    mutationFn: (file: File) =>
      apiRequest<UploadInfo>(
        'apiUrlBase',
        `${eventPath(eventId, 'imports')}?fileName=${encodeURIComponent(file.name)}`,
        {
          method: 'POST',
          body: file,
          headers: { 'content-type': fileType(file) },
        },
      ),
  });
}

export function usePreview(eventId: string) {
  return useMutation({
    mutationFn: ({ uploadId, request }: { uploadId: string; request: ImportRequest }) =>
      apiRequest<ImportPreview>('apiUrlBase', eventPath(eventId, `imports/${uploadId}/preview`), {
        method: 'POST',
        body: request,
      }),
  });
}

export function useCommit(eventId: string) {
  const invalidate = useInvalidateParticipants(eventId);
  return useMutation({
    mutationFn: ({
      uploadId,
      request,
    }: {
      uploadId: string;
      request: ImportRequest & { mode: 'valid' | 'all' };
    }) =>
      apiRequest<ImportOutcome>('apiUrlBase', eventPath(eventId, `imports/${uploadId}/commit`), {
        method: 'POST',
        body: request,
      }),
    onSuccess: invalidate,
  });
}

export function useChipImport(eventId: string) {
  const invalidate = useInvalidateParticipants(eventId);
  return useMutation({
    mutationFn: ({
      uploadId,
      request,
    }: {
      uploadId: string;
      request: {
        sheet?: string;
        raceId: string;
        mapping: { bib: string; chip: string; chip2?: string };
        apply: boolean;
      };
    }) =>
      apiRequest<ChipImportOutcome>('apiUrlBase', eventPath(eventId, `imports/${uploadId}/chips`), {
        method: 'POST',
        body: request,
      }),
    onSuccess: invalidate,
  });
}

/** `POST result-imports?format=…`: a Boston-format result list or a passings file. */
export function useResultImport(eventId: string) {
  const invalidate = useInvalidateParticipants(eventId);
  return useMutation({
    mutationFn: ({ file, query }: { file: File; query: Record<string, string> }) => {
      const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== ''));
      return apiRequest<ResultImportOutcome>(
        'apiUrlBase',
        `${eventPath(eventId, 'result-imports')}?${params}`,
        {
          method: 'POST',
          body: file,
          headers: { 'content-type': 'text/csv' },
        },
      );
    },
    onSuccess: invalidate,
  });
}

/** The contexts (timing databases) of an event, for the result-list import. */
export function useContexts(eventId: string) {
  return useQuery({
    queryKey: ['participants', eventId, 'contexts'] as const,
    queryFn: ({ signal }) =>
      apiGet<ParticipantContexts>('apiUrlBase', eventPath(eventId, 'participants/contexts'), {
        signal,
      }),
  });
}

/** `GET import-history`: the event's participant imports, newest first (issue 29). */
export const importHistoryKey = (eventId: string) =>
  [...participantKeys.all(eventId), 'import-history'] as const;

export function useImportHistory(eventId: string) {
  return useQuery({
    queryKey: importHistoryKey(eventId),
    queryFn: ({ signal }) =>
      apiGet<ImportHistoryEntry[]>('apiUrlBase', eventPath(eventId, 'import-history'), { signal }),
  });
}

/** `POST import-history/{id}/undo`: removes what the import created (409 when a runner is used elsewhere). */
export function useUndoImport(eventId: string) {
  const invalidate = useInvalidateParticipants(eventId);
  return useMutation({
    mutationFn: (importId: string) =>
      apiRequest<ImportUndoOutcome>('apiUrlBase', eventPath(eventId, `import-history/${importId}/undo`), {
        method: 'POST',
      }),
    onSuccess: invalidate,
  });
}

/** Saves an import's refused rows (the file's columns, line, reason in `lng`) as CSV or XLSX. */
export async function downloadRefused(
  eventId: string,
  importId: string,
  format: 'csv' | 'xlsx',
  lng: 'en' | 'fr',
): Promise<void> {
  await downloadFile(
    'apiUrlBase',
    eventPath(eventId, `import-history/${importId}/refused?format=${format}&lng=${lng}`),
    { fallback: `refused.${format}` },
  );
}
