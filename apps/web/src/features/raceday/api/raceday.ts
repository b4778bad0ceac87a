import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type RacedayAuditEntry as AuditEntry,
  type ConnectorKind,
  type DeskReads,
  type DevicesAnswer,
  liveChannels,
  type RacedayEvent,
  type Runner,
  type ServerClock,
  type UnknownRunner,
} from '@tempora/contracts';
import { apiGet, apiRequest } from '../../../lib/api-client.ts';
import { useChannelEvent, useReconnectCatchUp } from '../../../lib/realtime/realtime-provider.tsx';

/** Types of the race-day API: packages/contracts (raceday-api.ts), which its routes declare. */
export type {
  ConnectorKind,
  DeskRead,
  DeviceRow,
  RacedayAuditEntry as AuditEntry,
  RacedayEvent,
  RacedayPoint,
  RacedayRace,
  Runner,
  UnknownRunner,
} from '@tempora/contracts';
/** The kinds in the order the device form offers them. */
export const CONNECTOR_KINDS: ConnectorKind[] = [
  'raceresult',
  'wiclax',
  'mylaps',
  'chronotrack',
  'impinj',
  'rrexporter',
  'tempora',
];
export interface DeskFilters {
  point?: string;
  device?: string;
  bib?: string;
}

const enc = encodeURIComponent;
const ctx = (db: string, path: string) => `raceday/contexts/${enc(db)}${path}`;

export const racedayKeys = {
  event: (eventId: string) => ['raceday', 'event', eventId] as const,
  devices: (db: string) => ['raceday', db, 'devices'] as const,
  passings: (db: string, f: DeskFilters) => ['raceday', db, 'passings', f] as const,
  audit: (db: string) => ['raceday', db, 'audit'] as const,
  runners: (db: string) => ['raceday', db, 'runners'] as const,
  unknown: (db: string) => ['raceday', db, 'unknown'] as const,
};

/** The event's race-day frame; kept in localStorage so the desk opens offline after a reload. */
export function useRacedayEvent(eventId: string) {
  const stored = `raceday-event:${eventId}`;
  return useQuery({
    queryKey: racedayKeys.event(eventId),
    queryFn: async ({ signal }) => {
      const data = await apiGet<RacedayEvent>('apiUrlBase', `raceday/events/${enc(eventId)}`, { signal });
      try {
        localStorage.setItem(stored, JSON.stringify(data));
      } catch {
        /* storage full: the desk then needs the network to open */
      }
      return data;
    },
    initialData: () => {
      try {
        const text = localStorage.getItem(stored);
        return text ? (JSON.parse(text) as RacedayEvent) : undefined;
      } catch {
        return undefined;
      }
    },
    // Cached data is old: fetched again at once, and kept when that fails (offline).
    initialDataUpdatedAt: 0,
  });
}

/** The devices panel's data, polled every 2 s (device states live in the server's memory). */
export function useDevices(db: string | null) {
  return useQuery({
    queryKey: racedayKeys.devices(db ?? ''),
    enabled: !!db,
    refetchInterval: 2_000,
    queryFn: ({ signal }) => apiGet<DevicesAnswer>('apiUrlBase', ctx(db!, '/devices'), { signal }),
  });
}

/** Invalidates race-day queries of a context on every read and correction published on its channel. */
export function useRacedayLive(db: string | null) {
  const client = useQueryClient();
  const refresh = () => void client.invalidateQueries({ queryKey: ['raceday', db] });
  // The desk watches every read: the context's passings feed (issue 28).
  useChannelEvent(db ? liveChannels.passings(db) : null, 'passing', refresh);
  useChannelEvent(db ? liveChannels.passings(db) : null, 'correction', refresh);
  useReconnectCatchUp(refresh);
}

export function usePassings(db: string | null, filters: DeskFilters) {
  const q = new URLSearchParams({ limit: '500' });
  for (const [k, v] of Object.entries(filters)) if (v) q.set(k, v);
  return useQuery<DeskReads>({
    queryKey: racedayKeys.passings(db ?? '', filters),
    enabled: !!db,
    refetchInterval: 5_000,
    placeholderData: (previous) => previous,
    queryFn: ({ signal }) =>
      apiGet<DeskReads>('apiUrlBase', ctx(db!, `/passings?${q}`), {
        signal,
      }),
  });
}

