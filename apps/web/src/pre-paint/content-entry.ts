import type { EventDetail } from '@tempora/contracts';
import { buildContentPrePaint, type ContentPrePaintStrings } from './content-pre-paint.ts';
import { runPrePaint } from './run-pre-paint.ts';

/** The texts of the script's language (one script per language), put in by the build (apps/web/build/boot-script.ts). */
declare const PRE_PAINT_STRINGS: ContentPrePaintStrings;
/** The address of the icons' sprite (icons.ts), put in by the build. */
declare const PRE_PAINT_SPRITE: string;

/**
 * The home pages' pre-paint script (issue 28), loaded by the boot script on `/#/` and
 * `/#/events/{eventId}/home`: once the page's early answer is in (the events, or the event), it
 * draws the first screen (content-pre-paint.ts) over the page until React's replaces it.
 */
runPrePaint<[unknown, string]>(([answer], paint) =>
  buildContentPrePaint(document, {
    // The event home asks for the event (an object), `/` for the events (a list).
    event: answer && !Array.isArray(answer) ? (answer as EventDetail) : undefined,
    lng: paint.lng,
    strings: PRE_PAINT_STRINGS,
    sprite: PRE_PAINT_SPRITE,
    logo: '/favicon.svg',
    width: document.documentElement.clientWidth || window.innerWidth,
    pinned: localStorage.getItem('drawerPinned') === 'true',
  }),
);
