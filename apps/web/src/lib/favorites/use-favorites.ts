import { useCallback, useMemo, useSyncExternalStore } from 'react';

/**
 * The ONE follow list (issue 27): per event, the bibs a spectator follows, kept on the device
 * (localStorage). The table's star, the card's Follow button, the favourites page, the map, the
 * notifications and `/genericTracking` all read and write this list. Beside it, per event, the
 * tracking key of each followed bib (known from the card, or from the row's link to its card),
 * so that `/genericTracking` can show every followed athlete's card.
 * No account API for favourites exists on the server: the list stays on the device.
 */
export const favoritesStorageKey = (eventId: string) => `favorites:${eventId}`;
export const KEYS_PREFIX = 'favorite-keys:';
const CHANGED = 'tempora:favorites';

/** A stored JSON value, undefined when absent or unreadable. */
function stored(name: string): unknown {
  try {
    return JSON.parse(localStorage.getItem(name) ?? 'null') ?? undefined;
  } catch {
    return undefined;
  }
}

/** The favourites of an event (an empty set when none or unreadable). */
export function readFavorites(eventId: string): Set<string> {
  const raw = stored(favoritesStorageKey(eventId));
  return new Set(Array.isArray(raw) ? raw.map(String) : []);
}

export function readKeys(eventId: string): Record<string, string> {
  const raw = stored(KEYS_PREFIX + eventId);
  return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, string>) : {};
}

/**
 * Toggles a bib in or out of the event's list (spec §4 "Favorite star", the card's Follow);
 * `trackingKey`, when known, is kept beside it. Returns the new set.
 */
export function toggleFavorite(eventId: string, key: string, trackingKey?: string): Set<string> {
  const set = readFavorites(eventId);
  const keys = readKeys(eventId);
  if (set.has(key)) {
    set.delete(key);
    delete keys[key];
  } else {
    set.add(key);
    if (trackingKey) keys[key] = trackingKey;
  }
  localStorage.setItem(favoritesStorageKey(eventId), JSON.stringify([...set]));
  localStorage.setItem(KEYS_PREFIX + eventId, JSON.stringify(keys));
  window.dispatchEvent(new CustomEvent(CHANGED, { detail: eventId }));
  return set;
}

export function subscribe(listener: () => void) {
  window.addEventListener(CHANGED, listener);
  window.addEventListener('storage', listener);
  return () => {
    window.removeEventListener(CHANGED, listener);
    window.removeEventListener('storage', listener);
  };
}

/** The favourites of an event, shared by every component and tab, and a toggle. */
export function useFavorites(eventId: string) {
  const raw = useSyncExternalStore(
    subscribe,
    () => localStorage.getItem(favoritesStorageKey(eventId)) ?? '[]',
    () => '[]',
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: the stored string is the snapshot.
  const favorites = useMemo(() => readFavorites(eventId), [raw, eventId]);
  const toggle = useCallback(
    (key: string, trackingKey?: string) => void toggleFavorite(eventId, key, trackingKey),
    [eventId],
  );
  return { favorites, toggle };
}