export function useAudit(db: string | null) {
  return useQuery({
    queryKey: racedayKeys.audit(db ?? ''),
    enabled: !!db,
    queryFn: ({ signal }) => apiGet<AuditEntry[]>('apiUrlBase', ctx(db!, '/audit?limit=200'), { signal }),
  });
}

export function useRunners(db: string | null) {
  return useQuery({
    queryKey: racedayKeys.runners(db ?? ''),
    enabled: !!db,
    staleTime: 30_000,
    queryFn: async ({ signal }) => {
      const runners = await apiGet<Runner[]>('apiUrlBase', ctx(db!, '/runners'), { signal });
      // Kept for the offline desk: a wrong bib is flagged without the network.
      try {
        localStorage.setItem(`raceday-runners:${db}`, JSON.stringify(runners.map((r) => [r.bib, r.name])));
      } catch {
        /* storage full: the check falls back to the server's answer */
      }
      return runners;
    },
  });
}

export function useUnknown(db: string | null) {
  return useQuery({
    queryKey: racedayKeys.unknown(db ?? ''),
    enabled: !!db,
    refetchInterval: 10_000,
    queryFn: ({ signal }) => apiGet<UnknownRunner[]>('apiUrlBase', ctx(db!, '/unknown'), { signal }),
  });
}

/** A race-day write; every race-day query of the context is refreshed after it. */
export function useRacedayMutation<B, R = unknown>(
  db: string | null,
  path: string,
  method: 'POST' | 'PATCH' = 'POST',
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (vars: { body: B; path?: string }) =>
      apiRequest<R>('apiUrlBase', ctx(db!, vars.path ?? path), { method, body: vars.body }),
    onSettled: () => client.invalidateQueries({ queryKey: ['raceday', db] }),
  });
}

/**
 * The server's clock minus the browser's from one exchange: the server read its clock somewhere
 * between the request's sending and the answer's arrival, best guessed at the middle (the error
 * is at most half the round trip).
 */
export function skewOf(serverTimeMs: number, sentAt: number, receivedAt: number): number {
  // Whole milliseconds: key-press and gun times built from it are integers (the API says so).
  return Math.round(serverTimeMs - (sentAt + receivedAt) / 2);
}

const SKEW_KEY = 'raceday-clock-skew';
const SKEW_SAMPLES = 3;

/**
 * The server's clock minus the browser's, for key-press and gun times: asked of `/api/raceday/clock`
 * a few times in a row every 30 s, keeping the answer with the shortest round trip (NTP's rule: a
 * loaded network or server only widens the others). Kept across reloads, so a desk reopened
 * offline stamps its entries with the last measure rather than with none (or with the age of a
 * cached answer).
 */
export function useServerSkew(): number {
  const query = useQuery({
    queryKey: ['raceday', 'clock'] as const,
    queryFn: async ({ signal }) => {
      let best: { rtt: number; skew: number } | null = null;
      for (let k = 0; k < SKEW_SAMPLES; k++) {
        const sentAt = Date.now();
        const { serverTimeMs } = await apiGet<ServerClock>('apiUrlBase', 'raceday/clock', {
          signal,
        });
        const receivedAt = Date.now();
        if (!best || receivedAt - sentAt < best.rtt)
          best = { rtt: receivedAt - sentAt, skew: skewOf(serverTimeMs, sentAt, receivedAt) };
      }
      try {
        localStorage.setItem(SKEW_KEY, String(best!.skew));
      } catch {
        /* storage full: the next reload measures again */
      }
      return best!.skew;
    },
    initialData: () => {
      try {
        const text = localStorage.getItem(SKEW_KEY);
        return text === null || !Number.isFinite(Number(text)) ? undefined : Math.round(Number(text));
      } catch {
        return undefined;
      }
    },
    initialDataUpdatedAt: 0,
    refetchInterval: 30_000,
    // Offline the last measure stands.
    retry: false,
  });
  return query.data ?? 0;
}
