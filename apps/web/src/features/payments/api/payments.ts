import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BankLine,
  DepositOffer,
  DepositSettings,
  DepositSummary,
  MyPayments,
  OrderDetail,
  PaymentAuditEntry,
  PayStart,
  ProviderInfo,
  RefundInput,
  StaffEventTotals,
  StatementImportResult,
} from '@tempora/contracts';
import { apiGet, apiPost, apiRequest } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/download.ts';

const enc = encodeURIComponent;
const base = 'apiUrlBase' as const;
const staff = (eventId: string, rest: string) => `payments/staff/events/${enc(eventId)}/${rest}`;

export function useProviders() {
  return useQuery({
    queryKey: ['payments', 'providers'] as const,
    queryFn: ({ signal }) => apiGet<ProviderInfo>(base, 'payments/providers', { signal }),
    staleTime: 5 * 60_000,
  });
}

export function useMyPayments() {
  return useQuery({
    queryKey: ['payments', 'mine'] as const,
    queryFn: ({ signal }) => apiGet<MyPayments>(base, 'payments/mine', { signal }),
  });
}

export function useOrder(id: string, poll?: number) {
  return useQuery({
    queryKey: ['payments', 'order', id] as const,
    queryFn: ({ signal }) => apiGet<OrderDetail>(base, `payments/orders/${enc(id)}`, { signal }),
    refetchInterval: poll ?? false,
  });
}

export function useStaffEvents() {
  return useQuery({
    queryKey: ['payments', 'staff'] as const,
    queryFn: ({ signal }) => apiGet<StaffEventTotals[]>(base, 'payments/staff/events', { signal }),
  });
}

export function useStaffOrders(eventId: string) {
  return useQuery({
    queryKey: ['payments', 'staff', eventId, 'orders'] as const,
    queryFn: ({ signal }) => apiGet<OrderDetail[]>(base, staff(eventId, 'orders'), { signal }),
    enabled: Boolean(eventId),
  });
}

export function useQueue(eventId: string) {
  return useQuery({
    queryKey: ['payments', 'staff', eventId, 'queue'] as const,
    queryFn: ({ signal }) => apiGet<BankLine[]>(base, staff(eventId, 'queue'), { signal }),
    enabled: Boolean(eventId),
  });
}

export function useAudit(eventId: string) {
  return useQuery({
    queryKey: ['payments', 'staff', eventId, 'audit'] as const,
    queryFn: ({ signal }) => apiGet<PaymentAuditEntry[]>(base, staff(eventId, 'audit'), { signal }),
    enabled: Boolean(eventId),
  });
}

export function useSettings(eventId: string) {
  return useQuery({
    queryKey: ['payments', 'staff', eventId, 'settings'] as const,
    queryFn: ({ signal }) => apiGet<DepositSettings>(base, staff(eventId, 'settings'), { signal }),
    enabled: Boolean(eventId),
  });
}

export const paymentsApi = {
  pay: (orderId: string, provider: 'bank' | 'mollie' | 'stripe', returnUrl?: string) =>
    apiPost<PayStart>(base, `payments/orders/${enc(orderId)}/pay`, {
      provider,
      ...(returnUrl ? { returnUrl } : {}),
    }),
  saveSettings: (eventId: string, s: DepositSettings) =>
    apiRequest<DepositSettings>(base, staff(eventId, 'settings'), { method: 'PUT', body: s }),
  importStatement: (eventId: string, file: File) =>
    file.text().then((text) =>
      apiRequest<StatementImportResult>(base, `${staff(eventId, 'statements')}?name=${enc(file.name)}`, {
        method: 'POST',
        body: text,
        headers: { 'content-type': text.trimStart().startsWith('<') ? 'application/xml' : 'text/plain' },
      }),
    ),
  match: (
    eventId: string,
    lineId: string,
    allocations: { orderId: string; amountCents: number }[],
    note: string,
  ) => apiPost<BankLine>(base, staff(eventId, `queue/${enc(lineId)}/match`), { allocations, note }),
  ignore: (eventId: string, lineId: string, note: string) =>
    apiPost<BankLine>(base, staff(eventId, `queue/${enc(lineId)}/ignore`), { note }),
  refund: (eventId: string, input: RefundInput) => apiPost<unknown>(base, staff(eventId, 'refunds'), input),
};

/** Invalidates everything payments after a staff action. */
export function useStaffMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => client.invalidateQueries({ queryKey: ['payments'] }),
  });
}

/**
 * Downloads a file the API serves to signed-in users (receipt, export): fetched with the bearer
 * token, then handed to the browser as a blob.
 */
/** Downloads a payments file (receipt, refund list, orders) under the name given. */
export function download(path: string, fileName: string): Promise<void> {
  return downloadFile(base, path, { fileName });
}

/** The races of an event with their current fee (the public group-entry offer). */
export function useSettingsRaces(eventId: string) {
  return useQuery({
    queryKey: ['payments', 'races', eventId] as const,
    queryFn: ({ signal }) =>
      apiGet<DepositOffer>(base, `deposits/events/${enc(eventId)}/offer`, {
        signal,
      }).then((o) => o.races),
    enabled: Boolean(eventId),
  });
}

/** Organiser staff: the event's teams. */
export function useEventDeposits(eventId: string) {
  return useQuery({
    queryKey: ['payments', 'staff', eventId, 'teams'] as const,
    queryFn: ({ signal }) =>
      apiGet<DepositSummary[]>(base, `deposits/events/${enc(eventId)}/all`, { signal }),
    enabled: Boolean(eventId),
  });
}
