import { buildFollowedPrePaint, type FollowedPrePaintStrings } from './followed-pre-paint.ts';
import { runPrePaint } from './run-pre-paint.ts';

/** The texts of the script's language (one script per language), put in by the build (apps/web/build/boot-script.ts). */
declare const PRE_PAINT_STRINGS: FollowedPrePaintStrings;
/** The address of the icons' sprite (icons.ts), put in by the build. */
declare const PRE_PAINT_SPRITE: string;

/**
 * `/genericTracking`'s pre-paint script (issue 28), loaded by the boot script on that page: the
 * first screen (followed-pre-paint.ts) over the page until React's replaces it. Not with
 * `?event=` (the page then has the event's navigation and breadcrumbs): React's alone.
 */
runPrePaint<unknown>((_, paint) => {
  if (/[?&]event=/.test(window.location.hash)) throw new Error('an event’s list: React draws it');
  return buildFollowedPrePaint(document, {
    lng: paint.lng,
    strings: PRE_PAINT_STRINGS,
    sprite: PRE_PAINT_SPRITE,
    logo: '/favicon.svg',
    following: followsSomeone(),
  });
});

/** Some event's follow list on this device names an athlete (use-favorites.ts `favorite-keys:`). */
function followsSomeone(): boolean {
  for (let i = 0; i < localStorage.length; i++) {
    const name = localStorage.key(i) ?? '';
    if (!name.startsWith('favorite-keys:')) continue;
    try {
      const keys: unknown = JSON.parse(localStorage.getItem(name) ?? '{}');
      if (keys && typeof keys === 'object' && Object.keys(keys).length) return true;
    } catch {}
  }
  return false;
}
