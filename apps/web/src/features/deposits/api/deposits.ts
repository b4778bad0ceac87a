import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DepositCreate,
  DepositDetail,
  DepositMessage,
  DepositOffer,
  DepositPatch,
  DepositShare,
  DepositSummary,
  EntryInput,
  JoinPreview,
  MessageInput,
  TeamRanking,
} from '@tempora/contracts';
import { apiGet, apiPost, apiRequest } from '../../../lib/api-client.ts';

const enc = encodeURIComponent;
const base = 'apiUrlBase' as const;

/** Query keys of the deposits feature. */
export const depositKeys = {
  all: ['deposits'] as const,
  detail: (id: string) => ['deposits', 'detail', id] as const,
  messages: (id: string) => ['deposits', 'messages', id] as const,
};

export const offerQuery = (eventId: string) =>
  queryOptions({
    queryKey: ['deposits', 'offer', eventId] as const,
    queryFn: ({ signal }) => apiGet<DepositOffer>(base, `deposits/events/${enc(eventId)}/offer`, { signal }),
  });

export const depositQuery = (id: string) =>
  queryOptions({
    queryKey: depositKeys.detail(id),
    queryFn: ({ signal }) => apiGet<DepositDetail>(base, `deposits/${enc(id)}`, { signal }),
  });

export function useOffer(eventId: string) {
  return useQuery(offerQuery(eventId));
}

export function useDeposit(id: string, options: { poll?: number } = {}) {
  return useQuery({ ...depositQuery(id), refetchInterval: options.poll ?? false });
}

export function useMyDeposits() {
  return useQuery({
    queryKey: ['deposits', 'mine'] as const,
    queryFn: ({ signal }) => apiGet<DepositSummary[]>(base, 'deposits/mine', { signal }),
  });
}

export function useJoinPreview(code: string | null) {
  return useQuery({
    queryKey: ['deposits', 'join', code] as const,
    queryFn: ({ signal }) => apiGet<JoinPreview>(base, `deposits/join/${enc(code ?? '')}`, { signal }),
    enabled: Boolean(code),
    retry: false,
  });
}

export function useShare(id: string, enabled: boolean) {
  return useQuery({
    queryKey: ['deposits', 'share', id] as const,
    queryFn: ({ signal }) => apiGet<DepositShare>(base, `deposits/${enc(id)}/share`, { signal }),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useMessages(id: string) {
  return useQuery({
    queryKey: depositKeys.messages(id),
    queryFn: ({ signal }) => apiGet<DepositMessage[]>(base, `deposits/${enc(id)}/messages`, { signal }),
  });
}

export function useRanking(id: string, enabled: boolean) {
  return useQuery({
    queryKey: ['deposits', 'ranking', id] as const,
    queryFn: ({ signal }) => apiGet<TeamRanking>(base, `deposits/${enc(id)}/ranking`, { signal }),
    enabled,
  });
}

/** The deposit's write calls; each answers the new detail, stored in the query cache. */
export const depositApi = {
  create: (input: DepositCreate) => apiPost<DepositDetail>(base, 'deposits', input),
  join: (code: string) => apiPost<DepositDetail>(base, 'deposits/join', { code }),
  patch: (id: string, input: DepositPatch) =>
    apiRequest<DepositDetail>(base, `deposits/${enc(id)}`, { method: 'PATCH', body: input }),
  addEntry: (id: string, input: EntryInput) =>
    apiPost<DepositDetail>(base, `deposits/${enc(id)}/entries`, input),
  importEntries: (id: string, csv: string) =>
    apiPost<DepositDetail>(base, `deposits/${enc(id)}/entries/import`, { csv }),
  updateEntry: (id: string, entryId: string, input: EntryInput) =>
    apiRequest<DepositDetail>(base, `deposits/${enc(id)}/entries/${enc(entryId)}`, {
      method: 'PATCH',
      body: input,
    }),
  removeEntry: (id: string, entryId: string) =>
    apiRequest<DepositDetail>(base, `deposits/${enc(id)}/entries/${enc(entryId)}`, { method: 'DELETE' }),
  decideSubstitution: (id: string, entryId: string, approve: boolean) =>
    apiPost<DepositDetail>(base, `deposits/${enc(id)}/entries/${enc(entryId)}/substitution`, { approve }),
  submit: (id: string) => apiPost<DepositDetail>(base, `deposits/${enc(id)}/submit`),
  move: (id: string, action: 'cancel' | 'reopen' | 'close') =>
    apiPost<DepositDetail>(base, `deposits/${enc(id)}/${action}`),
  postMessage: (id: string, input: MessageInput) =>
    apiPost<DepositMessage>(base, `deposits/${enc(id)}/messages`, input),
};

/** A mutation whose answer (the deposit) replaces the cached detail. */
export function useDepositMutation<V>(id: string, fn: (v: V) => Promise<DepositDetail>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (detail) => {
      client.setQueryData(depositKeys.detail(id), detail);
      void client.invalidateQueries({ queryKey: ['deposits', 'offer'] });
    },
  });
}
