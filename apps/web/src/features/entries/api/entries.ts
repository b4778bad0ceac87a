import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  EntriesStartList,
  EntryActionInput,
  EntryOrder,
  EntryOrderInput,
  EntryQuote,
  ManualEntryInput,
  MyEntry,
  MyWaitlist,
  RegistrationPage,
  RegistrationSettingsInput,
  RegistrationSettingsView,
  StaffEntries,
  StaffEntry,
  Team,
  TeamInput,
  TeamJoin,
} from '@tempora/contracts';
import { apiGet, apiRequest } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/download.ts';

const enc = encodeURIComponent;
const base = 'apiUrlBase' as const;
const staff = (eventId: string, rest: string) => `entries/staff/events/${enc(eventId)}/${rest}`;

/** Query keys of online entries (issue 38). */
export const entriesKeys = {
  page: (eventId: string) => ['entries', 'page', eventId] as const,
  order: (orderId: string) => ['entries', 'order', orderId] as const,
  entry: (code: string) => ['entries', 'entry', code] as const,
  mine: ['entries', 'mine'] as const,
  waitlists: ['entries', 'waitlists'] as const,
  team: (token: string) => ['entries', 'team', token] as const,
  settings: (eventId: string) => ['entries', 'settings', eventId] as const,
  staff: (eventId: string, filter: object) => ['entries', 'staff', eventId, filter] as const,
};

/** The public entry page of an event: open or not, races with prices and places, questions, add-ons, waiver. */
export function useRegistrationPage(eventId: string) {
  return useQuery({
    queryKey: entriesKeys.page(eventId),
    queryFn: ({ signal }) => apiGet<RegistrationPage>(base, `entries/events/${enc(eventId)}`, { signal }),
    retry: false,
  });
}

/** Places the order: the places are held while the runner pays. */
export function usePlaceOrder(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: EntryOrderInput) =>
      apiRequest<EntryOrder>(base, `entries/events/${enc(eventId)}/orders`, { method: 'POST', body: input }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: entriesKeys.page(eventId) });
      // My entries changes too: a new entry, a deferral credit used (its place, its rest refunded).
      void client.invalidateQueries({ queryKey: entriesKeys.mine });
    },
  });
}

/** An order as its payer sees it; asked again every 3 s while a payment is awaited (the webhook confirms). */
export function useEntryOrder(orderId: string) {
  return useQuery({
    queryKey: entriesKeys.order(orderId),
    queryFn: ({ signal }) => apiGet<EntryOrder>(base, `entries/orders/${enc(orderId)}`, { signal }),
    refetchInterval: (query) => (query.state.data?.state === 'awaiting_payment' ? 3000 : false),
  });
}

/** The payment providers the server offers. */
export function useProviders() {
  return useQuery({
    queryKey: ['entries', 'providers'] as const,
    queryFn: ({ signal }) => apiGet<{ providers: string[] }>(base, 'payments/providers', { signal }),
    staleTime: 5 * 60_000,
  });
}

/** Starts paying an order: the provider's checkout URL (Mollie, Stripe). */
export function usePay(orderId: string) {
  return useMutation({
    mutationFn: (provider: 'mollie' | 'stripe' | 'bank') =>
      apiRequest<{ checkoutUrl: string | null }>(base, `payments/orders/${enc(orderId)}/pay`, {
        method: 'POST',
        body: {
          provider,
          returnUrl: `${window.location.origin}${window.location.pathname}#/entries/orders/${enc(orderId)}`,
        },
      }),
  });
}

/** Pay on site (when the organiser allows it): the entries are confirmed now. */
export function usePayOnSite(orderId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest<EntryOrder>(base, `entries/orders/${enc(orderId)}/on-site`, { method: 'POST' }),
    onSuccess: (order) => client.setQueryData(entriesKeys.order(orderId), order),
  });
}

export function useMyEntries({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: entriesKeys.mine,
    queryFn: ({ signal }) => apiGet<MyEntry[]>(base, 'entries/mine', { signal }),
    enabled,
  });
}

/** The caller's waitlist places (waiting, invited, expired, or closed with the race's entries). */
export function useMyWaitlists({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: entriesKeys.waitlists,
    queryFn: ({ signal }) => apiGet<MyWaitlist>(base, 'entries/waitlists/mine', { signal }),
    enabled,
  });
}

export function useEntry(code: string) {
  return useQuery({
    queryKey: entriesKeys.entry(code),
    queryFn: ({ signal }) => apiGet<MyEntry>(base, `entries/entry/${enc(code)}`, { signal }),
  });
}

/** The entry code's QR code as an SVG text (asked with the caller's credentials). */
export function useEntryQr(code: string) {
  return useQuery({
    queryKey: [...entriesKeys.entry(code), 'qr'] as const,
    queryFn: ({ signal }) => apiGet<string>(base, `entries/entry/${enc(code)}/qr.svg`, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export const downloadCalendar = (code: string) =>
  downloadFile(base, `entries/entry/${enc(code)}/calendar.ics`, { fallback: `${code}.ics` });

/** What an action would cost or refund now (shown before the runner confirms). */
export function useQuote(code: string) {
  return useMutation({
    mutationFn: (input: EntryActionInput) =>
      apiRequest<EntryQuote>(base, `entries/entry/${enc(code)}/quote`, { method: 'POST', body: input }),
  });
}

export function useEntryAction(code: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: EntryActionInput) =>
      apiRequest<{ entry: MyEntry; orderId: string | null; payCents: number; refundCents: number }>(
        base,
        `entries/entry/${enc(code)}/action`,
        { method: 'POST', body: input },
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: entriesKeys.entry(code) });
      void client.invalidateQueries({ queryKey: entriesKeys.mine });
    },
  });
}

