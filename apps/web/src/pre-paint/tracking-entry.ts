import type { AthleteCard, EventDetail } from '@tempora/contracts';
import { runPrePaint } from './run-pre-paint.ts';
import { buildTrackingPrePaint, type TrackingPrePaintStrings } from './tracking-pre-paint.ts';

/** The texts of the script's language (one script per language), put in by the build (apps/web/build/boot-script.ts). */
declare const PRE_PAINT_STRINGS: TrackingPrePaintStrings;
/** The address of the icons' sprite (icons.ts), put in by the build. */
declare const PRE_PAINT_SPRITE: string;

/**
 * The tracking card's pre-paint script (issue 19), loaded by the boot script on `/#/tracking/{key}`
 * and `/#/events/{eventId}/tracking/{key}` (issue 27) — a script of its own, apart from the report's: the tracking page's first JavaScript has
 * about 1 KB left under the 200 KB budget. Once the card's early answer is in, it draws the first
 * screen (tracking-pre-paint.ts) over the page until React's card replaces it (run-pre-paint.ts).
 */
runPrePaint<[AthleteCard, EventDetail | string, string?]>(([card, event], paint) =>
  buildTrackingPrePaint(document, {
    card,
    lng: paint.lng,
    strings: PRE_PAINT_STRINGS,
    sprite: PRE_PAINT_SPRITE,
    logo: '/favicon.svg',
    following: followed(card.eventId, card.athlete.bib),
    // An event's card (boot-script.ts asks for its event too): the default layout's picture.
    event:
      typeof event === 'object'
        ? {
            name: event.name,
            width: document.documentElement.clientWidth || window.innerWidth,
            pinned: localStorage.getItem('drawerPinned') === 'true',
          }
        : undefined,
  }),
);

/** The athlete is in the event's one follow list (use-favorites.ts), false when unreadable. */
function followed(eventId: string, bib: string): boolean {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(`favorites:${eventId}`) ?? '[]');
    return Array.isArray(stored) && stored.includes(bib);
  } catch {
    return false;
  }
}
