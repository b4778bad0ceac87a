import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type AthleteCard,
  CHANGED_EVENT,
  type EventDetail as ContractEventDetail,
  liveChannels,
  type ParticipantHit,
} from '@tempora/contracts';
import { compareHits, matchScore } from '@tempora/domain';
import { useRef } from 'react';
import { apiGet } from '../../lib/api-client.ts';
import { useChannelEvent, useReconnectCatchUp } from '../../lib/realtime/realtime-provider.tsx';

/** Event summary with its contexts, races and series (`GET events/{id}`, contracts' EventDetail). */
export type EventDetail = ContractEventDetail;

export function useEventDetail(eventId: string | undefined) {
  return useQuery({
    queryKey: ['event', eventId],
    enabled: !!eventId,
    queryFn: ({ signal }) =>
      apiGet<EventDetail>('eventsApiUrlBase', `events/${encodeURIComponent(eventId!)}`, { signal }),
  });
}

/** Search athletes of the event's contexts by name or bib (exact bib first, server side). */
export function useAthleteSearch(dbs: string[], q: string) {
  return useQuery<ParticipantHit[]>({
    queryKey: ['athlete-search', dbs, q],
    enabled: dbs.length > 0 && q.trim().length > 0,
    placeholderData: (previous) => previous,
    queryFn: async ({ signal }) => {
      const lists = await Promise.all(
        dbs.map((db) =>
          apiGet<ParticipantHit[]>(
            'trackingApiUrlBase',
            `results/contexts/${encodeURIComponent(db)}/participants?q=${encodeURIComponent(q.trim())}`,
            { signal },
          ),
        ),
      );
      // Several contexts: ranked again together by the server's rule (relevance, then bib).
      return lists
        .flat()
        .map((h) => {
          const [firstName = '', ...rest] = h.name.split(' ');
          return { ...h, score: matchScore(q, { bib: h.bib, firstName, lastName: rest.join(' ') }) };
        })
        .sort(compareHits)
        .slice(0, 20);
    },
  });
}

/**
 * Refetches `queryKey` when its view's channel reports activity (throttled to one refetch per
 * `everyMs`), and after a reconnection: live pages never keep their own copy of server data.
 * Issue 28, channels follow views: a runner's page listens to the runner's channel (his reads and
 * the corrections that touch him), other pages to the context's changes (one small event per
 * publication, not every read).
 */
export function useLiveRefetch(
  db: string | null | undefined,
  queryKey: readonly unknown[],
  bib?: string | null,
  everyMs = 2000,
) {
  const client = useQueryClient();
  const last = useRef(0);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refetch = () => {
    const wait = Math.max(0, last.current + everyMs - Date.now());
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      last.current = Date.now();
      void client.invalidateQueries({ queryKey });
    }, wait);
  };
  const channel = !db ? null : bib ? liveChannels.runner(db, bib) : liveChannels.changes(db);
  useChannelEvent(channel, bib ? 'passing' : CHANGED_EVENT, refetch);
  // Race-day corrections (void, status, gun): on a runner's channel, his or everyone's.
  useChannelEvent(channel, 'correction', refetch);
  useReconnectCatchUp(() => void client.invalidateQueries({ queryKey }));
}

/** One athlete by tracking key, live. */
export function useAthlete(trackingKey: string | undefined) {
  const key = ['athlete', trackingKey] as const;
  const query = useQuery({
    queryKey: key,
    enabled: !!trackingKey,
    queryFn: ({ signal }) =>
      apiGet<AthleteCard>('trackingApiUrlBase', `tracking/${encodeURIComponent(trackingKey!)}`, { signal }),
    refetchInterval: 30_000,
  });
  useLiveRefetch(query.data?.db, key, query.data?.athlete.bib, 500);
  return query;
}

/** One athlete of a context by bib (detail pages), live. */
export function useAthleteByBib(db: string | undefined, bib: string | undefined) {
  const key = ['athlete-bib', db, bib] as const;
  const query = useQuery({
    queryKey: key,
    enabled: !!db && !!bib,
    queryFn: ({ signal }) =>
      apiGet<AthleteCard>(
        'trackingApiUrlBase',
        `results/contexts/${encodeURIComponent(db!)}/participants/${encodeURIComponent(bib!)}`,
        { signal },
      ),
  });
  useLiveRefetch(db, key, bib, 500);
  return query;
}

/** The event's name for breadcrumbs (its id until it is loaded, or when it cannot be). */
export function useEventName(eventId: string | undefined): string {
  return useEventDetail(eventId).data?.name ?? eventId ?? '';
}