/** Joins a full race's waitlist. */
export function useJoinWaitlist(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ raceId, lang }: { raceId: string; lang: 'en' | 'fr' }) =>
      apiRequest<{ id: string; position: number; state: string }>(
        base,
        `entries/races/${enc(raceId)}/waitlist`,
        {
          method: 'POST',
          body: { lang },
        },
      ),
    onSettled: () => client.invalidateQueries({ queryKey: entriesKeys.page(eventId) }),
  });
}

// Team entries: a captain names the team, members join with its link.

export function useCreateTeam(eventId: string) {
  return useMutation({
    mutationFn: (input: TeamInput) =>
      apiRequest<Team>(base, `entries/events/${enc(eventId)}/teams`, { method: 'POST', body: input }),
  });
}

export function useTeam(token: string) {
  return useQuery({
    queryKey: entriesKeys.team(token),
    queryFn: ({ signal }) => apiGet<Team>(base, `entries/teams/${enc(token)}`, { signal }),
    retry: false,
  });
}

/** Joins a team with its link, on the event page the link names (each pays: an order to pay). */
export function useJoinTeam(eventId: string, token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: EntryOrderInput) =>
      apiRequest<TeamJoin>(base, `entries/events/${enc(eventId)}/teams/${enc(token)}/join`, {
        method: 'POST',
        body: input,
      }),
    onSuccess: (joined) => client.setQueryData(entriesKeys.team(token), joined.team),
  });
}

/** The captain pays for the members waiting: one order. */
export function useTeamOrder(token: string) {
  return useMutation({
    mutationFn: (lang: 'en' | 'fr') =>
      apiRequest<EntryOrder>(base, `entries/teams/${enc(token)}/order`, { method: 'POST', body: { lang } }),
  });
}

export const downloadReceipt = (orderId: string) =>
  downloadFile(base, `payments/orders/${enc(orderId)}/receipt.pdf`, { fallback: `receipt-${orderId}.pdf` });

/** The numbered invoice of a paid entries order (in the runner's language). */
export const downloadInvoice = (orderId: string) =>
  downloadFile(base, `payments/orders/${enc(orderId)}/invoice.pdf`, { fallback: `invoice-${orderId}.pdf` });

/** A credit note (avoir) of a refund of an invoiced entries order (in the runner's language). */
export const downloadCreditNote = (orderId: string, number: string) =>
  downloadFile(base, `payments/orders/${enc(orderId)}/credit-notes/${enc(number)}`, {
    fallback: `credit-note-${number}.pdf`,
  });

/** The entries' start list: entrants per race, with the questions shown on the start list. */
export function useEntriesStartList(eventId: string) {
  return useQuery({
    queryKey: ['entries', 'start-list', eventId] as const,
    queryFn: ({ signal }) =>
      apiGet<EntriesStartList>(base, `entries/events/${enc(eventId)}/start-list`, { signal }),
  });
}

// The organiser's side.

export function useRegistrationSettings(eventId: string) {
  return useQuery({
    queryKey: entriesKeys.settings(eventId),
    queryFn: ({ signal }) => apiGet<RegistrationSettingsView>(base, staff(eventId, 'settings'), { signal }),
  });
}

export function useSaveRegistrationSettings(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: RegistrationSettingsInput) =>
      apiRequest<RegistrationSettingsView>(base, staff(eventId, 'settings'), { method: 'PUT', body: input }),
    onSuccess: (view) => client.setQueryData(entriesKeys.settings(eventId), view),
  });
}

export function useStaffEntries(eventId: string, filter: { race?: string; state?: string; q?: string }) {
  const query = new URLSearchParams(
    Object.entries(filter).filter(([, v]) => v) as [string, string][],
  ).toString();
  return useQuery({
    queryKey: entriesKeys.staff(eventId, filter),
    queryFn: ({ signal }) =>
      apiGet<StaffEntries>(base, staff(eventId, `entries${query ? `?${query}` : ''}`), { signal }),
  });
}

export function useStaffEntry(eventId: string, code: string | null) {
  return useQuery({
    queryKey: ['entries', 'staff-entry', eventId, code] as const,
    enabled: Boolean(code),
    queryFn: ({ signal }) =>
      apiGet<{
        entry: StaffEntry;
        history: { action: string; actor: string; at: string; detail: Record<string, unknown> }[];
      }>(base, staff(eventId, `entries/${enc(code ?? '')}`), { signal }),
  });
}

export function useManualEntry(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ManualEntryInput) =>
      apiRequest<StaffEntry>(base, staff(eventId, 'manual'), { method: 'POST', body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['entries', 'staff', eventId] }),
  });
}

export function useReleasePlaces(eventId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ raceId, places }: { raceId: string; places: number }) =>
      apiRequest<{ invited: number }>(base, staff(eventId, `races/${enc(raceId)}/release`), {
        method: 'POST',
        body: { places },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['entries', 'staff', eventId] }),
  });
}

export const downloadEntries = (eventId: string, format: 'csv' | 'xlsx', lng: string) =>
  downloadFile(base, staff(eventId, `export.${format}?lng=${lng === 'fr' ? 'fr' : 'en'}`), {
    fallback: `entries-${eventId}.${format}`,
  });
