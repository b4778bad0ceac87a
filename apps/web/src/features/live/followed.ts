import { useMemo, useSyncExternalStore } from 'react';
import { KEYS_PREFIX, readFavorites, readKeys, subscribe } from '../../lib/favorites/use-favorites.ts';

/**
 * The athletes a spectator follows (issue 7 `genericTracking`): since issue 27 the same list as
 * the tables' favourites (use-favorites.ts, per event on the device); at most `MAX` cards shown.
 */
export const MAX_FOLLOWED = 12;

/** The tracking keys followed on this device (every event), the first `MAX_FOLLOWED`. */
export function useFollowed(): string[] {
  return useFollowedKeys().slice(0, MAX_FOLLOWED);
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

/** The tracking keys of every followed athlete of every event on this device, in storage order. */
export function readFollowedKeys(): string[] {
  const out: string[] = [];
  for (const name of Object.keys(localStorage)) {
    if (!name.startsWith(KEYS_PREFIX)) continue;
    const eventId = name.slice(KEYS_PREFIX.length);
    const set = readFavorites(eventId);
    for (const [bib, key] of Object.entries(readKeys(eventId))) if (set.has(bib)) out.push(String(key));
  }
  return [...new Set(out)];
}

/** The tracking keys followed on this device, across events (`/genericTracking`), live. */
export function useFollowedKeys(): string[] {
  const raw = useSyncExternalStore(subscribe, followedSnapshot, () => '');
  return useMemo(() => (raw ? raw.split('\n') : []), [raw]);
}

function followedSnapshot(): string {
  return readFollowedKeys().join('\n');
}
