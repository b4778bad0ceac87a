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
const keysStorageKey = (eventId: string) => `favorite-keys:${eventId}`;
const KEYS_PREFIX = 'favorite-keys:';
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

function readKeys(eventId: string): Record<string, string> {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(keysStorageKey(eventId)) ?? '{}');
    return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The tracking key in a report row's link to its card (`…/tracking/{key}`), if any. */
export function trackingKeyOfRow(row: readonly unknown[]): string | undefined {
  for (const value of row) {
    if (typeof value !== 'string') continue;
    const m = /\/tracking\/([^/?#]+)$/.exec(value);
    if (m) return decodeURIComponent(m[1]!);
  }
  return undefined;
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
  localStorage.setItem(keysStorageKey(eventId), JSON.stringify(keys));
  window.dispatchEvent(new CustomEvent(CHANGED, { detail: eventId }));
  return set;
}

/** The tracking keys of every followed athlete of every event on this device, in storage order. */
export function readFollowedKeys(): string[] {
  const out: string[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const name = localStorage.key(i);
    if (!name?.startsWith(KEYS_PREFIX)) continue;
    const eventId = name.slice(KEYS_PREFIX.length);
    const set = readFavorites(eventId);
    for (const [bib, key] of Object.entries(readKeys(eventId)))
      if (set.has(bib) && typeof key === 'string') out.push(key);
  }
  return [...new Set(out)];
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
  const toggle = useCallback(
    (key: string, trackingKey?: string) => void toggleFavorite(eventId, key, trackingKey),
    [eventId],
  );
  return { favorites, toggle };
}

/** The tracking keys followed on this device, across events (`/genericTracking`), live. */
export function useFollowedKeys(): string[] {
  const raw = useSyncExternalStore(subscribe, followedSnapshot, () => '');
  return useMemo(() => (raw ? raw.split('\n') : []), [raw]);
}

function followedSnapshot(): string {
  return readFollowedKeys().join('\n');
}
