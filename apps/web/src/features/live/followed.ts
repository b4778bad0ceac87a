import { useSyncExternalStore } from 'react';

/**
 * The athletes a spectator follows (issue 7 `genericTracking`): tracking keys kept in
 * localStorage under `followed`, shared by every tab (the `storage` event), at most `MAX`.
 */
const KEY = 'followed';
export const MAX_FOLLOWED = 12;
const listeners = new Set<() => void>();
let cache: { raw: string | null; keys: string[] } = { raw: null, keys: [] };

function read(): string[] {
  const raw = window.localStorage.getItem(KEY);
  if (raw !== cache.raw) {
    let keys: string[] = [];
    try {
      const parsed = JSON.parse(raw ?? '[]');
      if (Array.isArray(parsed))
        keys = parsed.filter((k): k is string => typeof k === 'string').slice(0, MAX_FOLLOWED);
    } catch {
      // A damaged value starts the list again.
    }
    cache = { raw, keys };
  }
  return cache.keys;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => e.key === KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Adds or removes a tracking key; the oldest is dropped beyond `MAX_FOLLOWED`. */
export function toggleFollowed(trackingKey: string): void {
  const keys = read();
  const next = keys.includes(trackingKey)
    ? keys.filter((k) => k !== trackingKey)
    : [...keys, trackingKey].slice(-MAX_FOLLOWED);
  window.localStorage.setItem(KEY, JSON.stringify(next));
  for (const listener of listeners) listener();
}

export function useFollowed(): string[] {
  return useSyncExternalStore(subscribe, read, () => []);
}

/** Tracking keys from a `genericTracking/{key}` parameter: one key or several joined by commas. */
export function keysFromParam(param: string | undefined): string[] {
  return [
    ...new Set(
      (param ?? '')
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    ),
  ].slice(0, MAX_FOLLOWED);
}
