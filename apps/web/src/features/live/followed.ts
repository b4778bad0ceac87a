import { useFollowedKeys } from '../results/hooks/use-favorites.ts';

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
