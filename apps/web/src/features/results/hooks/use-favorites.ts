import { useCallback, useMemo, useSyncExternalStore } from 'react';

/** Favourites (spec §3: a set of row keys), one set per event, kept in localStorage. */
export const favoritesStorageKey = (eventId: string) => `favorites:${eventId}`;
const CHANGED = 'tempora:favorites';

/** The favourites of an event (an empty set when none or unreadable). */
export function readFavorites(eventId: string): Set<string> {
  try {
    const raw = JSON.parse(localStorage.getItem(favoritesStorageKey(eventId)) ?? '[]');
    return new Set(Array.isArray(raw) ? raw.map(String) : []);
  } catch {
    return new Set();
  }
}

/** Toggles a row key in or out of the event's set (spec §4 "Favorite star"); returns the new set. */
export function toggleFavorite(eventId: string, key: string): Set<string> {
  const set = readFavorites(eventId);
  if (set.has(key)) set.delete(key);
  else set.add(key);
  localStorage.setItem(favoritesStorageKey(eventId), JSON.stringify([...set]));
  window.dispatchEvent(new CustomEvent(CHANGED, { detail: eventId }));
  return set;
}

function subscribe(listener: () => void) {
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
  const toggle = useCallback((key: string) => void toggleFavorite(eventId, key), [eventId]);
  return { favorites, toggle };
}
