import { type AthleteCard, liveChannels } from '@tempora/contracts';
import { formatDuration } from '@tempora/domain';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { apiGet } from '../../lib/api-client.ts';
import { pointName } from '../../lib/point-name.ts';
import { useChannelEvent } from '../../lib/realtime/realtime-provider.tsx';
import { runnerName } from '../../lib/runner-name.ts';

/** A `passing` event of a context's live channels (`liveChannels`). */
export interface PassingEvent {
  raceId: string;
  bib: string;
  pointKey: string;
  timeOfDay: number;
}

/**
 * The notification for a favourite's passing (pure): the athlete's name, the point's name and
 * their time there; null when the bib is not a favourite. `tag` makes a repeated read of the same
 * point replace the earlier notification instead of stacking.
 */
export function favoriteNotification(
  passing: PassingEvent,
  favorites: ReadonlySet<string>,
  card: Pick<AthleteCard, 'athlete' | 'race' | 'splits'> | null,
  t: (key: string, options: Record<string, unknown>) => string,
  lng = 'en',
): { title: string; body: string; tag: string } | null {
  if (!favorites.has(passing.bib)) return null;
  const name = card ? runnerName(card.athlete) : `#${passing.bib}`;
  const found = card?.race.points.find((p) => p.key === passing.pointKey);
  const point = found ? pointName(found, lng) : passing.pointKey;
  const split = card?.splits.find((s) => s.pointKey === passing.pointKey);
  const time = split?.netMs ? formatDuration(split.netMs) : '';
  return {
    title: t('notify.title', { name, bib: passing.bib }),
    body: time ? t('notify.bodyTime', { point, time }) : t('notify.body', { point }),
    tag: `${passing.raceId}/${passing.bib}/${passing.pointKey}`,
  };
}

const storageKey = (eventId: string) => `notify:${eventId}`;
const listeners = new Set<() => void>();

/** Whether this browser asked to be notified of the event's favourites (kept per event). */
export function useNotifyChoice(eventId: string): [boolean, (on: boolean) => void] {
  const on = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => window.localStorage.getItem(storageKey(eventId)) === '1',
    () => false,
  );
  const set = (value: boolean) => {
    if (value) window.localStorage.setItem(storageKey(eventId), '1');
    else window.localStorage.removeItem(storageKey(eventId));
    for (const l of listeners) l();
  };
  return [on, set];
}

/** Favourites followed at most (a channel each): a spectator's list, not a start list. */
const MAX_FOLLOWED = 50;

/**
 * Shows a browser notification when a favourite of the event passes a point of context `db`
 * (issue 7). Renders nothing; one per context of the event, listening to each favourite's own
 * channel (issue 28: a runner's reads, not the race's).
 */
export function FavoritePassingNotifier({ db, favorites }: { db: string; favorites: ReadonlySet<string> }) {
  return (
    <>
      {[...favorites].slice(0, MAX_FOLLOWED).map((bib) => (
        <FavoriteRunnerNotifier key={bib} db={db} bib={bib} favorites={favorites} />
      ))}
    </>
  );
}

function FavoriteRunnerNotifier({
  db,
  bib,
  favorites,
}: {
  db: string;
  bib: string;
  favorites: ReadonlySet<string>;
}) {
  const { t, i18n } = useTranslation('live');
  useChannelEvent(liveChannels.runner(db, bib), 'passing', (data) => {
    const passing = data as PassingEvent;
    if (!favorites.has(passing.bib) || typeof Notification === 'undefined') return;
    if (Notification.permission !== 'granted') return;
    void apiGet<AthleteCard>(
      'trackingApiUrlBase',
      `results/contexts/${encodeURIComponent(db)}/participants/${encodeURIComponent(passing.bib)}`,
    )
      .catch(() => null)
      .then((card) => {
        const note = favoriteNotification(passing, favorites, card, t, i18n.language);
        if (note) new Notification(note.title, { body: note.body, tag: note.tag });
      });
  });
  return null;
}
