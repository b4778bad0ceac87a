import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type {
  BibsAssigned,
  ConsoleParticipant,
  NewParticipant,
  ParticipantAuditEntry,
  ParticipantBulk,
  ParticipantBulkOutcome,
  ParticipantExportColumn,
  ParticipantPage,
  ParticipantPatch,
  ParticipantQuery,
  ParticipantsAccess,
  RaceSummary,
} from '@tempora/contracts';
import { apiGet, apiRequest } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/download.ts';

/** The console's participants API (packages/contracts/src/participants.ts lists the routes). */
export const eventPath = (eventId: string, rest: string) =>
  `console/events/${encodeURIComponent(eventId)}/${rest}`;

/** Rows fetched per page of the grid. */
export const PAGE_SIZE = 200;

export type GridFilter = Omit<ParticipantQuery, 'offset' | 'limit'>;

function queryString(filter: GridFilter, offset: number): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v !== undefined && v !== '') params.set(k, String(v));
  params.set('offset', String(offset));
  params.set('limit', String(PAGE_SIZE));
  return params.toString();
}

export const participantKeys = {
  all: (eventId: string) => ['participants', eventId] as const,
  list: (eventId: string, filter: GridFilter) => ['participants', eventId, 'list', filter] as const,
  races: (eventId: string) => ['participants', eventId, 'races'] as const,
  audit: (eventId: string, id: string) => ['participants', eventId, 'audit', id] as const,
};

/** The grid's rows, page by page as the list scrolls (`fetchNextPage`). */
export function useParticipantPages(eventId: string, filter: GridFilter) {
  return useInfiniteQuery({
    queryKey: participantKeys.list(eventId, filter),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      apiGet<ParticipantPage>(
        'apiUrlBase',
        `${eventPath(eventId, 'participants')}?${queryString(filter, pageParam)}`,
        {
          signal,
        },
      ),
    getNextPageParam: (last) =>
      last.offset + last.rows.length < last.total ? last.offset + last.rows.length : undefined,
    placeholderData: keepPreviousData,
  });
}

/** The event's races with their counts and bib ranges. */
export function useRaces(eventId: string) {
  return useQuery({
    queryKey: participantKeys.races(eventId),
    queryFn: ({ signal }) =>
      apiGet<RaceSummary[]>('apiUrlBase', eventPath(eventId, 'participants/races'), { signal }),
  });
}

export function useAudit(eventId: string, id: string | null) {
  return useQuery({
    queryKey: participantKeys.audit(eventId, id ?? ''),
    queryFn: ({ signal }) =>
      apiGet<ParticipantAuditEntry[]>('apiUrlBase', eventPath(eventId, `participants/${id}/audit`), {
        signal,
      }),
    enabled: id !== null,
  });
}

/** Invalidates every participants query of the event (after a write). */
export function useInvalidateParticipants(eventId: string) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: participantKeys.all(eventId) }),
      // The console's event pages count each race's runners, and a result list adds a race.
      client.invalidateQueries({ queryKey: ['console'] }),
    ]);
}

export function useAddParticipant(eventId: string) {
  const invalidate = useInvalidateParticipants(eventId);
  return useMutation({
    mutationFn: (body: NewParticipant) =>
      apiRequest<ConsoleParticipant>('apiUrlBase', eventPath(eventId, 'participants'), {
        method: 'POST',
        body,
      }),
    onSuccess: invalidate,
  });
}

export function useUpdateParticipant(eventId: string) {
  const invalidate = useInvalidateParticipants(eventId);
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: ParticipantPatch }) =>
      apiRequest<ConsoleParticipant>('apiUrlBase', eventPath(eventId, `participants/${id}`), {
        method: 'PATCH',
        body: patch,
      }),
    onSuccess: invalidate,
  });
}

export function useDeleteParticipant(eventId: string) {
  const invalidate = useInvalidateParticipants(eventId);
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<void>('apiUrlBase', eventPath(eventId, `participants/${id}`), { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export function useAssignBibs(eventId: string) {
  const invalidate = useInvalidateParticipants(eventId);
  return useMutation({
    mutationFn: (body: { raceId: string; first: number; last: number }) =>
      apiRequest<BibsAssigned>('apiUrlBase', eventPath(eventId, 'participants/bibs'), {
        method: 'POST',
        body,
      }),
    onSuccess: invalidate,
  });
}

/** What the signed-in user may do with the event's participants. */
export function useAccess(eventId: string) {
  return useQuery({
    queryKey: ['participants', eventId, 'access'] as const,
    queryFn: ({ signal }) =>
      apiGet<ParticipantsAccess>('apiUrlBase', eventPath(eventId, 'participants/access'), {
        signal,
      }),
  });
}

/** One change for a selection of runners (issue 29): one request; refused rows come back with why. */
export function useBulkUpdate(eventId: string) {
  const invalidate = useInvalidateParticipants(eventId);
  return useMutation({
    mutationFn: (body: ParticipantBulk) =>
      apiRequest<ParticipantBulkOutcome>('apiUrlBase', eventPath(eventId, 'participants/bulk'), {
        method: 'POST',
        body,
      }),
    onSuccess: invalidate,
  });
}

/** Downloads the grid as shown (filters, search, sort, columns) as CSV or XLSX (issue 29). */
export async function downloadParticipants(
  eventId: string,
  filter: GridFilter,
  columns: readonly ParticipantExportColumn[],
  format: 'csv' | 'xlsx',
  lng: 'en' | 'fr',
) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v !== undefined && v !== '') params.set(k, String(v));
  params.set('format', format);
  params.set('lng', lng);
  params.set('columns', columns.join(','));
  await downloadFile('apiUrlBase', `${eventPath(eventId, 'participants/export')}?${params}`, {
    fallback: `participants-${eventId}.${format}`,
  });
}
