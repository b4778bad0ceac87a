import { useMutation, useQuery } from '@tanstack/react-query';
import type {
  ChipImportOutcome,
  ImportOutcome,
  ImportPreview,
  ImportRequest,
  ResultImportOutcome,
  UploadInfo,
} from '@tempora/contracts';
import { apiGet, apiRequest } from '../../../lib/api-client.ts';
import { eventPath, useInvalidateParticipants } from './participants.ts';

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
      apiGet<{ db: string; name: string }[]>('apiUrlBase', eventPath(eventId, 'participants/contexts'), {
        signal,
      }),
  });
}
